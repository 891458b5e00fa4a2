"""What every job shares: starting Ray, running the damiera binary inside a task, writing
files atomically, keeping finished task results for a rerun, and waiting for tasks with a
progress bar and one-line errors."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Optional

# A task is retried this many times when its worker process dies (Ray's own retries of
# system failures); a task that fails by itself (damiera's exit status) is not retried.
MAX_RETRIES = 5


class JobError(Exception):
    """A job that cannot go on; its message is the one line the user sees."""


class TaskError(Exception):
    """A task whose damiera call failed: the message names the task and gives damiera's own
    last line on stderr."""


def find_damiera(given: Optional[str]) -> str:
    """The damiera binary: ``given`` (which must exist), else ``damiera`` on ``PATH``, else
    the repository's ``target/release/damiera``. On a cluster every node must have the binary
    at this path (docs/cluster.md)."""
    if given:
        p = Path(given)
        if not p.is_file():
            raise JobError(f"--damiera {given}: no such file")
        return str(p.resolve())
    found = shutil.which("damiera")
    if found:
        return found
    repo = Path(__file__).resolve().parents[2] / "target" / "release" / "damiera"
    if repo.is_file():
        return str(repo)
    raise JobError(
        "no damiera binary: give --damiera PATH, put damiera on PATH, "
        "or run `cargo build --release` in the repository"
    )


def init_ray(address: Optional[str], workers: Optional[int]) -> None:
    """Connects to the cluster at ``address``, or starts Ray on this machine (loopback only)
    with ``workers`` CPUs (default: every core); each task takes one CPU."""
    import ray

    if address:
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise JobError(f"--address {address}: expected HOST:PORT, e.g. 10.0.0.1:6379")
        # Ray retries an unreachable address for minutes: try it once first.
        try:
            socket.create_connection((host, int(port)), timeout=10).close()
        except (OSError, ValueError) as e:
            raise JobError(f"--address {address}: no Ray cluster there ({e})") from None
        loopback = {"_node_ip_address": "127.0.0.1"} if host in ("127.0.0.1", "localhost") else {}
        try:
            ray.init(address=address, log_to_driver=False, logging_level="ERROR", **loopback)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise JobError(f"--address {address}: {cause_of(e)}") from None
    else:
        ray.init(
            num_cpus=workers,
            include_dashboard=False,
            log_to_driver=False,
            logging_level="ERROR",
            _node_ip_address="127.0.0.1",
        )


def die_with_parent() -> None:
    """In the damiera child: be killed when the worker that started it dies, so that a
    killed worker leaves no orphan computing a result no one reads (Linux prctl)."""
    try:
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def mark_task() -> None:
    """Tests only: with ``DAMIERA_CLUSTER_PIDS`` set to a directory, a task leaves a file
    ``<worker pid>-<random>`` there as it starts: the fault test kills a worker by it and
    counts task starts (a retried task starts twice)."""
    d = os.environ.get("DAMIERA_CLUSTER_PIDS")
    if d:
        Path(d, f"{os.getpid()}-{os.urandom(6).hex()}").write_text("")


def run_damiera(binary: str, args: list, task: str, cwd: Optional[str] = None,
                stdin: Optional[str] = None) -> str:
    """Runs ``binary args`` (``stdin`` on its standard input, if given) and returns its
    standard output.

    Raises :class:`TaskError` naming ``task`` when it cannot start or exits non-zero."""
    try:
        p = subprocess.run(
            [binary, *args],
            capture_output=True,
            text=True,
            cwd=cwd,
            input=stdin,
            preexec_fn=die_with_parent,
        )
    except OSError as e:
        raise TaskError(f"{task}: cannot run {binary}: {e}") from None
    if p.returncode != 0:
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        last = lines[-1] if lines else "(nothing on stderr)"
        raise TaskError(f"{task}: damiera exited with status {p.returncode}: {last}")
    return p.stdout


def write_atomic(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` through a temporary file in the same directory and a rename:
    a reader (or a rerun) sees the old file or the whole new one, never a part."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class Store:
    """Finished task results kept in a work directory (``--work DIR``), so that a job run
    again after a stop does not redo them; without a directory nothing is kept."""

    def __init__(self, work: Optional[str]):
        self.dir = Path(work) if work else None
        if self.dir:
            self.dir.mkdir(parents=True, exist_ok=True)

    def get(self, name: str) -> Optional[bytes]:
        if self.dir and (self.dir / name).is_file():
            return (self.dir / name).read_bytes()
        return None

    def put(self, name: str, data: bytes) -> None:
        if self.dir:
            write_atomic(self.dir / name, data)


def cause_of(e: BaseException) -> str:
    """The one line a failed task's error comes down to."""
    import ray

    if isinstance(e, ray.exceptions.RayTaskError):
        c = getattr(e, "cause", None)
        if c is not None and not isinstance(c, ray.exceptions.RayTaskError):
            return str(c).strip().splitlines()[-1] if str(c).strip() else type(c).__name__
    text = str(e).strip()
    return text.splitlines()[-1] if text else type(e).__name__


