"""AIS and RAISE (bmrep.estimators.ais, reverse_ais) against exact log Z on enumerable RBMs.

Fixed seeds; statistical checks are explicit z-scores.
"""

import numpy as np
import pytest

from bmrep.estimators.ais import (
    ais_log_partition,
    ais_log_weights,
    effective_sample_size,
    log_mean_exp,
    log_mean_exp_stderr,
)
from bmrep.estimators.base import data_marginal_base_bias
from bmrep.estimators.rbm_ais import rbm_annealing_model
from bmrep.estimators.reverse_ais import raise_estimate, raise_log_partition, raise_log_weights
from bmrep.models.exact import all_states
from bmrep.models.exact import rbm as exact
from bmrep.models.rbm import tempered_free_energy_v
from bmrep.sampling.ladders import adaptive_betas, fixed_betas, linear_betas, piecewise_betas
from bmrep.sampling.streams import ChainStreams
from support.testsystems import random_rbm

Z_MAX = 4.0


def test_log_mean_exp_numerics():
    x = np.array([1000.0, 1000.0 + np.log(3.0)])
    assert log_mean_exp(x) == pytest.approx(1000.0 + np.log(2.0))
    w = np.random.default_rng(0).normal(size=50)
    assert log_mean_exp(w) == pytest.approx(np.log(np.mean(np.exp(w))))
    e = np.exp(w)
    assert log_mean_exp_stderr(w + 700) == pytest.approx(np.std(e, ddof=1) / np.sqrt(50) / e.mean())
    assert effective_sample_size(np.zeros(7)) == pytest.approx(7.0)


def test_schedules():
    b = piecewise_betas(14501)
    assert b[0] == 0 and b[-1] == 1 and b.size == 14501 and np.all(np.diff(b) > 0)
    assert np.isclose(np.diff(b)[:500], 1e-3).all() and np.isclose(np.diff(b)[-100:], 1e-5).all()
    with pytest.raises(ValueError):
        linear_betas(1)


def _boltzmann(g: np.ndarray, beta: float) -> np.ndarray:
    """p_beta(x) = exp(beta g(x)) / Z_beta on the states x = 0, ..., g.size - 1."""
    p = np.exp(beta * g - np.logaddexp.reduce(beta * g))
    return p / p.sum()


def _perfect_transition_ais(g: np.ndarray, betas: np.ndarray, n_runs: int, rng: np.random.Generator):
    """AIS (the generic driver) on f_beta(x) = exp(beta g(x)) over g.size states, each transition an exact
    draw from p_beta; the runs start uniform (beta = 0, log Z_0 = log g.size) and use ``rng`` throughout."""
    n_states = g.size
    return ais_log_weights(
        betas,
        n_runs=n_runs,
        rng=rng,
        init_sample=lambda n, r: r.integers(0, n_states, n),
        log_f=lambda x, beta: beta * g[x],
        transition=lambda x, beta: rng.choice(n_states, size=x.size, p=_boltzmann(g, beta)),
        log_z_base=np.log(float(n_states)),
    )


def test_generic_driver_on_a_discrete_family():
    """Model-agnostic interface: f_beta(x) = exp(beta g(x)) on 50 states, exact transitions."""
    g = np.random.default_rng(1).normal(0, 2, 50)
    exact_lz = np.logaddexp.reduce(g)
    run = _perfect_transition_ais(g, linear_betas(6), 4000, np.random.default_rng(2))
    assert run.log_weights.shape == (4000,)
    z = (run.estimate - exact_lz) / run.stderr
    assert abs(z) < Z_MAX, z


