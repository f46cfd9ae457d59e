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
import json
import os
import re
from pathlib import Path

import numpy as np
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
    path = workspace / "src" / "bmrep" / "papers" / paper / "claims.py"
    assert path.is_file(), f"{paper}'s claims are not declared in src/bmrep/papers/{paper}/claims.py"
    with edited(path, reworded_first_claim(path.read_text(encoding="utf-8"))):
        jobs, out = planned(workspace)
    # declared_claims lists every claim the code declares (make publish, tests/ops/test_published.py)
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


# -- published models (issue 51): a run takes them instead of training again ----------------------------------
def _adopting_overlay(ws: Path, tmp_path: Path, adopt: Path) -> str:
    """An overlay of the smoke profile that writes elsewhere (nothing up to date there) and adopts ``adopt``."""
    extra = tmp_path / "adopt.yaml"
    extra.write_text(
        yaml.safe_dump(
            {
                "results_dir": "results/adopted",
                "figures_dir": "figures/adopted",
                "salakhutdinov2010": {"adopt_dir": str(adopt)},
            }
        )
    )
    return str(extra)


def test_published_models_are_taken_instead_of_trained(workspace, tmp_path):
    """Seed 0's pretraining and its SAP and CAST-perchain trainings, exported and then adopted by a run in a fresh
    results directory: no pretraining, nor those trainings or their evaluations, runs again; what the ladder check
    (which reads the adopted model) and the evaluation give is bit for bit what the original run gave; and FPCD,
    not published, is trained from the adopted pretraining to the original's parameters."""
    ws = workspace
    out = "results/smoke/salakhutdinov2010/published_models/seed0"
    algs = ["SAP", "CAST-perchain"]
    targets = [f"{out}/{a}{end}" for a in algs for end in (".npz", "_curve.csv", "_final.json")]
    proc = snakemake_in(ws, "--cores", "2", *targets, "--configfile", "config/smoke.yaml")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-5000:]
    adopt = tmp_path / "published" / "seed0"
    adopt.mkdir(parents=True)
    for t in targets + [f"{out}/{a}.npz.json" for a in algs]:
        (adopt / Path(t).name).write_bytes((ws / t).read_bytes())
    pre = ws / "results/smoke/models/salakhutdinov2010/seed0/pretrained.npz"
    for p in (pre, Path(f"{pre}.json")):
        (adopt / p.name).write_bytes(p.read_bytes())
    arrays = dict(np.load(adopt / "SAP.npz"))
    assert not [k for k in arrays if k.startswith("snapshot_")] and arrays["W1"].dtype == np.float32

    overlay = _adopting_overlay(ws, tmp_path, adopt.parent)
    adopted = "results/adopted/salakhutdinov2010"
    wanted = [f"{adopted}/ladder_check/{a}.json" for a in algs] + [f"{adopted}/eval/seed0/{a}_final.json" for a in algs]
    # FPCD is not published: trained, from the published pretraining
    wanted.append("results/adopted/models/salakhutdinov2010/seed0/FPCD.npz")
    proc = snakemake_in(ws, "--cores", "2", *wanted, "--configfile", "config/smoke.yaml", overlay)
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-5000:]
    ran = set(re.findall(r"rule (\w+):", log))
    assert {"salakhutdinov2010_adopt_model", "salakhutdinov2010_adopt_pretrained"} <= ran, sorted(ran)
    assert not ran & {"salakhutdinov2010_pretrain", "salakhutdinov2010_evaluate"}
    trained = re.findall(r"rule salakhutdinov2010_train:\n(?:\s+\S.*\n)*?\s+wildcards: (.*)", log)
    assert trained == ["repeat=0, algorithm=FPCD"], trained
    fpcd = "models/salakhutdinov2010/seed0/FPCD.npz"
    for k in ("W1", "W2", "snapshot_W1"):  # the published pretraining is the training's start, bit for bit
        np.testing.assert_array_equal(
            np.load(ws / "results/adopted" / fpcd)[k], np.load(ws / "results/smoke" / fpcd)[k]
        )
    for a in algs:
        for rel in (f"ladder_check/{a}.json", f"eval/seed0/{a}_final.json", f"eval/seed0/{a}_curve.csv"):
            mine = ws / f"results/smoke/salakhutdinov2010/{rel}"
            theirs = ws / f"{adopted}/{rel}"
            assert theirs.read_bytes() == mine.read_bytes(), rel
        model = np.load(ws / f"results/adopted/models/salakhutdinov2010/seed0/{a}.npz")
        np.testing.assert_array_equal(
            model["W2"], np.load(ws / f"results/smoke/models/salakhutdinov2010/seed0/{a}.npz")["W2"]
        )
        assert model["snapshot_updates"].tolist() == [200]


def _published_sap(ws: Path, tmp_path: Path) -> Path:
    """Seed 0's SAP of the smoke profile exported and copied to ``tmp_path/published/seed0`` (returned)."""
    out = "results/smoke/salakhutdinov2010/published_models/seed0"
    names = ["SAP.npz", "SAP.npz.json", "SAP_curve.csv", "SAP_final.json"]
    proc = snakemake_in(ws, "--cores", "1", *[f"{out}/{n}" for n in names[::2]], "--configfile", "config/smoke.yaml")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-5000:]
    adopt = tmp_path / "published" / "seed0"
    adopt.mkdir(parents=True)
    for n in names:
        (adopt / n).write_bytes((ws / out / n).read_bytes())
    return adopt


