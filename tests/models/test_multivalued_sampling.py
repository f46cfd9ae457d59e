"""Conditional sampling of h (eq. 9, inverse CDF of section 2) and CD-k.

Fixed seeds; every statistical check uses an explicit z-score or a
chi-square / Kolmogorov quantile at a 1e-6 level, so it is neither flaky nor
vacuous (the sample sizes resolve the means to ~1e-3).
"""

import math

import numpy as np
import pytest
from scipy import stats
from scipy.special import logsumexp

from bmrep.models import multivalued as mv
from bmrep.models.exact import multivalued as mv_exact
from bmrep.seeds import rng

Z_MAX = 5.0  # two-sided p ~ 6e-7
ALPHA = 1e-6
LAMBDAS = [0.0, 1e-12, 1e-6, 0.3, -2.5, 30.0, -700.0]
N = 100_000


def level_probs(lam, s):
    h = mv.hidden_levels(s)
    lw = lam * h
    return h, np.exp(lw - logsumexp(lw))


@pytest.mark.parametrize("s", [1, 2, 3, 8])
@pytest.mark.parametrize("lam", LAMBDAS)
def test_discrete_hidden_sample_is_the_categorical_of_eq9(s, lam):
    h_levels, p = level_probs(lam, s)
    h = mv.sample_hidden(np.full((N, 1), lam), s, rng(1, "test", "discrete", s, str(lam)))
    k = np.rint((h[:, 0] * s + s) / 2).astype(int)
    assert np.allclose(h[:, 0], h_levels[k], atol=0)  # only values of X(s)
    counts = np.bincount(k, minlength=s + 1)
    support = p * N > 5
    # levels of (numerically) zero probability are never drawn
    assert counts[p < 1e-12].sum() == 0
    if support.sum() >= 2:
        expected = p[support] / p[support].sum() * counts[support].sum()
        chi2 = ((counts[support] - expected) ** 2 / expected).sum()
        assert chi2 < stats.chi2.ppf(1 - ALPHA, support.sum() - 1)
    mean, var = (p * h_levels).sum(), (p * h_levels**2).sum() - (p * h_levels).sum() ** 2
    if var > 0:
        z = (h.mean() - mean) / math.sqrt(var / N)
        assert abs(z) < Z_MAX
        assert h.mean() == pytest.approx(mv.psi(np.array([lam]), s)[0], abs=Z_MAX * math.sqrt(var / N))


def exact_cdf_inf(x, lam):
    """CDF of p(h) ∝ exp(lam h) on [-1, 1], written without overflow."""
    if lam == 0.0:
        return (x + 1) / 2
    a = abs(lam)
    y = x if lam > 0 else -x
    f = (
        np.expm1(a * (y + 1)) / np.expm1(2 * a)
        if a < 1
        else np.exp(a * (y - 1)) * -np.expm1(-a * (y + 1)) / -np.expm1(-2 * a)
    )
    return f if lam > 0 else 1 - f


def exact_var_inf(lam):
    a = abs(lam)
    if a < 1e-3:
        return 1 / 3 - a**2 / 15
    return 1 / a**2 - 1 / math.sinh(a) ** 2 if a < 300 else 1 / a**2


@pytest.mark.parametrize("lam", LAMBDAS)
def test_continuous_hidden_sample_inverse_cdf(lam):
    h = mv.sample_hidden(np.full((N, 1), lam), math.inf, rng(1, "test", "continuous", str(lam)))[:, 0]
    assert h.min() >= -1 and h.max() <= 1
    mean, var = mv.psi(np.array([lam]), math.inf)[0], exact_var_inf(lam)
    z = (h.mean() - mean) / math.sqrt(var / N)
    assert abs(z) < Z_MAX
    d = stats.kstest(h, lambda x: exact_cdf_inf(np.asarray(x), lam))
    assert d.pvalue > ALPHA
    # variance within its sampling error: Var(s^2) <= E[(h-m)^4]/N <= var * 4 / N (|h - m| <= 2)
    assert abs(h.var() - var) < Z_MAX * math.sqrt(4.0 * var / N) + 1e-12


def test_sampler_is_deterministic_and_row_independent():
    lam = np.random.default_rng(0).normal(0, 3, (300, 7))
    for s in (2, math.inf):
        a = mv.sample_hidden(lam, s, rng(3, "det"))
        b = mv.sample_hidden(lam, s, rng(3, "det"))
        assert np.array_equal(a, b)


def test_sample_visible_probability():
    xi = np.full((N, 1), 0.4)
    v = mv.sample_visible(xi, rng(1, "vis"))
    p = 1 / (1 + math.exp(-0.8))
    z = ((v == 1).mean() - p) / math.sqrt(p * (1 - p) / N)
    assert abs(z) < Z_MAX and set(np.unique(v)) == {-1.0, 1.0}