def test_rbm_log_f_matches_core_free_energy():
    """The chains' cached log f (AIS and tempering) equals the model's exact -F_beta(v), at every beta."""
    rbm = random_rbm(10, 6, 2.0, 3)
    V = (np.random.default_rng(0).random((20, 10)) < 0.5).astype(float)
    a = np.random.default_rng(1).normal(size=10)
    init_sample, _, _, _ = rbm_annealing_model(rbm, a)
    state = init_sample(20, ChainStreams.from_seed(0, n_chains=20))
    state.set_visible(V)
    for beta in (0.0, 0.3, 1.0):
        np.testing.assert_allclose(state.log_f(beta), -tempered_free_energy_v(rbm, V, beta, a), rtol=1e-12, atol=1e-10)
    # a sweep changes the chains: the cache follows them (log f of the new v, Delta of the new (v, h))
    d = state.sweep(0.5)
    np.testing.assert_allclose(state.log_f(0.7), -tempered_free_energy_v(rbm, state.v, 0.7, a), rtol=1e-12, atol=1e-10)
    np.testing.assert_allclose(d, -rbm.energy(state.v, state.h) - state.v @ a, atol=1e-10)


@pytest.mark.parametrize("scale", [1.0, 10.0])
def test_ais_consistent_with_its_stated_error(scale):
    """z-score of AIS vs exact log Z, including an RBM with weights of magnitude ~10-30."""
    rbm = random_rbm(10, 6, scale, 4)
    lz = exact.log_partition(rbm)
    X, _ = exact.sample_exact(rbm, 500, np.random.default_rng(5))
    bb = data_marginal_base_bias(X)
    run = ais_log_partition(
        rbm, 200, linear_betas(2000), ChainStreams.from_seed(7, "ais", int(scale), n_chains=200), bb
    )
    z = (run.estimate - lz) / run.stderr
    assert abs(z) < Z_MAX, (run.estimate, lz, run.stderr)
    assert run.ess > 20


def test_ais_error_shrinks_with_budget():
    rbm = random_rbm(10, 6, 2.0, 5)
    lz = exact.log_partition(rbm)
    err = {}
    for K in (10, 1000):
        e = [
            ais_log_partition(rbm, 50, linear_betas(K), ChainStreams.from_seed(8, K, s, n_chains=50)).estimate - lz
            for s in range(8)
        ]
        err[K] = np.sqrt(np.mean(np.square(e)))
    assert err[1000] < 0.5 * err[10], err


def test_ais_below_and_raise_above_exact_in_expectation():
    """The sandwich of Carlson et al. sec. 3.2: over 100 fixed-seed runs, mean AIS < log Z < mean RAISE."""
    rbm = random_rbm(8, 6, 3.0, 6)
    lz = exact.log_partition(rbm)
    V, _ = exact.sample_exact(rbm, 100 * 5, np.random.default_rng(9))
    a, r = [], []
    for i in range(100):
        a.append(
            ais_log_partition(rbm, 5, linear_betas(10), ChainStreams.from_seed(10, "ais", i, n_chains=5)).estimate - lz
        )
        res = raise_log_partition(
            rbm,
            V[5 * i : 5 * i + 5].astype(float),
            linear_betas(10),
            ChainStreams.from_seed(10, "raise", i, n_chains=5),
        )
        r.append(res.estimate - lz)
    a, r = np.array(a), np.array(r)
    z_ais = a.mean() / (a.std(ddof=1) / 10)
    z_raise = r.mean() / (r.std(ddof=1) / 10)
    assert z_ais < -3 and z_raise > 3, (z_ais, z_raise)


def test_raise_consistent_with_exact_on_a_long_schedule():
    rbm = random_rbm(10, 6, 2.0, 7)
    lz = exact.log_partition(rbm)
    V, _ = exact.sample_exact(rbm, 200, np.random.default_rng(11))
    res = raise_log_partition(rbm, V.astype(float), linear_betas(2000), ChainStreams.from_seed(12, n_chains=200))
    log_p = res.details["log_p_hat"]
    assert abs(res.estimate - lz) / res.stderr < Z_MAX
    # per-point log p^(v) are stochastic lower bounds on log p(v): on average not above
    assert np.mean(log_p - exact.log_prob_v(rbm, V)) < 3 * np.std(log_p - exact.log_prob_v(rbm, V)) / np.sqrt(200)


