"""Shared fixtures: the repository root, a helper to run snakemake, the tempered test systems."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bmrep.ops import browser
from bmrep.pipeline.runtime import keep_freed_memory
from support.testsystems import TEMPERED_SYSTEMS

# as in every workflow job: freed numpy temporaries stay in the process (fewer page faults)
keep_freed_memory()

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))

# Chromium is an optional extra (`make chromium`, as root): `make setup` works without root, and the tests that
# render the report in it say in one line that they skipped.
needs_browser = pytest.mark.skipif(not browser.available(), reason=browser.MISSING)


# Modules whose Snakemake runs happen in copies of the checkout (their own .snakemake and results), in tests/house/.
IN_A_COPY = {"house.test_reruns", "house.test_resume", "house.test_cluster"}


def pytest_collection_modifyitems(config, items):
    """Every ``workflow`` test outside :data:`IN_A_COPY` must be marked ``checkout``.

    ``make test`` (ci/test.sh) runs the ``checkout`` tests in one process beside the others; an unmarked
    test running Snakemake in the checkout could run at the same time as another one there.
    """
    unmarked = [
        item.nodeid
        for item in items
        if item.get_closest_marker("workflow")
        and not item.get_closest_marker("checkout")
        and item.module.__name__ not in IN_A_COPY
    ]
    if unmarked:
        raise pytest.UsageError(f"workflow tests in the checkout need @pytest.mark.checkout: {unmarked}")


def run_snakemake(*args: str, timeout: float = 600, env=None) -> subprocess.CompletedProcess:
    """Run snakemake in the repository root; return the completed process (text output)."""
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([SNAKEMAKE, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=e)


def copy_checkout(dst: Path) -> None:
    """The checkout's files (tracked and new, not ignored) and its compiled kernels, into ``dst``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    files = [f for f in listed.split("\0") if f and (ROOT / f).is_file()]
    files += [str(p.relative_to(ROOT)) for p in (ROOT / "src").rglob("*.so")]
    for f in files:
        (dst / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / f, dst / f)


def snakemake_in(ws: Path, *args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """Snakemake in the copy ``ws``, importing ``bmrep`` from the copy (its code digests are the copy's)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ws / "src"), env.get("PYTHONPATH", "")])
    return subprocess.run([SNAKEMAKE, *args], cwd=ws, capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture(params=sorted(TEMPERED_SYSTEMS))
def tempered_system(request):
    """Each tempered family of ``testsystems`` (as pymbar's test_mbar.py runs over its test systems)."""
    return TEMPERED_SYSTEMS[request.param]()


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def smoke_run(tmp_path_factory):
    """The smoke profile run once into a temporary directory, with its HTML report and the report's screenshots.

    Returns (results_dir, figures_dir, the snakemake arguments that address them, the report).
    The screenshots go where ``make report`` puts them (``<figures_dir>/report/``), so that a
    publication of this run carries them among its figures; without Chromium there are none.
    """
    tmp = tmp_path_factory.mktemp("smoke")
    res, fig = tmp / "results", tmp / "figures"
    args = ["--configfile=config/smoke.yaml", "--config", f"results_dir={res}", f"figures_dir={fig}"]
    # Smoke loops last well under the 10 s after which a loop reports; report them all.
    proc = run_snakemake("-c2", "all", *args, timeout=1800, env={"BMREP_PROGRESS_AFTER": "0"})
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-5000:]
    report = tmp / "report.html"
    proc = run_snakemake("--report", str(report), "all", *args, timeout=600)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert "ERROR" not in proc.stdout + proc.stderr
    if browser.available():
        browser.report_screenshots(report, fig / "report")
    return res, fig, args, report
