"""Reruns follow the DAG (issue 16's acceptance): an edit reruns what depends on it and nothing upstream.

One smoke build in a copy of the checkout, then dry runs after an edit to the
copy (restored after each test): a claim's wording reruns only that paper's
claims job and the summary; a comment in ``estimators/ais.py`` reruns no
training; a change to one figure's or table's settings reruns no training.
The real tree is never edited.
"""

from __future__ import annotations

import ast
import contextlib
import os
import re
from pathlib import Path

import pytest
import yaml

from conftest import ROOT, copy_checkout, snakemake_in

pytestmark = pytest.mark.workflow

PAPERS = ["saul1996", "yokoyama2019", "salakhutdinov2010", "carlson2016", "bruegge2013", "calibration"]
# Jobs that train models: the rules named so, Brügge's learning shards (one
# training run per recipe) and *_models rules, Yokoyama's shards (each trains
# its RBMs), the calibration study's model jobs (training and exact log Z).
TRAINING = re.compile(r"pretrain|train|learning_shard|_models$|yokoyama2019_(kld|drbm)_shard|calibration_model$")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    """A copy of the checkout with the smoke profile built in it (results/smoke, figures/smoke).

    ``BMREP_RERUNS_WORKSPACE=<dir>`` reuses (and completes) the copy a former
    run left there instead of copying and building again; never the checkout itself.
    """
    reuse = os.environ.get("BMREP_RERUNS_WORKSPACE")
    if reuse:
        ws = Path(reuse).resolve()
        assert ws != ROOT and (ws / "Snakefile").is_file(), f"{ws} is not a copy of the checkout"
    else:
        ws = tmp_path_factory.mktemp("checkout")
        copy_checkout(ws)
    proc = snakemake_in(ws, "--cores", "2", "all", "--configfile", "config/smoke.yaml", timeout=1800)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-5000:]
    return ws


def planned(ws: Path, *configfiles: str) -> tuple[dict[str, int], str]:
    """The jobs ``snakemake -n all`` would run (rule -> count) on the smoke profile, and its output."""
    proc = snakemake_in(ws, "-n", "all", "--configfile", "config/smoke.yaml", *configfiles)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-5000:]
    jobs: dict[str, int] = {}
    lines = iter(out.splitlines())
    for line in lines:
        if line.startswith("Job stats:"):
            next(lines), next(lines)  # the header and its rule
            for row in lines:
                name, count = row.split()
                if name == "total":
                    break
                if name != "all":  # the target rule: runs nothing, listed whenever anything is
                    jobs[name] = int(count)
            break
    return jobs, out


@contextlib.contextmanager
def edited(path: Path, text: str):
    """``path`` holds ``text`` inside the block, its old contents after."""
    old = path.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    try:
        yield
    finally:
        path.write_text(old, encoding="utf-8")


def reworded_first_claim(source: str) -> str:
    """``source`` with the ``text=`` of its first ``Claim(...)`` changed (the wording only)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Claim":
            for kw in node.keywords:
                if kw.arg == "text" and isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    v = kw.value
                    # ast offsets are in UTF-8 bytes from the start of a line
                    lines = source.encode().splitlines(keepends=True)
                    start = sum(map(len, lines[: v.lineno - 1])) + v.col_offset
                    end = sum(map(len, lines[: v.end_lineno - 1])) + v.end_col_offset
                    data = source.encode()
                    return (data[:start] + repr(v.value + " (reworded)").encode() + data[end:]).decode()
    raise AssertionError("no Claim(..., text='...') declaration found")


def test_reworded_first_claim_changes_only_the_text():
    """A text split over two lines, after a non-ASCII character (ast offsets are in bytes)."""
    src = (
        "C = [\n"
        '    Claim(id="p/a", unit="µs", text="mean in "\n'
        '          "{threshold}", paper_value=1.6),\n'
        '    Claim(id="p/b", text="b"),\n'
        "]\n"
    )
    assert reworded_first_claim(src) == (
        "C = [\n"
        '    Claim(id="p/a", unit="µs", text=\'mean in {threshold} (reworded)\', paper_value=1.6),\n'
        '    Claim(id="p/b", text="b"),\n'
        "]\n"
    )


def test_finished_smoke_workspace_is_up_to_date(workspace):
    """The precondition of the tests below: after the build, nothing is planned."""
    jobs, out = planned(workspace)
    assert jobs == {}, out[-3000:]


@pytest.mark.parametrize("paper", PAPERS)
def test_claim_wording_reruns_only_that_papers_claims_and_the_summary(workspace, paper):
    path = workspace / "src" / "bmrep" / "claims" / f"{paper}.py"
    assert path.is_file(), f"{paper}'s claims are not declared in src/bmrep/claims/{paper}.py"
    with edited(path, reworded_first_claim(path.read_text(encoding="utf-8"))):
        jobs, out = planned(workspace)
    # declared_claims lists every claim the code declares (make publish, tests/test_published.py)
    assert jobs == {f"{paper}_claims": 1, "summary": 1, "declared_claims": 1}, out[-5000:]


def test_comment_in_ais_reruns_no_training(workspace):
    path = workspace / "src" / "bmrep" / "estimators" / "ais.py"
    with edited(path, path.read_text(encoding="utf-8") + "\n# a comment\n"):
        jobs, out = planned(workspace)
    assert "carlson2016_fig3_shard" in jobs, out[-5000:]  # AIS runs there: the edit is seen
    assert "calibration_shard" in jobs, out[-5000:]  # and there (the calibration models are not retrained)
    assert not [j for j in jobs if TRAINING.search(j)], out[-5000:]
    assert not [j for j in jobs if j.startswith("data_")], out[-5000:]


@pytest.mark.parametrize(
    "paper, section, key, value, expected",
    [
        # Fig. 4's sampling settings (the spacing of the sample columns)
        ("salakhutdinov2010", "samples", "gap", 21, "salakhutdinov2010_fig4_sampling"),
        # Table 4's cap on the steps to the first class change
        ("bruegge2013", "classes", "max_steps", 201, "bruegge2013_table4"),
    ],
    ids=["salakhutdinov2010-fig4", "bruegge2013-table4"],
)
def test_figure_or_table_setting_reruns_no_training(workspace, tmp_path, paper, section, key, value, expected):
    smoke = yaml.safe_load((workspace / "config" / "smoke.yaml").read_text())
    assert smoke[paper][section].get(key) != value, "the override must change the smoke profile"
    extra = tmp_path / "override.yaml"
    extra.write_text(yaml.safe_dump({paper: {section: {key: value}}}))
    jobs, out = planned(workspace, str(extra))
    assert expected in jobs, out[-5000:]
    assert not [j for j in jobs if TRAINING.search(j)], out[-5000:]
    assert all(j.startswith(paper) or j == "summary" for j in jobs), out[-5000:]
