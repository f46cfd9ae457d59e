"""RTS / TS (bmrep.estimators.rts, rts_run) and simulated tempering (bmrep.sampling.simulated_tempering).

Ground truth: exact log Z_k of small RBMs by enumeration of all joint states.
"""

import numpy as np
import pytest
from scipy.stats import chi2

from bmrep.estimators.base import base_log_partition
from bmrep.estimators.rts import (
    TemperingStats,
    exponential_log_prior,
    initial_iterations,
    partial_update,
    rts_log_z,
    rts_stderr,
    stopping_rule_met,
    ts_log_z,
    uniform_log_prior,
)
from bmrep.estimators.rts_run import RTSRun
from bmrep.models.exact import rbm as exact
from bmrep.sampling.simulated_tempering import (
    log_temperature_conditional,
    rbm_step,
    sample_temperatures,
    temperature_conditional,
)
from bmrep.sampling.streams import ChainStreams
from bmrep.sampling.tempered_rbm import TemperedRBMChains
from support.testsystems import TemperedRBM, exact_tempered_joint, random_rbm

Z_MAX = 4.0


@pytest.mark.parametrize("scale", [1.0, 8.0])
def test_rts_is_exact_with_exact_expectations(scale):
    """Eq. 11: with c_k = E_q[q(beta_k|x)] computed exactly, eq. 12 returns the exact log Z_k, for any Zhat."""
    rbm = random_rbm(6, 4, scale, 1)
    a = np.random.default_rng(2).normal(size=rbm.n_visible)
    K = 12
    betas = np.linspace(0, 1, K)
    exact_lz = np.array([exact.log_partition(rbm, b, a) for b in betas])
    log_prior = exponential_log_prior(betas, 2.0)
    log_zhat = exact_lz[0] + np.random.default_rng(3).normal(0, 3, K)
    log_zhat[0] = exact_lz[0]
    lq, delta = exact_tempered_joint(rbm, a, betas, log_prior, log_zhat)
    q_cond = np.exp(log_temperature_conditional(delta, betas, log_prior, log_zhat))
    c = (np.exp(lq).sum(axis=1)[:, None] * q_cond).sum(axis=0)
    np.testing.assert_allclose(rts_log_z(np.log(c), log_prior, log_zhat), exact_lz, atol=1e-9)
    # and the marginal of beta is eq. 8
    np.testing.assert_allclose(c, np.exp(lq).sum(axis=0), atol=1e-12)


def test_rts_with_exact_iid_samples_is_consistent_with_its_stated_error():
    rbm = random_rbm(6, 4, 3.0, 4)
    system = TemperedRBM(rbm, np.random.default_rng(5).normal(size=rbm.n_visible))
    K = 10
    betas = np.linspace(0, 1, K)
    exact_lz = np.array([system.log_z(b) for b in betas])
    log_prior = uniform_log_prior(K)
    log_zhat = exact_lz + np.random.default_rng(6).normal(0, 0.5, K)
    log_zhat[0] = exact_lz[0]
    n_chains, n_per = 50, 200
    delta, k, _ = system.tempered_joint_samples(betas, log_prior, log_zhat, n_chains * n_per, np.random.default_rng(7))
    stats = TemperingStats(K, n_chains)
    for t in range(n_per):
        sl = slice(t * n_chains, (t + 1) * n_chains)
        q = np.exp(log_temperature_conditional(delta[sl], betas, log_prior, log_zhat))
        stats.add(q, k[sl])
    est, se = stats.rts(log_prior, log_zhat), stats.stderr()
    z = (est[1:] - exact_lz[1:]) / se[1:]
    assert np.max(np.abs(z)) < Z_MAX, z
    # TS (counts + 0.1) is consistent too, with its own (larger) error
    ts, se_ts = stats.ts(log_prior, log_zhat), stats.stderr(rao_blackwell=False)
    assert abs(ts[-1] - exact_lz[-1]) / se_ts[-1] < Z_MAX
    assert se[-1] < se_ts[-1]


def test_rts_stderr_matches_delta_method():
    """Eq. 16 with i.i.d. chain averages equals the sample variance of log(c_k / c_1) to first order."""
    r = np.random.default_rng(0)
    chain_c = np.abs(r.normal([0.3, 0.2, 0.5], 0.01, size=(400, 3)))
    se = rts_stderr(chain_c)
    boot = [np.log(chain_c[i].mean(0)) for i in r.integers(0, 400, (2000, 400))]
    boot = np.array(boot)
    np.testing.assert_allclose(se[1:], np.std(boot[:, 1:] - boot[:, :1], axis=0), rtol=0.1)
    assert se[0] == 0


def test_ts_pseudo_count_and_partial_update():
    lp = uniform_log_prior(4)
    lz = np.array([0.0, 1.0, 2.0, 3.0])
    np.testing.assert_allclose(ts_log_z(np.array([10, 10, 10, 10]), lp, lz), lz)
    c = np.log(np.array([0.1, 0.2, 0.3, 0.4]))
    full = rts_log_z(c, lp, lz)
    np.testing.assert_allclose(partial_update(lz, c, lp, 1.0), full)
    np.testing.assert_allclose(partial_update(lz, c, lp, 0.2), lz + 0.2 * (full - lz))
    with pytest.raises(ValueError):
        partial_update(lz, c, lp, 0.0)


