"""carlson2016 rules common to every target (spec section 4): RTS continuation and the exact check."""

import numpy as np
import pytest

from bmrep.estimators.ladders import linear_betas
from bmrep.estimators.rts import uniform_log_prior
from bmrep.experiments.carlson2016.base import base_bias_for
from bmrep.experiments.carlson2016.tempered import init_sweeps_of, rbm_tempered_run
from bmrep.sampling.simulated_tempering import rbm_step
from conftest import small_rbm

SEED = 20261121


@pytest.mark.parametrize("init", ["flat", "ais"])
def test_rts_main_run_continues_the_initial_iterations(init):
    """The main run starts from every chain's (x, k) at the end of the initial iterations; all sweeps are counted."""
    rbm = small_rbm(2, 1.0, 8, 5)
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
