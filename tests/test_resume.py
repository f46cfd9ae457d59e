"""Interrupt a run and run the same command again: it resumes and finishes (issue 22).

A copy of the checkout runs one paper's smoke target; after a few jobs have
finished, the whole process group gets SIGINT (what Ctrl-C sends) or SIGKILL.
The same command then has to finish (the workflow profile ``profiles/default``
sets ``rerun-incomplete``; ``bmrep-run``, what ``make run`` calls, clears the
locks a SIGKILL leaves), redo none of the jobs that had finished, and give the
numbers of the committed smoke manifest.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bmrep.result_manifest import file_digest
from conftest import ROOT, copy_checkout, snakemake_in

pytestmark = pytest.mark.workflow

TARGET = ["yokoyama2019", "--configfile", "config/smoke.yaml"]
PAPER_DIR = Path("results/smoke/yokoyama2019")


def _manifest_entries(prefix: str) -> dict[str, str]:
    out = {}
    for line in (ROOT / "config/smoke_manifest.sha256").read_text().splitlines():
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
    return [sys.executable, "-m", "bmrep.cli", "--cores", "1", *TARGET]


def _ctrl_c_as_in_a_terminal() -> None:
    """In the run's process: SIGINT's default action, as under a terminal.

    A test suite started as a background job of a non-interactive shell (``make test &``) has
    SIGINT ignored, children inherit that, and Python then installs no KeyboardInterrupt
    handler: the run would never see the Ctrl-C this test sends.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt_after(ws: Path, n_finished: int, sig: int) -> None:
    """Start the target in its own process group; send ``sig`` to the group once ``n_finished`` jobs finished."""
    env = _env(ws)
    with open(ws / "first_run.log", "w") as log:
        proc = subprocess.Popen(
            _bmrep_run(ws),
            cwd=ws,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
            preexec_fn=_ctrl_c_as_in_a_terminal,
        )
        deadline = time.time() + 600
        while time.time() < deadline and proc.poll() is None:
            if (ws / "first_run.log").read_text().count("Finished jobid") >= n_finished:
                break
            time.sleep(0.2)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        time.sleep(1.0)  # into the middle of the next job
        os.killpg(proc.pid, sig)
        proc.wait(timeout=120)


def _planned_outputs(ws: Path) -> set[str]:
    """The output files of the jobs a dry run plans (its ``output:`` lines; inputs do not count)."""
    proc = snakemake_in(ws, "-n", "--cores", "1", *TARGET)
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


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_interrupted_run_resumes_with_the_same_command(tmp_path, sig):
    ws = tmp_path / "checkout"
    copy_checkout(ws)
    _interrupt_after(ws, 3, sig)

    results = ws / PAPER_DIR
    done_before = {p: p.stat().st_mtime_ns for p in results.rglob("*") if p.is_file() and p.suffix != ".log"}
    plan = _planned_outputs(ws)
    # finished: not an output of a planned job. A sidecar (x.npz.json, written right after x.npz)
    # goes with its archive, which is planned again when the kill came after the job wrote both
    # but before Snakemake recorded it as done.
    finished = {p: t for p, t in done_before.items() if _output_of(p, ws) not in plan}
    assert finished, "no finished job before the interruption: the test would prove nothing"

    proc = subprocess.run(_bmrep_run(ws), cwd=ws, capture_output=True, text=True, timeout=900, env=_env(ws))
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    if sig == signal.SIGKILL:  # Snakemake had no chance to release its locks
        assert "removed the locks of an earlier run that was killed" in proc.stderr
    redone = [str(p) for p, t in finished.items() if p.stat().st_mtime_ns != t]
    assert not redone, f"finished jobs were run again: {redone}"
    leftovers = [str(p) for p in results.rglob(".*.tmp*")]
    assert not leftovers, f"temporary files of the interrupted job left behind: {leftovers}"

    expected = _manifest_entries("yokoyama2019/")
    assert expected
    actual = {name: file_digest(ws / "results/smoke" / name) for name in expected}
    assert actual == expected
