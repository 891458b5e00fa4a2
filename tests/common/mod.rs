//! Shared by the tests that drive pydraughts 0.6.7: finds (or creates) a Python with it.

use std::path::{Path, PathBuf};
use std::process::Command;

const PYDRAUGHTS: &str = "pydraughts==0.6.7";

fn has_pydraughts(python: &Path) -> bool {
    Command::new(python)
        .args([
            "-c",
            "import draughts, importlib.metadata as m; assert m.version('pydraughts') == '0.6.7'",
        ])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// A Python interpreter with pydraughts 0.6.7: `$DAMIERA_PYTHON`, else `.venv/bin/python`,
/// creating `.venv` with pydraughts if need be (as `.ci/run` does).
pub fn python() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if let Ok(p) = std::env::var("DAMIERA_PYTHON") {
        let p = PathBuf::from(p);
        assert!(
            has_pydraughts(&p),
            "DAMIERA_PYTHON={} has no {PYDRAUGHTS}",
            p.display()
        );
        return p;
    }
    let venv = root.join(".venv");
    let py = venv.join("bin/python");
    if py.exists() && has_pydraughts(&py) {
        return py;
    }
    eprintln!("creating {} with {PYDRAUGHTS}", venv.display());
    let ok = Command::new("python3")
        .arg("-m")
        .arg("venv")
        .arg(&venv)
        .status()
        .is_ok_and(|s| s.success())
        && Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", PYDRAUGHTS])
            .status()
            .is_ok_and(|s| s.success());
    assert!(
        ok && has_pydraughts(&py),
        "could not install {PYDRAUGHTS} into {} (needs python3 and PyPI)",
        venv.display()
    );
    py
}