def wait_tasks(
    refs: Dict[object, str],
    on_done: Callable[[str, object], bool],
    what: str,
    total: Optional[int] = None,
    done_before: int = 0,
) -> None:
    """Waits for every task of ``refs`` (object ref -> task name), calling ``on_done(name,
    value)`` as each finishes; ``on_done`` returns True to stop the job (the other tasks are
    cancelled). A progress bar on stderr: tasks done of all, rate, time left.

    Raises :class:`JobError` with the failed task's name and cause on the first failure (the
    other tasks are cancelled)."""
    import ray
    from tqdm import tqdm

    pending = list(refs)
    bar = tqdm(
        total=total if total is not None else len(refs) + done_before,
        initial=done_before,
        desc=what,
        unit="task",
        file=sys.stderr,
        dynamic_ncols=True,
    )
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for r in ready:
                name = refs[r]
                try:
                    value = ray.get(r)
                except Exception as e:  # noqa: BLE001 - every task failure ends the job
                    for p in pending:
                        ray.cancel(p, force=True)
                    raise JobError(f"task {name} failed: {cause_of(e)}") from None
                bar.update(1)
                if on_done(name, value):
                    for p in pending:
                        ray.cancel(p, force=True)
                    return
    finally:
        bar.close()


def split(first: int, end: int, size: int) -> Iterable[tuple]:
    """``[first, end)`` cut into ranges of ``size`` (the last may be shorter)."""
    a = first
    while a < end:
        b = min(a + size, end)
        yield a, b
        a = b


def run_ranges(
    store: Store,
    ranges: list,
    key: Callable[[int, int], str],
    submit: Callable[[int, int], object],
    label: str,
    what: str,
    encode: Callable[[Any], bytes],
    decode: Callable[[bytes], Any],
    stop: Optional[Callable[[Dict[int, Any]], bool]] = None,
) -> Dict[int, Any]:
    """Runs one task per range ``(a, b)`` of ``ranges`` and returns their results by ``a``.

    A range whose result ``store`` already holds (file ``key(a, b)``, read with ``decode``)
    is not run again; the others are started with ``submit(a, b)`` (a Ray object ref), named
    ``"{label} {a}..{b}"`` in the progress bar and in errors, and their results are kept as
    they finish (written with ``encode``). ``stop(results)``, if given, is asked before the
    first wait and after each result: True ends the job early (the other tasks are cancelled).

    Raises :class:`JobError` on the first failed task (see :func:`wait_tasks`)."""
    results: Dict[int, Any] = {}
    refs = {}
    span = {}
    for a, b in ranges:
        kept = store.get(key(a, b))
        if kept is not None:
            results[a] = decode(kept)
        else:
            name = f"{label} {a}..{b}"
            refs[submit(a, b)] = name
            span[name] = (a, b)

    def done(name: str, value: Any) -> bool:
        a, b = span[name]
        store.put(key(a, b), encode(value))
        results[a] = value
        return bool(stop and stop(results))

    if not (stop and stop(results)):
        wait_tasks(refs, done, what, total=len(ranges), done_before=len(results))
    return results
