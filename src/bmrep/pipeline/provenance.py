"""Where a result came from: the checkout's commit, whether it had uncommitted changes, the machine.

Used by the summary job (the report's front page names the commit it was made
at) and by ``make publish`` (``RUN.md``). Nothing here is a number of a result:
none of it enters a rule's params, so a new commit reruns nothing by itself.
"""

from __future__ import annotations

import os
import platform
import subprocess
from pathlib import Path


def _git(root: str | Path, *args: str) -> str | None:
    try:
        proc = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def commit(root: str | Path = ".") -> str | None:
    """The full hash of the checkout's HEAD, or None outside a git checkout."""
    out = _git(root, "rev-parse", "HEAD")
    return out.strip() if out else None


def changed_files(root: str | Path = ".", ignore: tuple[str, ...] = ()) -> list[str]:
    """Tracked files with uncommitted changes (staged or not), except those under a prefix in ``ignore``."""
    out = _git(root, "status", "--porcelain", "--untracked-files=no")
    files = [line[3:].split(" -> ")[-1] for line in (out or "").splitlines() if line.strip()]
    return [f for f in files if not f.startswith(ignore)]


def cpu_model() -> str:
    """The CPU's model name (Linux /proc/cpuinfo), else what the platform module says."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine() -> str:
    """One line: cores this process may use, CPU model, operating system."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"{cores} cores, {cpu_model()}, {platform.system()} {platform.release()}"
