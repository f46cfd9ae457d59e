"""Gibbs, flip-the-state and blend operators: exact stationarity, compiled
kernels against the exact transition rows, thread independence, float32."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from scipy.special import expit

from bmrep.models.exact import all_states, state_index
from bmrep.models.rbm import RBM
from bmrep.sampling import Blend, ChainStreams, FlipTheState, Gibbs, operator_from_name
from bmrep.sampling.transition_matrix import (
    slem,
    stationary_check,
    sweep_transition_matrix,
)
from support.testsystems import random_rbm

OPERATORS = [Gibbs(), FlipTheState(), Blend(0.3)]
CHI2_LEVEL = 0.999  # one fixed seed per test; the quantile is fixed in advance


def chi_square(counts, probs):
    """Pearson statistic and degrees of freedom, pooling cells with expected count < 5."""
    expected = probs * counts.sum()
    keep = expected >= 5
    stat = np.sum((counts[keep] - expected[keep]) ** 2 / expected[keep])
    dof = keep.sum() - 1
    if (~keep).any():
        e = expected[~keep].sum()
        if e > 0:
            stat += (counts[~keep].sum() - e) ** 2 / e
            dof += 1
        else:
            assert counts[~keep].sum() == 0, "a transition of probability zero occurred"
    return stat, dof


# ------------------------------------------------------------------ exact ---
def test_flip_probabilities_follow_definition_1():
    """Brügge et al. (2013) Def. 1: less probable -> more probable with prob. 1,
    the reverse with p(other)/p(current), ties 1/2."""
    T, G = FlipTheState(), Gibbs()
    p_on = np.array([0.8, 0.8, 0.5, 0.5, 0.1, 0.1])
    state = np.array([0, 1, 0, 1, 0, 1])
    np.testing.assert_allclose(T.flip_probabilities(state, p_on), [1.0, 0.25, 0.5, 0.5, 1 / 9, 1.0])
    np.testing.assert_allclose(G.flip_probabilities(state, p_on), [0.8, 0.2, 0.5, 0.5, 0.1, 0.9])
    np.testing.assert_allclose(
        Blend(0.3).flip_probabilities(state, p_on),
        0.3 * T.flip_probabilities(state, p_on) + 0.7 * G.flip_probabilities(state, p_on),
    )
    # the activation function of sec. 3.1: min(e^x, 1) from 0, stays on w.p. max(1 - e^-x, 0)
    x = np.array([-3.0, -0.2, 0.4, 2.0])
    np.testing.assert_allclose(T.flip_probabilities(np.zeros(4), expit(x)), np.minimum(np.exp(x), 1), rtol=1e-12)
    np.testing.assert_allclose(
        1 - T.flip_probabilities(np.ones(4), expit(x)), np.maximum(1 - np.exp(-x), 0), rtol=1e-12, atol=1e-15
    )


@pytest.mark.parametrize("n,m", [(2, 2), (3, 3)])
@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: repr(o))
def test_exact_sweep_is_stationary(n, m, op):
    for seed in range(5):
        r = random_rbm(n, m, 5.0, seed, weights="uniform")
        P = sweep_transition_matrix(r, op)
        np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-13)
        assert P.min() >= 0
        assert stationary_check(r, P) < 1e-12
        a = np.random.default_rng(100 + seed).normal(size=n)
        for beta in (0.0, 0.3, 0.85):
            Pb = sweep_transition_matrix(r, op, beta=beta, base_bias=a)
            assert stationary_check(r, Pb, beta=beta, base_bias=a) < 1e-12


def test_stationarity_check_is_not_vacuous():
    r = random_rbm(2, 2, 5.0, 0, weights="uniform")
    P = sweep_transition_matrix(r, Gibbs())
    a = np.array([1.0, -1.0])
    # the beta = 1 chain is not stationary for the beta = 0.5 distribution
    assert stationary_check(r, P, beta=0.5, base_bias=a) > 1e-3

    # without the 1/2 tie rule of Def. 1 (flip with min(1, ratio) = 1) the chain
    # of a zero-weight RBM is periodic (SLEM 1); with it, T is ergodic
    class NoTieRule(FlipTheState):
        def flip_probabilities(self, state, p_on):
            q = super().flip_probabilities(state, p_on)
            return np.where(np.asarray(p_on) == 0.5, 1.0, q)

    z = RBM(np.zeros((2, 2)), np.zeros(2), np.zeros(2))
    assert slem(sweep_transition_matrix(z, NoTieRule())) > 1 - 1e-12
    assert slem(sweep_transition_matrix(z, FlipTheState())) < 1 - 1e-9
    assert slem(sweep_transition_matrix(z, Gibbs())) < 1e-12  # independent units: one step


def test_weights_of_magnitude_50_give_valid_matrices():
    r = random_rbm(2, 3, 50.0, 3, weights="uniform")
    for op in OPERATORS:
        P = sweep_transition_matrix(r, op)
        assert np.all(np.isfinite(P))
        assert stationary_check(r, P) < 1e-12


# --------------------------------------------------------------- compiled ---
def empirical_rows(rbm, op, n_per_state, dtype, seed, beta=None, a=None, n_threads=1, chains_per_state=50):
    """Counts of the state after one sweep from every joint state (rows: start state).

    ``chains_per_state`` chains start from each state; they are reset to it
    and swept again until ``n_per_state`` transitions per state are counted.
    """
    n, m = rbm.n_visible, rbm.n_hidden
    S = all_states(n + m).astype(dtype)
    starts = np.repeat(np.arange(len(S)), chains_per_state)
    streams = ChainStreams.from_seed(seed, "test_operators", n_chains=len(starts))
    betas = None if beta is None else np.full(len(starts), beta)
    counts = np.zeros((len(S), len(S)))
    for _ in range(n_per_state // chains_per_state):
        v = np.ascontiguousarray(S[starts, :n])
        h = np.ascontiguousarray(S[starts, n:])
        op.sweep(rbm, v, h, streams, betas=betas, base_bias=a, n_threads=n_threads)
        end = state_index(np.hstack([v, h]).astype(np.uint8))
        np.add.at(counts, (starts, end), 1)
    return counts


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: repr(o))
@pytest.mark.parametrize("tempered", [False, True])
def test_kernel_transitions_match_exact_rows(op, dtype, tempered):
    r = random_rbm(2, 2, 3.0, 21, weights="uniform")
    beta, a = (0.6, np.array([0.5, -1.5])) if tempered else (None, None)
    counts = empirical_rows(r, op, 4000, dtype, seed=5, beta=beta, a=a)
    P = sweep_transition_matrix(r, op, beta=1.0 if beta is None else beta, base_bias=a)
    total, dof = 0.0, 0
    for s in range(len(P)):
        c, d = chi_square(counts[s], P[s])
        total, dof = total + c, dof + d
    assert total < stats.chi2.ppf(CHI2_LEVEL, dof), (total, dof)


def test_chi_square_detects_the_wrong_operator():
    """Power check: T's samples are rejected against G's exact rows."""
    r = random_rbm(2, 2, 3.0, 21, weights="uniform")
    counts = empirical_rows(r, FlipTheState(), 4000, np.float64, seed=5)
    P = sweep_transition_matrix(r, Gibbs())
    total, dof = 0.0, 0
    for s in range(len(P)):
        expected = P[s] * counts[s].sum()
        keep = expected >= 5
        total += np.sum((counts[s][keep] - expected[keep]) ** 2 / expected[keep])
        dof += keep.sum() - 1
    assert total > stats.chi2.ppf(CHI2_LEVEL, dof)


@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: repr(o))
def test_update_layer_matches_flip_probabilities(op):
    """The compiled primitive, with a tempered field, against the numpy flip probabilities."""
    rng = np.random.default_rng(3)
    n_chains, n_units = 20000, 4
    field = np.tile(rng.normal(0, 2, n_units), (n_chains, 1))
    field[:, 3] = 0.0  # the tie case of Def. 1
    base = rng.normal(size=n_units)
    beta = 0.7
    state = np.tile(np.array([0.0, 1.0, 0.0, 1.0]), (n_chains, 1))
    start = state.copy()
    streams = ChainStreams.from_seed(9, "update_layer", n_chains=n_chains)
    op.update_layer(state, field, streams, betas=np.full(n_chains, beta), base_field=base)
    p_on = expit(beta * field[0] + (1 - beta) * base)
    q = op.flip_probabilities(start[0], p_on)
    flips = (state != start).sum(axis=0)
    z = (flips - n_chains * q) / np.sqrt(n_chains * q * (1 - q) + 1e-300)
    z = np.where(q * (1 - q) == 0, np.where(flips == n_chains * q, 0.0, np.inf), z)
    assert np.all(np.abs(z) < 4.0), (flips / n_chains, q)


@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: repr(o))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_identical_for_one_and_two_threads(op, dtype):
    r = random_rbm(20, 15, 1.0, 4, weights="uniform").astype(dtype)
    out = []
    for n_threads in (1, 2):
        streams = ChainStreams.from_seed(1, "threads", n_chains=37)
        v = np.zeros((37, 20), dtype)
        h = np.zeros((37, 15), dtype)
        betas = np.linspace(0.1, 1.0, 37)
        op.sweep(r, v, h, streams, betas=betas, base_bias=np.ones(20), n_sweeps=10, n_threads=n_threads)
        out.append((v, h))
    assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])
    assert 0 < out[0][0].mean() < 1


@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: repr(o))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sweep_from_a_given_hidden_field_is_the_same_sweep(op, dtype):
    """AIS hands the sweep the ``c + v W`` it computed for its weights: same states to the bit,
    and ``visible_product`` is the last sweep's ``h W^T``."""
    r = random_rbm(30, 12, 1.0, 6, weights="uniform").astype(dtype)
    betas = np.linspace(0.0, 1.0, 9)
    base = np.linspace(-1.0, 1.0, 30)
    runs = []
    for given in (False, True):
        streams = ChainStreams.from_seed(4, "field", n_chains=9)
        v = streams.bernoulli(0.5, 30, dtype)
        h = np.zeros((9, 12), dtype)
        product = np.full((9, 30), np.nan, dtype)
        field = r.c + v @ r.W if given else None
        op.sweep(r, v, h, streams, betas=betas, base_bias=base, n_sweeps=3, hidden_field=field, visible_product=product)
        runs.append((v, h, product))
    (v0, h0, p0), (v1, h1, p1) = runs
    assert np.array_equal(v0, v1) and np.array_equal(h0, h1) and np.array_equal(p0, p1)
    np.testing.assert_allclose(p1, h1 @ r.W.T, rtol=1e-5 if dtype == np.float32 else 1e-12)
    assert 0 < v1.mean() < 1 and 0 < h1.mean() < 1
    # the given field is the one used: a shifted one moves the hidden units
    streams = ChainStreams.from_seed(4, "field", n_chains=9)
    v2 = streams.bernoulli(0.5, 30, dtype)
    h2 = np.zeros((9, 12), dtype)
    op.sweep(r, v2, h2, streams, betas=betas, base_bias=base, hidden_field=r.c + v2 @ r.W + 6)
    assert h2.mean() > h1.mean() + 0.2
    with pytest.raises(ValueError, match="hidden_field"):
        op.sweep(r, v, h, streams, hidden_field=np.zeros((9, 11), dtype))