def _visible_first(state, beta):
    """The order RAISE used before: v | h then h | v (the reversal on (v, h) with the joint weights, not ours)."""
    betas = np.full(state.v.shape[0], beta)
    vfield = state.rbm.b + state.h @ state.rbm.W.T
    state.operator.update_layer(state.v, vfield, state.streams, betas=betas, base_field=state.base_bias)
    state.set_visible(state.v)  # drops the cached hidden field of the old v
    state.operator.update_layer(state.h, state.hidden_field, state.streams, betas=betas)
    return state


def _raise_p_hat_sum(rbm, K, transition=None, copies=500, batches=80):
    """sum_v mean p^(v) over all 2^n visible states, its standard error, and the z-score of (sum - 1).

    ``copies`` runs start at every v, ``batches`` times on the same (advancing) streams.
    ``transition=None``: :func:`raise_log_partition` as it is; otherwise the reverse
    chain moves with ``transition`` (h drawn | v at beta = 1 first, as the old code did).
    """
    V = np.repeat(all_states(rbm.n_visible).astype(np.float64), copies, axis=0)
    streams = ChainStreams.from_seed(20261121, "raise_sum", K, n_chains=V.shape[0])
    betas = linear_betas(K + 1)
    p = []
    for _ in range(batches):
        if transition is None:
            log_p = raise_log_partition(rbm, V, betas, streams).details["log_p_hat"]
        else:
            init_sample, _, log_f_pair, log_z0 = rbm_annealing_model(rbm)
            state = init_sample(V.shape[0], streams)
            state.set_visible(V)
            state.operator.update_layer(state.h, state.hidden_field, streams, betas=np.ones(V.shape[0]))
            A, _ = raise_log_weights(
                betas, init_state=state, transition=transition, log_f_pair=log_f_pair, log_z_base=log_z0
            )
            log_p = -rbm.free_energy_v(V) - A
        p.append(np.exp(log_p).reshape(-1, copies))
    p = np.concatenate(p, axis=1)
    total = p.mean(axis=1).sum()
    se = np.sqrt(np.sum(p.var(axis=1, ddof=1) / p.shape[1]))
    return total, se, (total - 1.0) / se


@pytest.mark.parametrize("K", [2, 5])
def test_raise_reverses_the_kernel_its_weights_assume(K):
    """Burda et al. (2015): p^(v) is unbiased for the forward annealing law of v, a normalised distribution.

    By enumeration of the 16 visible states of a 4x3 RBM, sum_v E[p^(v)] = 1 within
    Monte Carlo error (40000 runs per v), at K = 2 and K = 5 steps. The reverse chain
    with v | h first (the joint-state reversal, wrong for weights that sum h out) misses
    1 by about 0.08, over 10 standard errors: the check can fail.
    """
    rbm = random_rbm(4, 3, 1.0, 3)
    total, se, z = _raise_p_hat_sum(rbm, K)
    assert abs(z) < Z_MAX and se < 0.01, (total, se)
    old_total, old_se, old_z = _raise_p_hat_sum(rbm, K, transition=_visible_first)
    assert old_z < -10 and old_se < 0.01, (old_total, old_se)


def test_raise_estimate_combines_runs_per_point():
    A = np.array([1.0, 3.0, 2.0, 2.0])
    res = raise_estimate(A, point_index=np.array([0, 0, 1, 1]))
    per0 = -np.log(np.mean(np.exp(-np.array([1.0, 3.0]))))
    assert res.estimate == pytest.approx((per0 + 2.0) / 2)


def test_ais_float32_and_threads_agree():
    rbm = random_rbm(10, 6, 1.0, 8)
    b = linear_betas(200)
    r64 = ais_log_partition(rbm, 20, b, ChainStreams.from_seed(1, n_chains=20))
    r64b = ais_log_partition(rbm, 20, b, ChainStreams.from_seed(1, n_chains=20), n_threads=2)
    np.testing.assert_array_equal(r64.log_weights, r64b.log_weights)
    r32 = ais_log_partition(rbm, 20, b, ChainStreams.from_seed(1, n_chains=20), dtype=np.float32)
    assert abs(r32.estimate - r64.estimate) < 0.05


