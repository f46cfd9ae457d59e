"""Headless Chromium for tests that look at a rendered page (the HTML report).

Chromium is Debian's package, installed by ``make setup`` where missing. The
flags keep it off this machine's closed network (no background services).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--virtual-time-budget=10000"]  # fmt: skip


def chromium() -> str:
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise RuntimeError("chromium not found: `make setup` installs the Debian package chromium")
    return exe


def _run(page: Path, *args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        cmd = [chromium(), *FLAGS, f"--user-data-dir={profile}", *args, Path(page).resolve().as_uri()]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)


def rendered_dom(page: Path) -> str:
    """The page's DOM after its scripts ran (the report is a React app)."""
    return _run(page, "--dump-dom").stdout


def screenshot(page: Path, out: Path, size: tuple[int, int] = (1400, 1000)) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    _run(page, f"--window-size={size[0]},{size[1]}", f"--screenshot={out.resolve()}")
    return out