def test_exact_sampling_of_the_marginal_chi_square():
    g = rng(1, "test", "exact")
    p = mv.random_rbm(4, 3, g)
    p["W"] *= 3
    x = mv_exact.sample_exact(p, 2, N, g)
    counts = np.bincount(mv_exact.state_index(x), minlength=16)
    expected = np.exp(mv_exact.log_marginal(p, 2)) * N
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < stats.chi2.ppf(1 - ALPHA, 15)


@pytest.mark.parametrize("s", [2, math.inf])
def test_cd1_gradient_has_the_exact_cd1_expectation(s):
    """Mean of the CD-1 statistic over many chains vs its expectation by enumeration.

    For s = 2 the expectation sums over h in X(2)^m; for s = inf it is
    computed on a fine quadrature grid of h (midpoint rule, 400 points per unit).
    """
    g = np.random.default_rng(4)
    n, m = 2, 1
    p = {"b": g.normal(0, 0.5, n), "c": g.normal(0, 0.5, m), "W": g.normal(0, 1.0, (n, m))}
    v0 = mv_exact.all_visible_states(n)
    reps = 20_000
    data = np.repeat(v0, reps, axis=0)
    est = mv.cd_gradient(p, data, s, 1, rng(2, "cd1", str(s)))
    # exact: for each v0, h ~ P(h|v0); v1 ~ P(v1|h); statistics of v1
    if math.isinf(s):
        hs = (np.arange(400) + 0.5) / 200 - 1
    else:
        hs = mv.hidden_levels(s)
    vs = mv_exact.all_visible_states(n)
    ph_v1 = mv.psi(mv.hidden_field(p, vs), s)  # (4, 1)
    stat_v, stat_c, stat_w = [], [], []
    for v in v0:
        lam = float(p["c"][0] + v @ p["W"][:, 0])
        lw = lam * hs
        ph = np.exp(lw - logsumexp(lw))
        xi = p["b"][None, :] + np.outer(hs, p["W"][:, 0])  # (H, n)
        lp_v1 = (vs[None, :, :] * xi[:, None, :]).sum(-1) - np.logaddexp(xi, -xi).sum(-1)[:, None]  # (H, 4)
        pv1 = ph @ np.exp(lp_v1)  # (4,)
        stat_v.append(pv1 @ vs)
        stat_c.append(pv1 @ ph_v1)
        stat_w.append((vs * pv1[:, None]).T @ ph_v1)
    ph0 = mv.psi(mv.hidden_field(p, v0), s)
    expected = {
        "b": v0.mean(0) - np.mean(stat_v, 0),
        "c": ph0.mean(0) - np.mean(stat_c, 0),
        "W": v0.T @ ph0 / len(v0) - np.mean(stat_w, 0),
    }
    # each statistic is an average of N terms bounded by 1 in magnitude: sd <= 1/sqrt(N)
    tol = Z_MAX / math.sqrt(len(data))
    for k in expected:
        assert np.all(np.abs(est[k] - expected[k]) < tol), (k, est[k], expected[k])
    assert any(np.abs(expected[k]).max() > 5 * tol for k in expected)  # not vacuous


def test_batched_cd_matches_per_model_streams():
    g = np.random.default_rng(9)
    models = [mv.random_rbm(4, 3, g) for _ in range(3)]
    data = np.where(g.random((3, 10, 4)) < 0.5, 1.0, -1.0)
    batch = {k: np.stack([mm[k] for mm in models]) for k in models[0]}
    gb = mv.cd_gradient(batch, data, 2, 2, [rng(5, "m", i) for i in range(3)])
    for i, mm in enumerate(models):
        gi = mv.cd_gradient(mm, data[i], 2, 2, rng(5, "m", i))
        for k in gi:
            np.testing.assert_allclose(gb[k][i], gi[k], rtol=1e-13, atol=1e-15)
    with pytest.raises(ValueError):
        mv.cd_gradient(batch, data, 2, 1, [rng(5, "m", 0)])


def test_threaded_kernels_equal_serial_blocks():
    """Large inputs take the OpenMP path; results equal small (serial) blocks bit for bit."""
    lam = np.random.default_rng(1).normal(0, 4, (600, 500))
    for s in (3, math.inf):
        big = mv.sample_hidden(lam, s, rng(8, "thr"))
        g = rng(8, "thr")
        blocks = np.concatenate([mv.sample_hidden(lam[i : i + 100], s, g) for i in range(0, 600, 100)])
        assert np.array_equal(big, blocks)
        assert np.array_equal(
            mv.log_phi(lam, s), np.concatenate([mv.log_phi(lam[i : i + 7], s) for i in range(0, 600, 7)])
        )
