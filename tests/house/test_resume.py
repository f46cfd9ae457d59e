"""Interrupt a run and run the same command again: it resumes and finishes (issue 22).

A copy of the checkout runs one paper's smoke target; after a few jobs have
finished, the whole process group gets SIGINT (what Ctrl-C sends) or SIGKILL.
The same command then has to finish (the workflow profile ``profiles/default``
sets ``rerun-incomplete``; ``bmrep-run``, what ``make run`` calls, clears the
locks a SIGKILL leaves), redo none of the jobs that had finished, and give the
numbers of the committed smoke manifest. A plain ``snakemake`` command killed
with SIGKILL resumes the same way (the Snakefile clears the stale locks, issue
41), while a second command started beside a live run leaves that run's locks
alone.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bmrep.ops.records import SMOKE_MANIFEST
from bmrep.ops.result_manifest import file_digest
from conftest import SNAKEMAKE, copy_checkout, snakemake_in

pytestmark = pytest.mark.workflow

TARGET = ["yokoyama2019", "--configfile", "config/smoke.yaml"]
PAPER_DIR = Path("results/smoke/yokoyama2019")


def _manifest_entries(prefix: str) -> dict[str, str]:
    out = {}
    for line in SMOKE_MANIFEST.read_text().splitlines():
        digest, name = line.split("  ", 1)
        if name.startswith(prefix):
            out[name] = digest
    return out


def _env(ws: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ws / "src"), env.get("PYTHONPATH", "")])
    return env


def _bmrep_run(ws: Path) -> list[str]:
    """``make run``'s command in the copy: bmrep-run with the copy's ``bmrep``."""
    return [sys.executable, "-m", "bmrep.pipeline.cli", "--cores", "1", *TARGET]


def _plain_snakemake() -> list[str]:
    """What a user types: snakemake itself, no wrapper."""
    return [SNAKEMAKE, "--cores", "1", *TARGET]


def _ctrl_c_as_in_a_terminal() -> None:
    """In the run's process: SIGINT's default action, as under a terminal.

    A test suite started as a background job of a non-interactive shell (``make test &``) has
    SIGINT ignored, children inherit that, and Python then installs no KeyboardInterrupt
    handler: the run would never see the Ctrl-C this test sends.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(ws: Path, cmd: list[str]) -> subprocess.Popen:
    """``cmd`` in the copy, in its own process group, its output in ``first_run.log``."""
    with open(ws / "first_run.log", "w") as log:
        return subprocess.Popen(
            cmd,
            cwd=ws,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=_env(ws),
            start_new_session=True,
            preexec_fn=_ctrl_c_as_in_a_terminal,
        )


def _wait_for_jobs(ws: Path, proc: subprocess.Popen, n_finished: int) -> None:
    """Wait until the run has finished ``n_finished`` jobs; it must still be running."""
    deadline = time.time() + 600
    while time.time() < deadline and proc.poll() is None:
        if (ws / "first_run.log").read_text().count("Finished jobid") >= n_finished:
            break
        time.sleep(0.2)
    assert proc.poll() is None, "the run ended before it could be interrupted"


def _kill(proc: subprocess.Popen, sig: int) -> None:
    time.sleep(1.0)  # into the middle of the next job
    os.killpg(proc.pid, sig)
    proc.wait(timeout=120)


def _interrupt_after(ws: Path, n_finished: int, sig: int, cmd: list[str]) -> None:
    """Start ``cmd`` in its own process group; send ``sig`` to the group once ``n_finished`` jobs finished."""
    proc = _start(ws, cmd)
    _wait_for_jobs(ws, proc, n_finished)
    _kill(proc, sig)


def _planned_outputs(ws: Path) -> set[str]:
    """The output files of the jobs a dry run plans (its ``output:`` lines; inputs do not count)."""
    proc = snakemake_in(ws, "-n", "--nolock", "--cores", "1", *TARGET)  # --nolock: leave stale locks to the rerun
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = (proc.stdout + proc.stderr).splitlines()
    planned = {
        f.strip() for line in lines if line.strip().startswith("output:") for f in line.split(":", 1)[1].split(",")
    }
    assert planned, "the dry run plans no job: nothing was left to resume"
    return planned


