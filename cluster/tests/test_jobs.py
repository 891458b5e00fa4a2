"""Each job on a local two-worker Ray cluster gives what the local damiera command gives:
the self-play file byte for byte, the match's games and results, the database files, and
perft counts equal to the published ones (OEIS A133046, tests/perft/english.perft). A worker
killed mid-job changes nothing; a rerun with --work runs only the tasks it does not hold; a
failing task is one line naming it."""

from __future__ import annotations

import filecmp
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
OPENINGS = str(REPO / "data" / "openings" / "english-3move.txt")


def driver(cluster, damiera, *args, check=True):
    """Runs `python -m damiera_cluster --address A --damiera B ARGS`."""
    address, _ = cluster
    p = subprocess.run(
        [sys.executable, "-m", "damiera_cluster", "--address", address, "--damiera", damiera,
         *args],
        capture_output=True, text=True, timeout=600,
    )
    if check:
        assert p.returncode == 0, p.stderr[-2000:]
    return p


def local(damiera, *args) -> str:
    return subprocess.run([damiera, *args], capture_output=True, text=True, check=True).stdout


def published_perft(depth: int) -> int:
    """English start position, duplicates kept: tests/perft/english.perft (OEIS A133046)."""
    text = (REPO / "tests" / "perft" / "english.perft").read_text()
    block = text.split("id start", 1)[1].split("\nid ", 1)[0]
    m = re.search(rf"^keep {depth} (\d+)$", block, re.M)
    assert m, f"no keep {depth} in english.perft"
    return int(m.group(1))


def test_selfplay_file_is_the_local_runs_byte_for_byte(cluster, damiera, tmp_path):
    local(damiera, "selfplay", "-v", "english", "--games", "24", "--depth", "4", "--seed", "5",
          "--out", str(tmp_path / "local.dmsp"))
    driver(cluster, damiera, "selfplay", "-v", "english", "--games", "24", "--shard", "5",
           "-d", "4", "--seed", "5", "-o", str(tmp_path / "cluster.dmsp"))
    a = (tmp_path / "local.dmsp").read_bytes()
    b = (tmp_path / "cluster.dmsp").read_bytes()
    assert len(a) > 16 + 20 * 24
    assert a == b


def games(pdn: str) -> list:
    """Each game's PDN without its date and time tags (the moves, result and round stay)."""
    kept = [l for l in pdn.splitlines() if not re.match(r"\[(Date|Time)", l)]
    return [g.strip() for g in "\n".join(kept).split("[Event") if g.strip()]


def test_match_at_fixed_depth_gives_the_local_games_and_report(cluster, damiera, tmp_path):
    match = ["-v", "english", "--engine", damiera, "--name", "a", "--option", "Hash=8",
             "--engine", damiera, "--name", "b", "--option", "Hash=4", "--openings", OPENINGS,
             "--games", "20", "--depth", "5"]
    local_report = local(damiera, "match", *match, "--pdn", str(tmp_path / "local.pdn"))
    p = driver(cluster, damiera, "match", "--pdn", str(tmp_path / "cluster.pdn"), "--", *match)
    local_games = games((tmp_path / "local.pdn").read_text())
    assert len(local_games) == 20
    assert games((tmp_path / "cluster.pdn").read_text()) == local_games
    pick = lambda text: [l for l in text.splitlines()
                         if l.startswith(("Games:", "Results", "Pentanomial", "Elo:", "Endings"))]
    assert pick(p.stdout) == pick(local_report)
    assert len(pick(p.stdout)) == 5


def test_match_sprt_stops_the_job_and_the_report_says_so(cluster, damiera, tmp_path):
    # The same engine on both sides with a very easy test: H0 after a few pairs.
    match = ["-v", "english", "--engine", damiera, "--name", "a", "--engine", damiera,
             "--name", "b", "--openings", OPENINGS, "--games", "312", "--depth", "3"]
    p = driver(cluster, damiera, "match", "--sprt", "200,400,0.2,0.2", "--pairs-per-task", "1",
               "--json", "--", *match)
    import json
    s = json.loads(p.stdout)
    assert s["sprt"] == "H0"
    assert s["games"] < 312


def test_egdb_files_are_the_local_builds(cluster, damiera, tmp_path):
    local(damiera, "egdb", "build", "-v", "english", "-p", "3", "--dir", str(tmp_path / "local"))
    driver(cluster, damiera, "egdb", "-v", "english", "-p", "3", "--dir", str(tmp_path / "cl"))
    a, b = tmp_path / "local" / "english", tmp_path / "cl" / "english"
    names = sorted(os.listdir(a))
    assert len(names) == 16
    assert sorted(os.listdir(b)) == names
    match, mismatch, errors = filecmp.cmpfiles(a, b, names, shallow=False)
    assert mismatch == [] and errors == []


