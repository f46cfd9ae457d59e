"""carlson2016's stages: small end-to-end runs, shard tables, import closures (exact check: test_rules.py)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from bmrep.io import concat_frames, frame_arrays
from bmrep.models.exact import rbm as exact
from bmrep.models.rbm import RBM
from bmrep.papers.carlson2016.base import base_bias_for
from bmrep.papers.carlson2016.fig1 import fig1_exact_log_z, fig1_seed
from bmrep.papers.carlson2016.fig2 import fig2_gaussian_mixture_repeat, fig2_reference
from bmrep.papers.carlson2016.fig3 import fig3_repeat, fig3_truth_run, repeat_budgets
from bmrep.papers.carlson2016.fig4 import fig4_run, rao_blackwell_ti
from bmrep.pipeline.code_digest import library_files

SEED = 20261121
ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = ROOT / "workflow" / "scripts" / "carlson2016"
PACKAGE = ROOT / "src" / "bmrep" / "papers" / "carlson2016"


def test_fig1_on_an_enumerable_rbm():
    r = np.random.default_rng(0)
    rbm = RBM(r.normal(0, 0.5, (30, 5)), r.normal(0, 1, 30), r.normal(0, 1, 5))
    bb = base_bias_for("data", (r.random((200, 30)) < 0.4).astype(float))
    settings = dict(K=20, n_chains=30, sweeps_per_iteration=30, n_iterations=6, main_sweeps=300)
    exact_lz = fig1_exact_log_z(rbm, bb, 20)
    np.testing.assert_allclose(exact_lz[-1], exact.log_partition(rbm, 1.0, bb))
    df, main = fig1_seed(rbm, bb, settings, SEED, 3, exact_lz)
    assert set(df["seed"]) == {3} and len(df) == 2 * 6 * 20
    rb = df[df["variant"] == "RB"]
    # converged_at is the first iteration with max_k |r_k - c_k| < 0.1/K (r uniform), -1 if none; the
    # occupancies start far from uniform (the initial log Z guesses are all log Z_1) and approach it
    dev = rb.groupby("iteration")["c"].apply(lambda c: np.abs(c - 1 / 20).max())
    met = dev.index[dev < 0.1 / 20]
    assert rb["converged_at"].iloc[0] == (met.min() if len(met) else -1)
    assert dev.iloc[0] > 0.3 and dev.iloc[-1] < 0.1 * dev.iloc[0]
    # within 4 sd of the last iteration's error over 120 seed indices (sd 0.16 nats; |error| > 0.2 in
    # 20% of them, and no convergence within 6 iterations in 19%: both were asserted here before and
    # held for this seed only by its draws)
    last = rb[(rb["iteration"] == 6) & (rb["k"] == 20)].iloc[0]
    assert abs(last["log_zhat"] - last["exact"]) < 0.65
    again = fig1_seed(rbm, bb, settings, SEED, 3, exact_lz)  # keyed by the seed index
    pd.testing.assert_frame_equal(df, again[0])
    pd.testing.assert_frame_equal(main, again[1])
    other, _ = fig1_seed(rbm, bb, settings, SEED, 4, exact_lz)
    assert not np.allclose(other["log_zhat"], df["log_zhat"])
    # the main run continues the RB iterations: it starts from their log Zhat_K, read at nested checkpoints
    assert list(main["main_sweeps"]) == [30, 60, 150, 300] and list(main["sweeps"]) == [210, 240, 330, 480]
    assert (main["init_log_z"] == last["log_zhat"]).all() and (main["exact"] == last["exact"]).all()


def test_fig1_main_run_is_unbiased_where_the_iterations_are_not():
    """Against exact enumeration over 24 seeds: the main run's log Z_K error is within 4 s.e. of 0.

    A 40x6 RBM with strong weights, where the initial iterations alone (5 of 20
    sweeps, fresh uniform temperatures each) err by about 0.41 nats RMS over
    these seeds; the main run continuing them with Zhat frozen (sec. 2.4) is
    unbiased (measured -0.004 +- 0.025) and more accurate (0.12 RMS).
    """
    r = np.random.default_rng(5)
    rbm = RBM(r.normal(0, 1.0, (40, 6)), r.normal(0, 1, 40), r.normal(0, 1, 6))
    bb = base_bias_for("data", (r.random((200, 40)) < 0.4).astype(float))
    settings = dict(K=20, n_chains=20, sweeps_per_iteration=20, n_iterations=5, main_sweeps=400)
    exact_lz = fig1_exact_log_z(rbm, bb, 20)
    mains = pd.concat([fig1_seed(rbm, bb, settings, SEED, s, exact_lz)[1] for s in range(24)])
    final = mains[mains["main_sweeps"] == 400]
    err = (final["log_z"] - final["exact"]).to_numpy()
    init = (final["init_log_z"] - final["exact"]).to_numpy()
    z = err.mean() / (err.std(ddof=1) / np.sqrt(err.size))
    assert abs(z) < 4, (err.mean(), z)
    # not vacuous: the main run's errors are smaller than the iterations' on this model
    assert np.sqrt(np.mean(err**2)) < np.sqrt(np.mean(init**2))


FIG2_SMALL = dict(dim=4, separation=3.0, scale=1.0, weight=0.3, log_z=2.0, base_scale=5.0, K=12, beta_power=1.0,
                  n_chains=10, step_size=0.2, step_jitter=0.2, n_leapfrog=10, warmup=60, init_iterations=3,
                  init_sweeps=20, samples=[400, 200], reference_factor=4)  # fmt: skip


def test_fig2_repeat_and_reference_on_a_small_mixture():
    df = fig2_gaussian_mixture_repeat(FIG2_SMALL, 1, SEED)
    assert sorted(df["n_samples"].unique()) == [200, 400]
    assert set(df["method"]) == {"RTS", "MBAR", "TI Riemann", "TI trap", "TI trap corrected", "TI-RB"}
    at = df[df["n_samples"] == 400].set_index("method")
    assert np.all(at.loc[["RTS", "MBAR"], "stderr"] > 0) and at.loc["TI-RB", "stderr"] != at.loc["TI-RB", "stderr"]
    z = (at.loc["RTS", "estimate"] - 2.0) / at.loc["RTS", "stderr"]
    assert abs(z) < 4.0, at
    ref = fig2_reference(FIG2_SMALL, SEED, 0).set_index("method")
    assert set(ref.index) == set(df["method"]) - {"RTS", "MBAR"} and np.all(ref["n_samples"] == 1600)
    # the integrand E_beta[Delta] rises with beta, so the right Riemann sum lies above the trapezoid rule
    assert ref.loc["TI Riemann", "rule_value"] > ref.loc["TI trap", "rule_value"] + 0.5
    assert not ref["rule_value"].equals(fig2_reference(FIG2_SMALL, SEED, 1).set_index("method")["rule_value"])


FIG3_SMALL = dict(n_chains=20, sweeps=[150, 300], dtype="float64", K=20, init="ais", init_iterations=3, init_sweeps=20,
                  truth_sweeps=1000)  # fmt: skip
FIG4_SMALL = dict(n_chains=10, dtype="float64", init="ais", burn_in=10, init_iterations=2, init_sweeps=10, n_sweeps=100,
                  mbar_max_K=10, mbar_samples=300)  # fmt: skip


def test_fig3_and_fig4_pieces_run_and_agree_with_exact():
    r = np.random.default_rng(1)
    rbm = RBM(r.normal(0, 0.3, (40, 8)), r.normal(0, 1, 40), r.normal(0, 1, 8))
    X = (r.random((300, 40)) < 0.3).astype(float)
    bb = base_bias_for("data", X)
    lz = exact.log_partition(rbm)
    rows = pd.concat([fig3_repeat(rbm, bb, X, FIG3_SMALL, m, 0, SEED, "toy") for m in ("RTS", "AIS", "RAISE")])
    assert list(rows["sweeps"].unique()) == [150, 300]
    z = (rows["estimate"] - lz) / rows["stderr"]
    assert np.all(np.abs(z) < 4.0), rows
    truth = pd.concat(
        [fig3_truth_run(rbm, bb, X, FIG3_SMALL, m, i, SEED, "toy") for m in ("AIS", "RAISE") for i in (0, 1)]
    )
    assert list(truth["run"]) == [0, 1, 0, 1] and set(truth["sweeps"]) == {1000}
    assert np.all(np.abs(truth["estimate"] - lz) < 0.1), truth
    assert truth["estimate"].iloc[0] != truth["estimate"].iloc[1]  # independent runs
    d4 = fig4_run(rbm, bb, 10, FIG4_SMALL, 0, SEED, "toy")
    assert set(d4["method"]) == {"RTS", "TS", "TI", "TI-RB", "MBAR"} and set(d4["run"]) == {0}
    assert np.all(np.abs(d4["estimate"] - lz) < 0.5), d4
    assert "MBAR" not in set(fig4_run(rbm, bb, 12, FIG4_SMALL, 1, SEED, "toy")["method"])  # K above mbar_max_K


def test_repeats_run_the_larger_budgets_only_up_to_their_count():
    assert repeat_budgets([3000, 1000], 0, 2) == [1000, 3000]
    assert repeat_budgets([3000, 1000], 1, 2) == [1000, 3000]
    assert repeat_budgets([3000, 1000], 2, 2) == [1000]


def test_rao_blackwell_ti_in_chunks_matches_the_whole_matrix():
    from bmrep.estimators.rts import uniform_log_prior
    from bmrep.estimators.ti import ti_log_z
    from bmrep.sampling.ladders import linear_betas

    r = np.random.default_rng(2)
    betas, lp = linear_betas(7), uniform_log_prior(7)
    delta, k, lzh = r.normal(3, 2, 50_001), r.integers(0, 7, 50_001), np.cumsum(r.random(7))
    whole = ti_log_z(delta, k, betas, 0.0, log_prior=lp, log_zhat=lzh)["TI-RB"].estimate
    assert rao_blackwell_ti(delta, betas, lp, lzh) == pytest.approx(whole, rel=1e-12)


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
    assert "learning/mnist_rbm.py" in files
    for f in ("estimators/ais.py", "estimators/mbar.py", "estimators/ti.py", "estimators/rts.py", "claims/core.py"):
        assert f not in files, f


def test_each_job_imports_only_its_own_stage():
    assert "papers/carlson2016/fig5.py" not in _files("fig3_shard.py")
    assert "papers/carlson2016/summaries.py" not in _files("fig3_shard.py")
    assert "papers/carlson2016/fig3.py" not in _files("fig3.py")  # the aggregate reads the shards
    claims_job = {f for f in _files("claims.py") if f.startswith("papers/")}
    assert claims_job == {"papers/__init__.py", "papers/carlson2016/__init__.py", "papers/carlson2016/claims.py",
                          "papers/carlson2016/claims_metrics.py", "papers/carlson2016/claims_truth.py"}  # fmt: skip
    assert not {"estimators/mbar.py", "estimators/ti.py", "estimators/reverse_ais.py"} & _files("fig1.py")


def test_stages_do_no_file_io_and_import_no_claims_or_plotting():
    """The paper's stages import neither its claims nor its plots (nor the shared ones); none of its modules
    opens a file."""
    import ast

    paths = sorted(PACKAGE.glob("*.py"))
    assert {"fig1.py", "claims.py", "plots.py"} <= {p.name for p in paths}
    for path in paths:
        stage = not path.name.startswith(("claims", "plots"))
        banned = {"io", "claims", "plotting", "plots"} if stage else {"io"}
        banned |= {m.stem for m in paths if m.stem.startswith(("claims", "plots"))} if stage else set()
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                named = {*(node.module or "").split("."), *(a.name for a in node.names)}
                assert not banned & named, (path.name, node.module)
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
    update_layer, sweep = Operator.update_layer, Operator.sweep

    def counted_update(self, *a, **k):
        calls.append(1)
        return update_layer(self, *a, **k)

    def counted_sweep(self, *a, n_sweeps=1, **k):
        calls.extend([1] * (2 * n_sweeps))  # two layer updates per sweep
        return sweep(self, *a, n_sweeps=n_sweeps, **k)

    monkeypatch.setattr(Operator, "update_layer", counted_update)
    monkeypatch.setattr(Operator, "sweep", counted_sweep)
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
