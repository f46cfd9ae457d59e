"""carlson2016 experiments: the exact-model check, small end-to-end runs, shard tables, import closures."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bmrep.code_digest import library_files
from bmrep.experiments.carlson2016.base import base_bias_for
from bmrep.experiments.carlson2016.exact_check import exact_model_check
from bmrep.experiments.carlson2016.fig1 import fig1_initial_iterations
from bmrep.experiments.carlson2016.fig3 import fig3_repeat, fig3_truth
from bmrep.experiments.carlson2016.fig4 import fig4_temperatures
from bmrep.experiments.carlson2016.shards import concat_frames, frame_arrays
from bmrep.models.exact import rbm as exact
from bmrep.models.rbm import RBM

SEED = 20261121
ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "workflow" / "scripts" / "carlson2016"
PACKAGE = ROOT / "src" / "bmrep" / "experiments" / "carlson2016"


def test_exact_model_check_small():
    df = exact_model_check(dict(n_visible=8, n_hidden=6, weight_scales=[1.0, 3.0], n_chains=40, sweeps=400, K=20), SEED)
    assert set(df["method"]) >= {"AIS", "RAISE", "RTS", "TS", "MBAR", "TI-RB"}
    zs = df.dropna(subset=["z"])["z"].abs()
    assert len(zs) == 10 and zs.max() < 4.0, df


def test_fig1_on_an_enumerable_rbm():
    r = np.random.default_rng(0)
    rbm = RBM(r.normal(0, 0.5, (30, 5)), r.normal(0, 1, 30), r.normal(0, 1, 5))
    bb = base_bias_for("data", (r.random((200, 30)) < 0.4).astype(float))
    df = fig1_initial_iterations(
        rbm, bb, dict(K=20, n_chains=30, sweeps_per_iteration=30, n_iterations=6, final_sweeps=200), SEED
    )
    rb = df[(df["variant"] == "RB") & (df["stage"] == "initial")]
    conv = rb["converged_at"].iloc[0]
    assert 1 <= conv <= 6
    np.testing.assert_allclose(rb[rb["iteration"] == 1]["exact"].to_numpy()[-1], exact.log_partition(rbm, 1.0, bb))
    final = df[(df["variant"] == "RB") & (df["stage"] == "final") & (df["k"] == 20)].iloc[0]
    assert abs(final["log_zhat"] - final["exact"]) < 0.2


def test_fig3_and_fig4_pieces_run_and_agree_with_exact():
    r = np.random.default_rng(1)
    rbm = RBM(r.normal(0, 0.3, (40, 8)), r.normal(0, 1, 40), r.normal(0, 1, 8))
    X = (r.random((300, 40)) < 0.3).astype(float)
    bb = base_bias_for("data", X)
    lz = exact.log_partition(rbm)
    s = dict(
        n_chains=20,
        sweeps=[150, 300],
        dtype="float64",
        K=20,
        init="ais",
        init_iterations=3,
        init_sweeps=20,
        truth_sweeps=400,
    )
    rows = pd.concat([fig3_repeat(rbm, bb, X, s, m, 0, SEED, "toy") for m in ("RTS", "AIS", "RAISE")])
    assert list(rows["sweeps"].unique()) == [150, 300]
    z = (rows["estimate"] - lz) / rows["stderr"]
    assert np.all(np.abs(z) < 4.0), rows
    truth, curve = fig3_truth(rbm, bb, s, SEED, "toy")
    assert abs(truth.set_index("method").loc["truth", "estimate"] - lz) < 0.1 and curve.size == 20
    s4 = dict(
        n_chains=10,
        dtype="float64",
        burn_in=10,
        init_iterations=0,
        init_sweeps=10,
        n_sweeps=60,
        subset_size=300,
        n_bootstrap=4,
        n_bootstrap_mbar=1,
        mbar_max_K=10,
    )
    d4 = fig4_temperatures(rbm, bb, 10, s4, SEED, (np.linspace(0, 1, 20), curve))
    assert set(d4["method"]) == {"RTS", "TS", "TI", "TI-RB", "MBAR"}
    assert (d4["method"] == "MBAR").sum() == 1


def test_shard_tables_roundtrip_through_arrays():
    df = pd.DataFrame({"method": ["RTS", "AIS"], "estimate": [1.5, 2.5], "repeat": [0, 1]})
    arrays = frame_arrays(df)
    assert arrays["method"].dtype.kind == "U"  # npz holds no objects
    back = concat_frames([arrays, arrays])
    pd.testing.assert_frame_equal(back, pd.concat([df, df], ignore_index=True), check_dtype=False)


def test_bad_settings_are_rejected():
    with pytest.raises(ValueError):
        base_bias_for("gaussian", np.zeros((3, 4)))


def _files(script):
    return {p.relative_to(ROOT / "src" / "bmrep").as_posix() for p in library_files(SCRIPTS / script)}


def test_training_job_imports_no_estimator_it_does_not_run():
    # an edit to AIS, MBAR, TI or the claims must not retrain the MNIST models
    files = _files("train_mnist.py")
    assert "experiments/carlson2016/train.py" in files
    for f in ("estimators/ais.py", "estimators/mbar.py", "estimators/ti.py", "estimators/rts.py", "claims/core.py"):
        assert f not in files, f


def test_each_job_imports_only_its_own_stage():
    assert "experiments/carlson2016/fig5.py" not in _files("fig3_shard.py")
    assert "experiments/carlson2016/summaries.py" not in _files("fig3_shard.py")
    assert "experiments/carlson2016/fig3.py" not in _files("fig3.py")  # the aggregate reads the shards
    assert not any(f.startswith("experiments/") for f in _files("claims.py"))
    assert not {"estimators/mbar.py", "estimators/ti.py", "estimators/reverse_ais.py"} & _files("fig1.py")


def test_experiments_do_no_file_io_and_import_no_claims_or_plotting():
    import ast

    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert not {"io", "claims", "plotting"} & set((node.module or "").split(".")), (path.name, node.module)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id != "open", path.name
        # no lazy imports: every import is at module level
        for fn in (n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))):
            assert not any(isinstance(n, (ast.Import, ast.ImportFrom)) for n in ast.walk(fn)), (path.name, fn.name)


def test_fig3_ais_and_raise_spend_exactly_the_budget(monkeypatch):
    # a sweep is two layer updates (h | v, v | h); AIS also draws its start from the base (one update per layer),
    # RAISE its start's h | v at beta = 1: the budgets are matched to RTS's sweeps, so neither may run short
    # (AIS on budget + 1 betas made budget - 1 sweeps)
    from bmrep.sampling.operators import Operator

    calls = []
    original = Operator.update_layer

    def counted(self, *a, **k):
        calls.append(1)
        return original(self, *a, **k)

    monkeypatch.setattr(Operator, "update_layer", counted)
    r = np.random.default_rng(3)
    rbm = RBM(r.normal(0, 0.3, (12, 4)), r.normal(0, 1, 12), r.normal(0, 1, 4))
    X = (r.random((20, 12)) < 0.3).astype(float)
    s = dict(n_chains=5, sweeps=[37], dtype="float64")
    calls.clear()
    fig3_repeat(rbm, base_bias_for("data", X), X, s, "AIS", 0, SEED, "toy")
    assert len(calls) == 2 + 2 * 37
    calls.clear()
    fig3_repeat(rbm, base_bias_for("data", X), X, s, "RAISE", 0, SEED, "toy")
    assert 1 + 2 * 37 <= len(calls) <= 3 + 2 * 37  # its start may also draw (and discard) a base sample
