"""``match``: the opening pairs of a ``damiera match`` spread over workers, one
``damiera match ... --pairs A..B`` a task returning its games as PDN; the report (W/D/L,
pentanomial Elo interval, GSPRT) is damiera's own, from ``damiera match ... --report-only``
on the games finished so far, so the statistics exist once, in the engine's code.

With ``--sprt`` the driver asks for the SPRT's state after every task and, when it decides,
cancels the tasks still running: the report then covers the pairs finished by then."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import ray

from damiera_cluster.common import (
    MAX_RETRIES,
    JobError,
    Store,
    mark_task,
    run_damiera,
    run_ranges,
    split,
    write_atomic,
)

# damiera match options the driver sets itself: given after `--` they would break the split.
DRIVER_OPTIONS = ("--pdn", "--resume", "--concurrency", "--sprt", "--pairs", "--report-only",
                  "--json")


@ray.remote(num_cpus=1, max_retries=MAX_RETRIES)
def match_pairs(binary: str, match_args: list, first: int, end: int) -> str:
    """The PDN of the games of opening pairs ``first..end``, played one at a time."""
    mark_task()
    with tempfile.TemporaryDirectory(prefix="damiera-match-") as d:
        pdn = Path(d) / "pairs.pdn"
        run_damiera(
            binary,
            ["match", *match_args, "--pairs", f"{first}..{end}", "--concurrency", "1",
             "--pdn", str(pdn)],
            f"match pairs {first}..{end}",
        )
        return pdn.read_text() if pdn.exists() else ""


def games_of(match_args: list) -> int:
    """The value of ``--games`` among the match arguments (required)."""
    for i, a in enumerate(match_args):
        if a == "--games" and i + 1 < len(match_args):
            v = match_args[i + 1]
        elif a.startswith("--games="):
            v = a.split("=", 1)[1]
        else:
            continue
        try:
            n = int(v)
        except ValueError:
            raise JobError(f"--games {v}: not a number") from None
        if n < 1:
            raise JobError("--games must be at least 1")
        return n
    raise JobError("give the match's --games N after --")


def report(binary: str, match_args: list, pdn: Path, sprt, as_json: bool) -> str:
    """damiera's report of the games in ``pdn`` (text, or one JSON line)."""
    args = ["match", *match_args, "--pdn", str(pdn), "--report-only"]
    if sprt:
        args += ["--sprt", sprt]
    if as_json:
        args.append("--json")
    return run_damiera(binary, args, "match report")


def run(args, binary: str) -> int:
    """Runs the match job (``args`` from :mod:`damiera_cluster.cli`); returns the exit status."""
    match_args = list(args.match_args)
    if match_args and match_args[0] == "--":
        match_args = match_args[1:]
    for a in match_args:
        if a.split("=", 1)[0] in DRIVER_OPTIONS:
            raise JobError(f"{a.split('=', 1)[0]} is the driver's option: give it before --")
    games = games_of(match_args)
    pairs = (games + 1) // 2
    ranges = list(split(0, pairs, args.pairs_per_task))
    work = tempfile.TemporaryDirectory(prefix="damiera-match-driver-")
    merged = Path(work.name) / "games.pdn"

    def write_merged(texts: dict) -> None:
        write_atomic(merged, "".join(texts[a] for a in sorted(texts)).encode())

    def decided(texts: dict) -> bool:
        if not args.sprt or not texts:
            return False
        write_merged(texts)
        s = json.loads(report(binary, match_args, merged, args.sprt, True))
        return s.get("sprt") in ("H0", "H1")

    texts = run_ranges(
        Store(args.work),
        ranges,
        key=lambda a, b: f"match-{a}-{b}.pdn",
        submit=lambda a, b: match_pairs.remote(binary, match_args, a, b),
        label="pairs",
        what="match",
        encode=str.encode,
        decode=bytes.decode,
        stop=decided,
    )
    write_merged(texts)
    if args.pdn:
        write_atomic(Path(args.pdn), merged.read_bytes())
    out = report(binary, match_args, merged, args.sprt, args.json)
    print(out, end="")
    work.cleanup()
    return 0
