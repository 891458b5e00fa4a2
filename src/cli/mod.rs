//! The subcommands' arguments and printing, one file per subcommand; the work itself is done
//! by the library (`damiera::tools`, `damiera::engine`). What they share: the one-line
//! usage errors ([`fail`]), variant names ([`variant`]) and the `--hash` range
//! ([`hash_mib`]).

pub mod analyse;
pub mod analyse_pdn;
pub mod bench;
pub mod dxp;
pub mod egdb;
pub mod r#match;
pub mod openings;
pub mod perft;
pub mod selfplay;
pub mod train;

use damiera::core::variant::Variant;
use damiera::egdb::{Probe, Wld};
use damiera::engine::search::{DB_BOUND, DB_STEP, DB_WIN};
use damiera::engine::Score;
use std::process::ExitCode;

/// An endgame database's value for the side to move as the shell tools print it:
/// `db win in 13 plies (to conversion)`, `db draw`, `db loss in 8 plies (to conversion)`.
pub fn db_text(p: &Probe) -> String {
    match (p.value, p.distance) {
        (Wld::Draw, _) | (_, None) => "db draw".into(),
        (v, Some(d)) => format!("db {} in {d} plies (to conversion)", v.name()),
    }
}

/// A search score in the endgame databases' band ([`DB_WIN`]): `Some(plies)` to the
/// conversion from the root, positive for a win of the side to move, negative for a loss.
pub fn db_score(s: Score) -> Option<i32> {
    match s {
        Score::Cp(c) if c >= DB_BOUND => Some((DB_WIN - c) % DB_STEP),
        Score::Cp(c) if c <= -DB_BOUND => Some(-((DB_WIN + c) % DB_STEP)),
        _ => None,
    }
}

/// A usage error: `error: <msg>` on stderr and exit status 2.
pub fn fail(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// A variant by name (one line naming the accepted names if unknown).
pub fn variant(name: &str) -> Result<Variant, String> {
    name.parse::<Variant>().map_err(|e| e.to_string())
}

/// The `--hash` of every shell tool: MiB from 1 to [`damiera::engine::MAX_HASH_MIB`], the
/// range the protocols' `Hash` option takes too; outside it a one-line error (printed here)
/// and exit status 2.
pub fn hash_mib(mib: u64) -> Result<usize, ExitCode> {
    let max = damiera::engine::MAX_HASH_MIB;
    match usize::try_from(mib) {
        Ok(m) if (1..=max).contains(&m) => Ok(m),
        _ => {
            eprintln!("error: --hash {mib}: a hash table is 1 to {max} MiB");
            Err(ExitCode::from(2))
        }
    }
}