@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: repr(o))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_untempered_rows_take_the_short_expression_with_the_same_bits(op, dtype):
    """Without betas and base the kernel computes x = field + bias; with betas = 1 and a zero base
    array it takes the general x = beta (field + bias) + (1 - beta) base: the same states to the bit."""
    r = random_rbm(30, 12, 2.0, 9, weights="uniform").astype(dtype)
    r.W[:, 0] = 0.0  # a unit whose log-odds is its bias alone
    r.c[0] = 0.0  # ... and 0: probability exactly 1/2
    runs = []
    for general in (False, True):
        streams = ChainStreams.from_seed(5, "short", n_chains=9)
        v = streams.bernoulli(0.5, 30, dtype)
        h = np.zeros((9, 12), dtype)
        kw = dict(betas=np.ones(9, dtype), base_bias=np.zeros(30, dtype)) if general else {}
        op.sweep(r, v, h, streams, n_sweeps=20, **kw)
        runs.append((v, h))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert 0 < runs[0][0].mean() < 1 and 0 < runs[0][1][:, 0].mean() < 1


def test_chain_depends_only_on_its_own_stream():
    r = random_rbm(6, 5, 1.0, 8, weights="uniform")
    streams = ChainStreams.from_seed(2, "own", n_chains=10)
    v = np.zeros((10, 6))
    h = np.zeros((10, 5))
    Gibbs().sweep(r, v, h, streams, n_sweeps=5)
    sub = ChainStreams.from_seed(2, "own", n_chains=10).subset([3, 7])
    v2 = np.zeros((2, 6))
    h2 = np.zeros((2, 5))
    Gibbs().sweep(r, v2, h2, sub, n_sweeps=5)
    assert np.array_equal(v2, v[[3, 7]]) and np.array_equal(h2, h[[3, 7]])


