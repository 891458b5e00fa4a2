"""The command line: ``damiera-cluster JOB ...`` (or ``python -m damiera_cluster``), one
subcommand a job; docs/cluster.md."""

from __future__ import annotations

import argparse
import os
import sys

from damiera_cluster.common import JobError, TaskError, find_damiera, init_ray


def parser() -> argparse.ArgumentParser:
    """The argument parser: the common options, then one subcommand a job."""
    p = argparse.ArgumentParser(
        prog="damiera-cluster",
        description="damiera's self-play, matches, endgame databases and deep perft on Ray "
        "(docs/cluster.md). Without --address the job runs on this machine.",
    )
    p.add_argument("--address", help="a running Ray cluster (ray start --head prints it), "
                   "e.g. 10.0.0.1:6379; default: start Ray on this machine")
    p.add_argument("--workers", type=int, help="without --address: how many tasks run at "
                   "once on this machine (default: every core)")
    p.add_argument("--damiera", help="the damiera binary, at the same path on every node "
                   "(default: damiera on PATH, else target/release/damiera)")
    sub = p.add_subparsers(dest="job", required=True)

    s = sub.add_parser("selfplay", help="self-play games in shards, joined into one file "
                       "identical to `damiera selfplay`'s")
    s.add_argument("-v", "--variant", required=True)
    s.add_argument("--games", type=int, required=True)
    s.add_argument("--shard", type=int, default=100, help="games a task (default 100)")
    s.add_argument("-d", "--depth", type=int, default=8, help="plies a move (default 8)")
    s.add_argument("--nodes", type=int, help="nodes a move instead of a depth")
    s.add_argument("--seed", type=int, default=1)
    s.add_argument("--opening-plies", type=int, default=8)
    s.add_argument("--hash", type=int, help="transposition table of each game, MiB")
    s.add_argument("--max-plies", type=int, help="plies after which a game is a draw")
    s.add_argument("--eval-file", help="weights to play with, at this path on every node")
    s.add_argument("-o", "--out", required=True, help="the self-play file")
    s.add_argument("--work", help="keep finished shards here; a rerun reuses them")

    m = sub.add_parser("match", help="a damiera match's opening pairs spread over workers",
                       usage="%(prog)s [options] -- DAMIERA-MATCH-ARGUMENTS")
    m.add_argument("--pairs-per-task", type=int, default=2, help="opening pairs a task "
                   "(default 2)")
    m.add_argument("--sprt", help="GSPRT ELO0,ELO1[,ALPHA,BETA]: stop the job when it decides")
    m.add_argument("--pdn", help="write every finished game here, in game order")
    m.add_argument("--json", action="store_true", help="the report as one line of JSON")
    m.add_argument("--work", help="keep finished tasks' games here; a rerun reuses them")
    m.add_argument("match_args", nargs=argparse.REMAINDER,
                   help="after --: damiera match's own arguments (variant, engines, "
                   "openings, --games, time control)")

    e = sub.add_parser("egdb", help="endgame databases as a task graph")
    e.add_argument("-v", "--variant", required=True)
    e.add_argument("-p", "--pieces", type=int, required=True)
    e.add_argument("--dir", required=True, help="the databases' root, a directory every "
                   "worker sees (shared filesystem)")

    q = sub.add_parser("perft", help="a deep perft split at a ply")
    q.add_argument("-v", "--variant", required=True)
    q.add_argument("-d", "--depth", type=int, required=True)
    q.add_argument("--split-ply", type=int, default=2, help="ply of the split (default 2)")
    q.add_argument("--fen", help="start position (default: the variant's)")
    q.add_argument("--duplicates", choices=["drop", "keep"], default="drop",
                   help="as damiera perft (keep: the OEIS A133046 counts)")
    q.add_argument("--tasks", type=int, help="tasks (default: 8 a CPU of the cluster)")
    q.add_argument("--work", help="keep finished tasks' counts here; a rerun reuses them")
    b = sub.add_parser("book", help="an opening book by drop-out expansion, the leaf searches "
                       "as tasks (at a fixed depth, the local build's book byte for byte)")
    b.add_argument("-v", "--variant", required=True)
    b.add_argument("--from", dest="openings", action="append", default=[],
                   help="an openings file on the driver (repeatable), as damiera book build")
    b.add_argument("--positions", type=int, required=True, help="stop at this many positions")
    limit = b.add_mutually_exclusive_group(required=True)
    limit.add_argument("-d", "--depth", type=int, help="leaf searches' depth in plies")
    limit.add_argument("--movetime", type=int, help="leaf searches' time in ms (the book is "
                       "then not reproducible)")
    b.add_argument("--hash", type=int, default=16, help="each search's table, MiB (default 16)")
    b.add_argument("--alpha", type=float, help="drop-out weight (default: damiera's)")
    b.add_argument("--per-task", type=int, default=1, help="positions a task (default 1)")
    b.add_argument("-o", "--out", required=True, help="the book file; resumed when it exists")
    return p


def shutdown() -> None:
    """Disconnects from Ray (the other failed tasks' errors are not printed after ours)."""
    try:
        import ray

        if ray.is_initialized():
            ray.shutdown()
    except Exception:  # noqa: BLE001 - nothing to do about a failing shutdown
        pass


def main(argv=None) -> int:
    """Runs one job; the exit status (0, 1 on a job error, 2 on bad arguments, 130 on Ctrl-C)."""
    # A failed task's error reaches the user once, as our one line (wait_tasks); Ray would
    # also print every other failed task's when its result is dropped.
    os.environ.setdefault("RAY_IGNORE_UNHANDLED_ERRORS", "1")
    args = parser().parse_args(argv)
    try:
        binary = find_damiera(args.damiera)
        if args.job == "selfplay":
            if args.games < 1 or args.shard < 1:
                raise JobError("--games and --shard must be at least 1")
        if args.job == "match" and args.pairs_per_task < 1:
            raise JobError("--pairs-per-task must be at least 1")
        if args.workers is not None and args.workers < 1:
            raise JobError("--workers must be at least 1")
        init_ray(args.address, args.workers)
        if args.job == "selfplay":
            from damiera_cluster import selfplay as job
        elif args.job == "match":
            from damiera_cluster import match as job
        elif args.job == "egdb":
            from damiera_cluster import egdb as job
        elif args.job == "book":
            from damiera_cluster import book as job
        else:
            from damiera_cluster import perft as job
        return job.run(args, binary)
    except (JobError, TaskError) as e:
        shutdown()
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("error: interrupted (finished tasks are kept with --work)", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