def test_perft_10_is_the_published_count(cluster, damiera):
    p = driver(cluster, damiera, "perft", "-v", "english", "-d", "10", "--split-ply", "2",
               "--duplicates", "keep")
    n = int(re.search(r"Nodes searched: (\d+)", p.stdout).group(1))
    assert n == published_perft(10) == 18_391_564
    own = local(damiera, "perft", "-v", "english", "-d", "10", "--duplicates", "keep")
    assert f"Nodes searched: {n}" in own


def test_a_worker_killed_mid_job_changes_nothing(cluster, damiera, tmp_path):
    _, pids = cluster
    for f in pids.iterdir():
        f.unlink()
    local(damiera, "selfplay", "-v", "english", "--games", "16", "--depth", "7", "--seed", "9",
          "--out", str(tmp_path / "local.dmsp"))
    address, _ = cluster
    job = subprocess.Popen(
        [sys.executable, "-m", "damiera_cluster", "--address", address, "--damiera", damiera,
         "selfplay", "-v", "english", "--games", "16", "--shard", "4", "-d", "7", "--seed", "9",
         "-o", str(tmp_path / "cluster.dmsp")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    deadline = time.monotonic() + 120
    victim = None
    while victim is None and time.monotonic() < deadline and job.poll() is None:
        started = list(pids.iterdir())
        if started:
            victim = int(started[0].name.split("-")[0])
        else:
            time.sleep(0.02)
    assert victim is not None, "no task started"
    os.kill(victim, signal.SIGKILL)
    out, err = job.communicate(timeout=600)
    assert job.returncode == 0, err[-2000:]
    assert (tmp_path / "cluster.dmsp").read_bytes() == (tmp_path / "local.dmsp").read_bytes()
    # The killed worker's task ran again: more task starts than the 4 shards.
    assert len(list(pids.iterdir())) > 4
    try:
        os.kill(victim, 0)
        alive = True
    except ProcessLookupError:
        alive = False
    assert not alive


def test_a_rerun_with_work_runs_only_the_missing_tasks(cluster, damiera, tmp_path):
    _, pids = cluster
    work = tmp_path / "work"
    args = ["selfplay", "-v", "english", "--games", "12", "--shard", "4", "-d", "3",
            "--seed", "4", "--work", str(work)]
    driver(cluster, damiera, *args, "-o", str(tmp_path / "first.dmsp"))
    kept = sorted(work.iterdir())
    assert [f.name for f in kept] == [f"selfplay-english-{a}-{a + 4}.dmsp" for a in (0, 4, 8)]
    kept[1].unlink()
    for f in pids.iterdir():
        f.unlink()
    driver(cluster, damiera, *args, "-o", str(tmp_path / "second.dmsp"))
    # Only the shard whose file was gone ran again, and the file is the same.
    assert len(list(pids.iterdir())) == 1
    assert (tmp_path / "second.dmsp").read_bytes() == (tmp_path / "first.dmsp").read_bytes()
    assert sorted(f.name for f in work.iterdir()) == [f.name for f in kept]


def test_a_failing_task_is_one_line_naming_it(cluster, damiera, tmp_path):
    p = driver(cluster, damiera, "selfplay", "-v", "english", "--games", "4", "--shard", "2",
               "-d", "2", "--eval-file", str(tmp_path / "missing.dmnn"),
               "-o", str(tmp_path / "x.dmsp"), check=False)
    assert p.returncode == 1
    last = p.stderr.strip().splitlines()[-1]
    assert re.match(r"error: task games \d+\.\.\d+ failed: selfplay games \d+\.\.\d+: damiera "
                    r"exited with status \d+: ", last), last
    assert "missing.dmnn" in last
    assert not (tmp_path / "x.dmsp").exists()


def test_book_is_the_local_build_byte_for_byte_and_resumes(cluster, damiera, tmp_path):
    common = ["-v", "english", "--from", OPENINGS, "--depth", "4"]
    local(damiera, "book", "build", *common, "--positions", "12", "--out",
          str(tmp_path / "local.dmbk"))
    out = str(tmp_path / "cluster.dmbk")
    driver(cluster, damiera, "book", *common, "--positions", "6", "-o", out)
    p = driver(cluster, damiera, "book", *common, "--positions", "12", "--per-task", "3",
               "-o", out)
    assert "12 positions expanded" in p.stdout
    a = (tmp_path / "local.dmbk").read_bytes()
    assert len(a) > 32 + 32 * 156, "every ballot's line is in the book"
    assert a == (tmp_path / "cluster.dmbk").read_bytes()
