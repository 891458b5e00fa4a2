"""Fixtures of the browser tests: a `damiera serve` on a free loopback port and headless
Chromium driven by Selenium (Debian's chromium and chromium-driver; SE_OFFLINE keeps Selenium
from looking for a driver on the network)."""
import os
import pathlib
import subprocess

import pytest

os.environ["SE_OFFLINE"] = "true"

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
DAMIERA = os.environ.get("DAMIERA", str(ROOT / "target" / "release" / "damiera"))
# Where the screenshots go: docs/serve/ when DAMIERA_SCREENSHOTS names it (docs/serve.md shows
# them), else the test's temporary directory.
SCREENSHOTS = os.environ.get("DAMIERA_SCREENSHOTS")


class Server:
    def __init__(self, *args):
        self.proc = subprocess.Popen(
            [DAMIERA, "serve", "--port", "0", "--hash", "16", *args],
            stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if "127.0.0.1:" not in line:
            self.proc.kill()
            raise RuntimeError(f"damiera serve did not start: {line!r}")
        self.port = int(line.split("127.0.0.1:")[1].split("/")[0])
        self.url = f"http://127.0.0.1:{self.port}/"

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def server():
    # The hand-set evaluation, whose man is always 100 centi-men: the planted blunder is
    # a man (tests/analysis.rs says why); the other tests do not depend on it.
    s = Server("--eval-file", "hand", "--max-sessions", "4")
    yield s
    s.stop()


def make_driver(width, height, phone=False):
    o = webdriver.ChromeOptions()
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
              "--no-first-run", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
              f"--window-size={width},{height}"]:
        o.add_argument(a)
    o.binary_location = os.environ.get("DAMIERA_CHROMIUM", "/usr/bin/chromium")
    if phone:
        o.add_experimental_option("mobileEmulation", {"deviceMetrics": {
            "width": width, "height": height, "pixelRatio": 1, "touch": True}})
    o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(
        service=Service(os.environ.get("DAMIERA_CHROMEDRIVER", "/usr/bin/chromedriver")),
        options=o)


@pytest.fixture
def browser():
    d = make_driver(1200, 900)
    yield d
    d.quit()


@pytest.fixture
def shots(tmp_path):
    """A function that saves a screenshot by name and returns its path."""
    folder = pathlib.Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)

    def save(driver, name):
        path = folder / f"{name}.png"
        driver.save_screenshot(str(path))
        assert path.stat().st_size > 10_000, f"{path} is an empty screenshot"
        return path
    return save
