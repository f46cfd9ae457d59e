"""``make setup`` for a user without root (issue 65): a cluster's login node has no sudo and no Debian registry.

The setup recipe's own commands run here, as make runs them, on a ``PATH`` where ``sudo`` and ``apt-get``
fail (and record that they were called), ``id -u`` says an ordinary user, and no Chromium is found; the
Python is a stub that records its arguments, so the test checks the recipe and not pip (minutes of
compiling). Chromium is the optional ``make chromium``; without it ``make report`` says so in one line.
"""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path

from bmrep.ops import browser
from conftest import ROOT

# What the Makefile's parse and the setup recipe call by name, besides the Python it is given.
TOOLS = ("find", "touch", "mkdir", "cat", "chmod")
FAILING = ("sudo", "apt-get", "apt")


def _script(path: Path, body: str) -> None:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _user_path(tmp_path: Path) -> tuple[Path, Path]:
    """A bin directory for an ordinary user without sudo, apt-get or chromium; the file failed calls go to."""
    bin_dir, called = tmp_path / "bin", tmp_path / "root_calls.txt"
    bin_dir.mkdir()
    for tool in TOOLS:
        (bin_dir / tool).symlink_to(shutil.which(tool))
    for name in FAILING:
        _script(bin_dir / name, f'echo "{name} $*" >> {called}\necho "{name}: permission denied" >&2\nexit 1\n')
    _script(bin_dir / "id", 'if [ "$1" = -u ]; then echo 1000; else echo "uid=1000(user) gid=1000(user)"; fi\n')
    return bin_dir, called


def _stub_python(bin_dir: Path, log: Path) -> Path:
    """A ``python3.11`` that records each call; ``-m venv DIR`` makes ``DIR/bin/python`` a copy of itself."""
    stub = bin_dir / "python3.11"
    _script(
        stub,
        f'echo "$*" >> {log}\n'
        'if [ "$1" = -m ] && [ "$2" = venv ]; then mkdir -p "$3/bin" && cat "$0" > "$3/bin/python" && '
        'chmod +x "$3/bin/python"; fi\nexit 0\n',
    )
    return stub


def test_setup_recipe_needs_no_root_and_no_browser(tmp_path):
    bin_dir, called = _user_path(tmp_path)
    log = tmp_path / "python_calls.txt"
    python = _stub_python(bin_dir, log)
    venv = tmp_path / "venv"
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    make = shutil.which("make")
    proc = subprocess.run(
        [make, "--no-print-directory", "setup", f"VENV={venv}", f"PYTHON={python}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not called.exists(), f"make setup called {called.read_text()}"
    calls = log.read_text().splitlines()
    assert calls[0] == f"-m venv {venv}", calls
    assert any(c.startswith("-m pip install") and ".[dev]" in c for c in calls), calls
    assert (venv / ".installed").exists()


def test_report_without_a_browser_says_so_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert not browser.available()
    assert browser.main([str(tmp_path / "report.html"), str(tmp_path / "shots")]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "make chromium" in out[0], out
    assert not (tmp_path / "shots").exists()
