"""A local Ray cluster for the tests: `ray start --head` on loopback with two CPUs (two
workers), torn down at the end; and the damiera binary (target/release/damiera, built when
missing, or DAMIERA_BIN)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Loopback only: Ray turns 127.0.0.1 into the machine's address unless clusters are "not
# supported" (its switch for Windows and macOS); with it off every address stays 127.0.0.1.
# The drivers the tests start inherit it.
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
# A loopback-only test cluster needs no token; without this switch Ray turns token
# authentication on as soon as ~/.ray/auth_token exists (an earlier local `ray.init()`
# writes one), and a driver then has to carry that token.
os.environ["RAY_AUTH_MODE"] = "disabled"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def damiera() -> str:
    given = os.environ.get("DAMIERA_BIN")
    if given:
        return given
    binary = REPO / "target" / "release" / "damiera"
    if not binary.is_file():
        subprocess.run(["cargo", "build", "--release"], cwd=REPO, check=True)
    return str(binary)


@pytest.fixture(scope="session")
def cluster(tmp_path_factory):
    """The address of a two-worker Ray cluster on 127.0.0.1 and the directory its tasks
    write their worker's process id to (DAMIERA_CLUSTER_PIDS, for the fault test)."""
    pids = tmp_path_factory.mktemp("pids")
    port = _free_port()
    env = dict(os.environ, DAMIERA_CLUSTER_PIDS=str(pids), RAY_USAGE_STATS_ENABLED="0")
    ray = str(Path(sys.executable).with_name("ray"))
    subprocess.run(
        [ray, "start", "--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
         "--num-cpus", "2", "--include-dashboard", "false", "--disable-usage-stats"],
        env=env, check=True, capture_output=True,
    )
    try:
        yield f"127.0.0.1:{port}", pids
    finally:
        subprocess.run([ray, "stop", "--force"], env=env, capture_output=True)