def test_a_published_model_of_other_settings_is_refused(workspace, tmp_path):
    """A published training whose sidecar records other training settings stops the adopting job with one line
    naming the setting; nothing is written."""
    ws = workspace
    adopt = _published_sap(ws, tmp_path)
    sidecar = json.loads((adopt / "SAP.npz.json").read_text())
    sidecar["settings"]["n_updates"] = 150
    (adopt / "SAP.npz.json").write_text(json.dumps(sidecar))
    overlay = _adopting_overlay(ws, tmp_path, adopt.parent)
    target = "results/adopted/models/salakhutdinov2010/seed0/SAP.npz"
    proc = snakemake_in(ws, "--cores", "1", target, "--configfile", "config/smoke.yaml", overlay)
    log = (
        proc.stdout + proc.stderr + "".join(p.read_text() for p in (ws / "results/adopted/logs").rglob("adopt_model*"))
    )
    assert proc.returncode != 0
    assert "the published model differs from this run's: settings.n_updates: published 150, this run 200" in log
    assert not (ws / target).exists()


def test_a_published_final_of_another_instrument_is_evaluated_again(workspace, tmp_path):
    """Issue 64: the final AIS is chosen after the trainings started. A published training whose final log Z was
    made with another final instrument is adopted (its curve taken bit for bit, no training or evaluate job) and
    its final evaluation is made again with this run's instrument: the same numbers a run that trains and
    evaluates it with that instrument gets."""
    ws = workspace
    adopt = _published_sap(ws, tmp_path)
    other = {"evaluation": {"final_ais": {"n_betas": 700}}}
    runs = {}
    for name, extra in (("adopted", {"adopt_dir": str(adopt.parent)}), ("fresh", {})):
        overlay = tmp_path / f"{name}.yaml"
        cfg = {
            "results_dir": f"results/{name}",
            "figures_dir": f"figures/{name}",
            "salakhutdinov2010": {**other, **extra},
        }
        overlay.write_text(yaml.safe_dump(cfg))
        target = f"results/{name}/salakhutdinov2010/eval/seed0/SAP_final.json"
        proc = snakemake_in(ws, "--cores", "1", target, "--configfile", "config/smoke.yaml", str(overlay))
        log = proc.stdout + proc.stderr
        assert proc.returncode == 0, log[-5000:]
        runs[name] = (set(re.findall(r"rule (\w+):", log)), json.loads((ws / target).read_text()))
    ran, adopted = runs["adopted"]
    assert "salakhutdinov2010_adopt_model" in ran and not ran & {
        "salakhutdinov2010_train",
        "salakhutdinov2010_evaluate",
    }
    assert "salakhutdinov2010_evaluate" in runs["fresh"][0]
    fresh = runs["fresh"][1]
    published = json.loads((adopt / "SAP_final.json").read_text())
    assert adopted["ais_betas"] == fresh["ais_betas"] == 700 != published["ais_betas"]
    for k in ("log_z", "log_z_replicates", "test_bound", "test_bound_stderr", "train_bound", "ess"):
        assert adopted[k] == fresh[k], k
    assert adopted["log_z"] != published["log_z"]
    curve = "salakhutdinov2010/eval/seed0/SAP_curve.csv"
    assert (ws / "results/adopted" / curve).read_bytes() == (adopt / "SAP_curve.csv").read_bytes()


def test_each_published_seed_and_algorithm_is_adopted_on_its_own(workspace, tmp_path):
    """The schedule run trains FPCD on seed 0 alone: a pair is adopted where it is published and trained where not,
    even when the same algorithm is published for another seed (a dry run: which rule makes which pair)."""
    adopt = tmp_path / "published"
    for pair in ("seed0/SAP", "seed0/FPCD", "seed1/SAP"):
        (adopt / pair).parent.mkdir(parents=True, exist_ok=True)
        for end in (".npz", "_curve.csv", "_final.json"):
            Path(f"{adopt / pair}{end}").touch()
    ev = "results/adopted/salakhutdinov2010/eval"
    wanted = [f"{ev}/seed{r}/{a}_final.json" for r, a in ((0, "FPCD"), (1, "SAP"), (0, "CAST"), (1, "FPCD"))]
    overlay = _adopting_overlay(workspace, tmp_path, adopt)
    proc = snakemake_in(workspace, "-n", "--configfile", "config/smoke.yaml", overlay, "--", *wanted)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-5000:]
    jobs = re.findall(
        r"rule (salakhutdinov2010_\w+):\n(?:\s+\S.*\n)*?\s+wildcards: (repeat=\d+, algorithm=\S+)", proc.stdout
    )
    made = {(rule, w) for rule, w in jobs if rule in ("salakhutdinov2010_adopt_model", "salakhutdinov2010_train")}
    assert made == {
        ("salakhutdinov2010_adopt_model", "repeat=0, algorithm=FPCD"),
        ("salakhutdinov2010_adopt_model", "repeat=1, algorithm=SAP"),
        ("salakhutdinov2010_train", "repeat=0, algorithm=CAST"),
        ("salakhutdinov2010_train", "repeat=1, algorithm=FPCD"),
    }, jobs