@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: repr(o))
def test_float32_and_large_weights_keep_binary_states(op):
    r = random_rbm(8, 6, 60.0, 5, weights="uniform")
    for dtype in (np.float32, np.float64):
        streams = ChainStreams.from_seed(3, "big", n_chains=16)
        v = streams.bernoulli(0.5, 8, dtype)
        h = np.zeros((16, 6), dtype)
        op.sweep(r, v, h, streams, n_sweeps=20)
        assert v.dtype == dtype and set(np.unique(v)) <= {0.0, 1.0} and set(np.unique(h)) <= {0.0, 1.0}


def test_bad_input_raises():
    r = random_rbm(3, 2, 1.0, 0, weights="uniform")
    streams = ChainStreams.from_seed(0, "bad", n_chains=4)
    v, h = np.zeros((4, 3)), np.zeros((4, 2))
    with pytest.raises(ValueError, match="streams"):
        Gibbs().sweep(r, v, h, ChainStreams.from_seed(0, "bad", n_chains=3))
    with pytest.raises(ValueError, match="betas"):
        Gibbs().sweep(r, v, h, streams, betas=np.full(4, 1.5))
    with pytest.raises(TypeError):
        Gibbs().sweep(r, v.astype(np.int64), h, streams)
    with pytest.raises(ValueError, match=r"v must have shape \(4, 3\)"):
        Gibbs().sweep(r, np.zeros((4, 2)), h, streams)
    with pytest.raises(ValueError, match=r"h must have shape \(4, 2\)"):
        Gibbs().sweep(r, v, np.zeros((5, 2)), streams)
    with pytest.raises(ValueError, match="n_sweeps"):
        Gibbs().sweep(r, v, h, streams, n_sweeps=-1)
    with pytest.raises(ValueError, match="writeable"):
        v_ro = np.zeros((4, 3))
        v_ro.flags.writeable = False
        Gibbs().sweep(r, v_ro, h, streams)
    with pytest.raises(ValueError, match="C-contiguous"):
        Gibbs().sweep(r, np.zeros((3, 4)).T, h, streams)
    with pytest.raises(ValueError, match="alpha"):
        Blend(1.5)
    assert operator_from_name("T") == FlipTheState() and operator_from_name("blend:0.25") == Blend(0.25)
    with pytest.raises(ValueError, match="unknown operator"):
        operator_from_name("metropolis")