def test_bad_input_is_rejected():
    rbm = random_rbm(10, 6, 1.0, 9)
    with pytest.raises(ValueError):
        ais_log_partition(rbm, 5, np.array([0.0, 0.6, 0.5, 1.0]), ChainStreams.from_seed(1, n_chains=5))
    with pytest.raises(ValueError):
        ais_log_partition(rbm, 5, linear_betas(5), ChainStreams.from_seed(1, n_chains=4))
    with pytest.raises(ValueError):
        rbm_annealing_model(rbm, np.zeros(3))


def test_partial_weights_estimate_every_intermediate_log_z():
    """AIS partial weights estimate log Z_k along the ladder (the RTS starting values of the Fig. 3 runs)."""
    rbm = random_rbm(10, 6, 2.0, 10)
    a = np.random.default_rng(3).normal(0, 0.5, 10)
    betas = linear_betas(300)
    run = ais_log_partition(rbm, 200, betas, ChainStreams.from_seed(13, n_chains=200), a, record_partial=True)
    assert run.partial_log_z.shape == betas.shape
    assert run.partial_log_z[-1] == pytest.approx(run.estimate)
    for j in (0, 100, 200):
        assert abs(run.partial_log_z[j] - exact.log_partition(rbm, betas[j], a)) < 4 * max(run.stderr, 1e-3)


def test_ais_records_the_spread_of_every_step():
    rbm = random_rbm(10, 6, 2.0, 11)
    betas = linear_betas(50)
    run = ais_log_partition(rbm, 40, betas, ChainStreams.from_seed(14, n_chains=40), record_partial=True)
    np.testing.assert_array_equal(run.betas, betas)
    assert run.step_sd.shape == (49,)
    # record_partial keeps the running sums, so the increments (and their spread) can be recomputed from them
    rerun = ais_log_partition(rbm, 40, betas, ChainStreams.from_seed(14, n_chains=40))
    np.testing.assert_allclose(rerun.step_sd, run.step_sd, rtol=1e-12)
    assert np.all(run.step_sd > 0)


def test_adaptive_betas_places_betas_by_thermodynamic_length():
    pilot = linear_betas(11)
    # equal spread on an even pilot: the linear ladder again
    np.testing.assert_allclose(adaptive_betas(pilot, np.ones(10), 101), linear_betas(101), atol=1e-12)
    # all the spread in [0.5, 0.6]: a fraction (1 - mix) + mix * 0.1 of the steps goes there, evenly inside
    sd = np.zeros(10)
    sd[5] = 3.0
    b = adaptive_betas(pilot, sd, 1001, uniform_mix=0.1)
    assert b[0] == 0.0 and b[-1] == 1.0 and np.all(np.diff(b) > 0)
    inside = np.diff(b)[(b[:-1] >= 0.5) & (b[1:] <= 0.6 + 1e-12)]
    assert inside.size == pytest.approx(0.91 * 1000, abs=2)
    np.testing.assert_allclose(inside, inside[0], rtol=1e-9)
    # on an uneven pilot the spread is per step, not per unit beta: equal sd per step keeps the pilot's spacing
    pw = piecewise_betas(101)
    np.testing.assert_allclose(adaptive_betas(pw, np.ones(100), 101, uniform_mix=1e-9), pw, atol=1e-9)
    for bad in (
        dict(step_sd=np.ones(9)),
        dict(step_sd=-np.ones(10)),
        dict(step_sd=np.full(10, np.nan)),
        dict(step_sd=np.ones(10), uniform_mix=0.0),
        dict(step_sd=np.ones(10), n_betas=1),
    ):
        kw = {"n_betas": 20, **bad}
        with pytest.raises(ValueError):
            adaptive_betas(pilot, **kw)