def test_temperature_conditional_forms_agree():
    d = np.array([-50.0, 0.0, 3.0, 400.0])
    b = np.linspace(0, 1, 7)
    lp, lz = uniform_log_prior(7), np.linspace(0, 30, 7)
    q = temperature_conditional(d, b, lp, lz)
    np.testing.assert_allclose(q, np.exp(log_temperature_conditional(d, b, lp, lz)), rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(q.sum(axis=1), 1.0)


def test_stopping_rule():
    K = 10
    r = np.full(K, 0.1)
    assert stopping_rule_met(r + 0.009 * np.array([1, -1] * 5), r)
    assert not stopping_rule_met(r + 0.011 * np.array([1, -1] * 5), r)


def test_initial_iterations_with_exact_c_converge_at_once():
    """Sec. 2.4: with the exact marginal c, one update gives the exact Zhat; the next iteration meets the rule."""
    K = 6
    true_lz = np.array([0.0, 2.0, 3.0, 3.5, 3.8, 4.0])
    lp = uniform_log_prior(K)

    def run(lz):
        w = np.exp(lp + true_lz - lz)
        return w / w.sum(), np.zeros(K)

    res = initial_iterations(run, lp, np.zeros(K), 10)
    assert res.converged_at == 2
    np.testing.assert_allclose(res.final_log_zhat, true_lz, atol=1e-12)


def test_sample_temperatures_frequencies():
    q = np.array([[0.1, 0.2, 0.7]] * 30000)
    k = sample_temperatures(q, np.random.default_rng(0))
    n = np.bincount(k, minlength=3)
    e = 30000 * np.array([0.1, 0.2, 0.7])
    assert np.sum((n - e) ** 2 / e) < chi2.ppf(0.999, 2)


@pytest.mark.parametrize("scale", [1.0, 4.0])
def test_simulated_tempering_rts_on_an_rbm(scale):
    """End to end: ST with the compiled Gibbs kernel (RTSRun: initial iterations, then the main run); RTS within
    its stated error, error shrinking with sweeps."""
    rbm = random_rbm(10, 6, scale, 8)
    a = np.random.default_rng(9).normal(0, 0.5, 10)
    K = 30
    betas = np.linspace(0, 1, K)
    lp = uniform_log_prior(K)
    exact_lz = exact.log_partition(rbm, 1.0, a)
    n_chains = 50
    state = TemperedRBMChains.from_base(rbm, n_chains, ChainStreams.from_seed(10, int(scale), n_chains=n_chains), a)
    lz0 = np.full(K, base_log_partition(a, rbm.n_hidden))
    run = RTSRun(state, rbm_step, betas, lp, n_chains, np.random.default_rng(11), lz0)
    assert run.initial_iterations(50, 15).converged_at is not None
    checkpoints, _, _ = run.run([100, 1600], restart=True)
    errs = [(rts.estimate - exact_lz, rts.stderr) for _, rts, _ in checkpoints]
    (e0, s0), (e1, s1) = errs
    assert abs(e1) / s1 < Z_MAX, errs
    assert s1 < 0.5 * s0


def test_delta_of_tempering_state_matches_energy():
    rbm = random_rbm(6, 4, 2.0, 12)
    a = np.random.default_rng(13).normal(size=6)
    st = TemperedRBMChains.from_base(rbm, 7, ChainStreams.from_seed(1, n_chains=7), a)
    d = st.sweep(np.linspace(0, 1, 7))
    np.testing.assert_allclose(d, st.delta(), atol=1e-10)
    np.testing.assert_allclose(d, -rbm.energy(st.v, st.h) - st.v @ a, atol=1e-10)


def test_tempered_sweep_reuses_the_cached_hidden_field_without_changing_the_chain():
    """log_f caches c + v W and the next sweep reuses it: the chain is the same as without the cache."""
    rbm = random_rbm(8, 5, 2.0, 14)
    a = np.random.default_rng(15).normal(size=8)
    betas = np.linspace(0.2, 1.0, 6)
    runs = []
    for use_cache in (False, True):
        st = TemperedRBMChains.from_base(rbm, 6, ChainStreams.from_seed(3, n_chains=6), a)
        deltas = []
        for _ in range(20):
            if use_cache:
                st.log_f(0.5)
            deltas.append(st.sweep(betas))
        runs.append((st.v.copy(), st.h.copy(), np.array(deltas)))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert np.array_equal(runs[0][2], runs[1][2])
    assert np.unique(runs[0][2]).size > 10


def test_a_sweep_without_delta_moves_the_chain_the_same_way():
    """AIS and RAISE sweep with ``delta=False`` (they weight by log f): same states, no Delta computed."""
    rbm = random_rbm(8, 5, 2.0, 16)
    a = np.random.default_rng(17).normal(size=8)
    states = []
    for want in (True, False):
        st = TemperedRBMChains.from_base(rbm, 6, ChainStreams.from_seed(4, n_chains=6), a)
        out = [st.sweep(np.linspace(0.1, 1.0, 6), delta=want) for _ in range(15)]
        assert all((d is None) != want for d in out)
        states.append((st.v.copy(), st.h.copy()))
    assert np.array_equal(states[0][0], states[1][0]) and np.array_equal(states[0][1], states[1][1])
    assert 0 < states[0][0].mean() < 1