def test_kernel_exp_is_accurate_and_safe():
    """The kernels' branch-free exp of x <= 0 against libm (relative error ~1 ulp)."""
    from bmrep.sampling import _kernels

    x = -np.concatenate([np.linspace(0, 2, 20001), np.linspace(2, 708, 20001), [709.0, 1e4, np.inf]])
    out = np.empty_like(x)
    _kernels.exp_nonpositive(x, out)
    ok = x >= -708
    np.testing.assert_allclose(out[ok], np.exp(x[ok]), rtol=5e-16, atol=0)
    assert np.all(out[~ok] == 0.0)  # below the smallest normal scale: 0 (probabilities < 1e-307)
    assert out[0] == 1.0
    xf = x.astype(np.float32)
    outf = np.empty_like(xf)
    _kernels.exp_nonpositive(xf, outf)
    okf = xf >= -87
    np.testing.assert_allclose(outf[okf], np.exp(xf[okf].astype(np.float64)), rtol=3e-7, atol=0)
    assert np.all(outf[~okf] == 0.0) and outf[0] == 1.0


def test_update_layer_without_betas_is_plain_gibbs_statistics():
    field = np.tile(np.array([-2.0, 0.0, 3.0]), (30000, 1))
    state = np.zeros_like(field)
    Gibbs().update_layer(state, field, ChainStreams.from_seed(4, "plain", n_chains=30000))
    p = expit(field[0])
    z = (state.mean(0) - p) / np.sqrt(p * (1 - p) / 30000)
    assert np.all(np.abs(z) < 4.0), z


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_row_uniforms_give_independent_units_rows_and_chains(dtype):
    """Each row's uniforms come from one 64-bit draw of the chain's stream (SplitMix64 outputs;
    float32 units j and m + j share one output's halves): per-unit frequencies and every pair of
    units -- within a row, the shared halves, successive rows, and neighbouring chains -- behave as
    independent Bernoulli draws (z-scores, 200 chains x 150 rows)."""
    n, n_chains, n_rows = 7, 200, 150  # odd n: the last float32 unit has no partner half
    p = np.linspace(0.2, 0.8, n)
    field = np.tile(np.log(p / (1 - p)), (n_chains, 1)).astype(dtype)
    streams = ChainStreams.from_seed(6, "uniforms", n_chains=n_chains)
    state = np.zeros((n_chains, n), dtype)
    rows = np.empty((n_rows, n_chains, n))
    for t in range(n_rows):
        Gibbs().update_layer(state, field, streams)
        rows[t] = state
    x = rows - p  # centred draws, Var = p (1 - p)
    sd = np.sqrt(p * (1 - p))
    m = rows.shape[0] * rows.shape[1]
    z_freq = x.reshape(m, n).mean(0) / (sd / np.sqrt(m))
    assert np.all(np.abs(z_freq) < 4.5), z_freq

    def z_corr(a, b, sa, sb):  # z of the mean product of two independent centred variables
        prod = (a * b).reshape(-1)
        return prod.mean() / (sa * sb / np.sqrt(prod.size))

    zs = [z_corr(x[..., i], x[..., j], sd[i], sd[j]) for i in range(n) for j in range(i + 1, n)]
    zs += [z_corr(x[1:, :, i], x[:-1, :, i], sd[i], sd[i]) for i in range(n)]  # successive rows
    zs += [z_corr(x[:, 1:, i], x[:, :-1, i], sd[i], sd[i]) for i in range(n)]  # neighbouring chains
    assert np.all(np.abs(zs) < 4.5), np.round(zs, 2)
    # and the test is not blind: a copied unit is caught
    assert abs(z_corr(x[..., 0], x[..., 0], sd[0], sd[0])) > 20