def _two_level_family():
    """f_beta(x) = exp(beta g(x)) on 200 states: 195 near g = 0, 5 near g = 20, so the mass jumps near beta = 0.18.

    Transitions draw exactly from p_beta (perfect transitions), so the step
    increments are independent and Var(log w) = sum_k (beta_k - beta_{k-1})^2
    Var_{beta_{k-1}}[g] exactly.
    """
    r = np.random.default_rng(3)
    g = np.concatenate([r.normal(0, 0.5, 195), r.normal(20, 0.5, 5)])

    def exact_var(betas):
        p = [_boltzmann(g, beta) for beta in betas[:-1]]  # p_beta at every beta but the last
        return sum(
            (betas[k] - betas[k - 1]) ** 2 * (p[k - 1] @ g**2 - (p[k - 1] @ g) ** 2) for k in range(1, betas.size)
        )

    def run(betas, seed):
        return _perfect_transition_ais(g, betas, 2000, np.random.default_rng(seed))

    return np.logaddexp.reduce(g), exact_var, run


def test_fixed_ladders_are_monotone_with_both_endpoints():
    for schedule in ("linear", "piecewise"):
        for n in (4, 101, 2000):
            b = fixed_betas(schedule, n)
            assert b.size == n and b[0] == 0.0 and b[-1] == 1.0 and np.all(np.diff(b) > 0)
    np.testing.assert_array_equal(fixed_betas("linear", 11), linear_betas(11))
    np.testing.assert_array_equal(fixed_betas("piecewise", 101), piecewise_betas(101))
    with pytest.raises(ValueError, match="linear, piecewise"):
        fixed_betas("adaptive", 10)


def test_a_linear_pilot_resolves_a_sharp_transition_the_piecewise_pilot_smears():
    """The two-level family's mass jumps near beta = 0.18, where the piecewise ladder is coarsest (3.4% of its
    betas on [0, 0.5]). An adaptive ladder built from a linear pilot of the same length keeps steps short across
    the jump: its Var(log w) (exact, perfect transitions) is below that of the ladder from the piecewise pilot,
    which spreads the jump's length evenly over one coarse pilot interval (measured: 0.045 against 0.085; the
    linear ladder of 200 betas 0.099, the piecewise one 1.42). Both ladders are monotone with the endpoints."""
    _, exact_var, run = _two_level_family()
    ladders = {}
    for pilot in ("linear", "piecewise"):
        p = run(fixed_betas(pilot, 60), 1)
        ladders[pilot] = b = adaptive_betas(p.betas, p.step_sd, 200)
        assert b[0] == 0.0 and b[-1] == 1.0 and np.all(np.diff(b) > 0)
    v_lin, v_pw = exact_var(ladders["linear"]), exact_var(ladders["piecewise"])
    assert v_lin < 0.6 * v_pw, (v_lin, v_pw)


def test_adaptive_ladder_lowers_the_log_weight_variance_and_stays_unbiased():
    """With perfect transitions the constant-speed ladder minimises Var(log w) (cf. Gelman & Meng 1998):
    built from an independent pilot, it about halves the linear ladder's variance at the same length
    (exact computation), the runs show the variance the formula predicts, and log Z stays consistent."""
    exact_lz, exact_var, run = _two_level_family()
    pilot = run(linear_betas(101), 1)
    lin = linear_betas(41)
    ladder = adaptive_betas(pilot.betas, pilot.step_sd, 41)
    assert exact_var(ladder) < 0.6 * exact_var(lin), (exact_var(ladder), exact_var(lin))
    for betas in (lin, ladder):
        r = run(betas, 2)
        # the sample variance of 2000 near-Gaussian log weights has a relative s.d. of about 3%
        assert np.var(r.log_weights, ddof=1) == pytest.approx(exact_var(betas), rel=0.15)
        assert abs(r.estimate - exact_lz) < Z_MAX * r.stderr, (r.estimate, exact_lz, r.stderr)