def _output_of(p: Path, ws: Path) -> str:
    """The output a result file belongs to (relative to ``ws``): itself, or for a sidecar its archive."""
    rel = str(p.relative_to(ws))
    return rel.removesuffix(".json") if rel.endswith(".npz.json") else rel


def _finished_jobs(ws: Path) -> dict[Path, int]:
    """The result files of the jobs that had finished (not an output of a planned job), with their mtimes.

    A sidecar (x.npz.json, written right after x.npz) goes with its archive, which is planned again
    when the kill came after the job wrote both but before Snakemake recorded it as done.
    """
    results = ws / PAPER_DIR
    done_before = {p: p.stat().st_mtime_ns for p in results.rglob("*") if p.is_file() and p.suffix != ".log"}
    plan = _planned_outputs(ws)
    finished = {p: t for p, t in done_before.items() if _output_of(p, ws) not in plan}
    assert finished, "no finished job before the interruption: the test would prove nothing"
    return finished


def _check_resumed(ws: Path, proc: subprocess.CompletedProcess, finished: dict[Path, int]) -> None:
    """The rerun finished, redid no finished job, left no temporary file and gave the manifest's numbers."""
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    redone = [str(p) for p, t in finished.items() if p.stat().st_mtime_ns != t]
    assert not redone, f"finished jobs were run again: {redone}"
    leftovers = [str(p) for p in (ws / PAPER_DIR).rglob(".*.tmp*")]
    assert not leftovers, f"temporary files of the interrupted job left behind: {leftovers}"
    expected = _manifest_entries("yokoyama2019/")
    assert expected
    actual = {name: file_digest(ws / "results/smoke" / name) for name in expected}
    assert actual == expected


STALE_LOCKS_CLEARED = "removed the locks of an earlier run that was killed"


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_interrupted_run_resumes_with_the_same_command(tmp_path, sig):
    ws = tmp_path / "checkout"
    copy_checkout(ws)
    _interrupt_after(ws, 3, sig, _bmrep_run(ws))
    finished = _finished_jobs(ws)

    proc = subprocess.run(_bmrep_run(ws), cwd=ws, capture_output=True, text=True, timeout=900, env=_env(ws))
    if sig == signal.SIGKILL:  # Snakemake had no chance to release its locks
        assert STALE_LOCKS_CLEARED in proc.stderr
    _check_resumed(ws, proc, finished)


def test_plain_snakemake_killed_resumes_and_a_live_run_keeps_its_locks(tmp_path):
    """Plain ``snakemake``: a second command beside a live run is refused; after SIGKILL the same command finishes."""
    ws = tmp_path / "checkout"
    copy_checkout(ws)
    first = _start(ws, _plain_snakemake())
    _wait_for_jobs(ws, first, 2)
    # Frozen (the whole process group, its running job too) while the second command starts: live, holding its
    # locks, with jobs left. Unfrozen, a loaded machine could let the first run finish its last jobs during the
    # second's start-up, which then has nothing to do and takes no lock (seen once, a CI run beside a training).
    os.killpg(first.pid, signal.SIGSTOP)
    try:
        beside = subprocess.run(_plain_snakemake(), cwd=ws, capture_output=True, text=True, timeout=300, env=_env(ws))
    finally:
        os.killpg(first.pid, signal.SIGCONT)
    assert first.poll() is None, "the first run ended while the second started: the live-lock case was not tested"
    out = beside.stdout + beside.stderr
    assert beside.returncode != 0 and "cannot be locked" in out, out[-3000:]
    assert STALE_LOCKS_CLEARED not in out
    assert any((ws / ".snakemake/locks").glob("*.lock")), "the live run's locks were removed"

    _kill(first, signal.SIGKILL)
    assert any((ws / ".snakemake/locks").glob("*.lock")), "SIGKILL left no lock: the stale-lock case is not tested"
    finished = _finished_jobs(ws)
    proc = subprocess.run(_plain_snakemake(), cwd=ws, capture_output=True, text=True, timeout=900, env=_env(ws))
    assert STALE_LOCKS_CLEARED in proc.stderr, proc.stderr[-3000:]
    _check_resumed(ws, proc, finished)
