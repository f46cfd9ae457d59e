"""ln phi_s, psi_s and the exact marginal of the multivalued-hidden RBM.

Yokoyama, Katsumata & Yasuda (2019), eqs. (1)-(7) and (14). Ground truth:
brute-force sums over X(s) (finite s), numerical quadrature and numerical
differentiation (s = inf), and enumeration of the joint (v, h).
"""

import itertools
import math

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.special import logsumexp

from bmrep.models import multivalued as mv
from bmrep.models.exact import multivalued as mv_exact
from support.testsystems import random_multivalued

X_GRID = np.concatenate([[0.0], np.logspace(-8, math.log10(500.0), 61)])
X_GRID = np.concatenate([X_GRID, -X_GRID[1:]])
FINITE_S = [1, 2, 3, 4, 7, 16]


def brute_log_phi(x, s):
    h = mv.hidden_levels(s)
    return math.log(2.0 / (s + 1)) + logsumexp(np.outer(x, h), axis=1)


def brute_psi(x, s):
    h = mv.hidden_levels(s)
    logw = np.outer(x, h)
    w = np.exp(logw - logsumexp(logw, axis=1, keepdims=True))
    return w @ h


@pytest.mark.parametrize("s", FINITE_S)
def test_log_phi_matches_brute_force_sum(s):
    got = mv.log_phi(X_GRID, s)
    want = brute_log_phi(X_GRID, s)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("s", FINITE_S)
def test_psi_matches_brute_force_mean(s):
    got = mv.psi(X_GRID, s)
    want = brute_psi(X_GRID, s)
    np.testing.assert_allclose(got, want, rtol=1e-11, atol=1e-15)


def _log_int_exp(x):
    """ln of int_{-1}^{1} e^{xh} dh by quadrature, shifted so it never overflows."""
    a = abs(x)
    lo = max(-1.0, 1.0 - 60.0 / a) if a > 0 else -1.0
    val, _ = quad(lambda h: math.exp(a * (h - 1.0)), lo, 1.0, epsabs=0.0, epsrel=1e-13, limit=200)
    return a + math.log(val)


def _mean_h(x):
    a = abs(x)
    lo = max(-1.0, 1.0 - 60.0 / a) if a > 0 else -1.0
    num, _ = quad(lambda h: h * math.exp(a * (h - 1.0)), lo, 1.0, epsabs=0.0, epsrel=1e-13, limit=200)
    den, _ = quad(lambda h: math.exp(a * (h - 1.0)), lo, 1.0, epsabs=0.0, epsrel=1e-13, limit=200)
    return math.copysign(num / den, x)


def test_log_phi_inf_matches_quadrature():
    got = mv.log_phi(X_GRID, math.inf)
    want = np.array([_log_int_exp(x) for x in X_GRID])
    np.testing.assert_allclose(got, want, rtol=1e-11, atol=1e-13)


@pytest.mark.filterwarnings("ignore::scipy.integrate.IntegrationWarning")
def test_psi_inf_matches_quadrature_mean_and_numerical_derivative():
    got = mv.psi(X_GRID, math.inf)
    want = np.array([_mean_h(x) for x in X_GRID])
    np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    # central differences of ln phi_inf (eq. 14 is its derivative)
    x = X_GRID[np.abs(X_GRID) > 1e-3]
    step = 1e-5 * np.maximum(1.0, np.abs(x))
    fd = (mv.log_phi(x + step, math.inf) - mv.log_phi(x - step, math.inf)) / (2 * step)
    np.testing.assert_allclose(mv.psi(x, math.inf), fd, rtol=1e-7, atol=1e-9)


def test_large_s_approaches_s_inf():
    """phi_s is a Riemann sum of the integral (7): the error is O(|x| / s)."""
    x = np.array([1e-6, 0.3, 2.0, 40.0])
    s = 10**5
    for fn in (mv.log_phi, mv.psi):
        err = np.abs(fn(x, s) - fn(x, math.inf))
        assert np.all(err <= (1.0 + np.abs(x)) / s)


def test_log_phi_limits():
    assert np.allclose(mv.log_phi(np.array([0.0]), 3), math.log(2.0), atol=0, rtol=1e-15)
    # |x| large: ln phi_s(x) -> |x| + ln(2 / (s + 1)) + ln(1 / (1 - e^{-2x/s})) ~ |x| - ln((s+1)/2)
    for s in (1, 2, 4):
        assert mv.log_phi(np.array([1e6]), s)[0] == pytest.approx(1e6 + math.log(2.0 / (s + 1)), rel=1e-15)
    assert np.isfinite(mv.log_phi(np.array([1e300, -1e300]), math.inf)).all()


def test_s1_is_the_pm1_rbm():
    # densely around |x| = 0.1, where the kernels switch from the series to the closed forms
    x = np.concatenate([np.linspace(-30, 30, 101), np.linspace(-0.2, 0.2, 4001), [0.0, 1e-300, 800.0, -800.0]])
    np.testing.assert_allclose(mv.log_phi(x, 1), np.logaddexp(x, -x), rtol=1e-14)
    np.testing.assert_allclose(mv.psi(x, 1), np.tanh(x), rtol=1e-15, atol=1e-300)  # 4.5 ulp


@pytest.mark.parametrize("s", [1, 2, 3])
@pytest.mark.parametrize("scale", [0.5, 50.0])
def test_marginal_and_log_z_match_joint_enumeration(s, scale):
    """Eq. (5) and eq. (4), omega(s) included, against a sum over every (v, h)."""
    rng = np.random.default_rng(11)
    n, m = 3, 2
    p = random_multivalued(n, m, scale, rng)
    vs = mv_exact.all_visible_states(n)
    hs = np.array(list(itertools.product(mv.hidden_levels(s), repeat=m)))
    neg_energy = vs @ p["b"][:, None] + (hs @ p["c"])[None, :] + vs @ p["W"] @ hs.T  # (2^n, (s+1)^m)
    log_joint = neg_energy + m * math.log(2.0 / (s + 1))
    log_z = logsumexp(log_joint)
    assert mv_exact.log_partition(p, s) == pytest.approx(log_z, rel=1e-13, abs=1e-12)
    np.testing.assert_allclose(
        mv_exact.log_marginal(p, s), logsumexp(log_joint, axis=1) - log_z, rtol=1e-11, atol=1e-11
    )


def test_exact_gradient_matches_finite_differences():
    rng = np.random.default_rng(5)
    n, m = 4, 3
    data = np.where(rng.random((30, n)) < 0.6, 1.0, -1.0)
    for s in (1, 3, math.inf):
        p = random_multivalued(n, m, 0.7, rng)
        idx = mv_exact.state_index(data)

        def ll(q, s=s, idx=idx):  # bound now: the loop rebinds both
            return mv_exact.log_marginal(q, s)[idx].mean()

        g = mv_exact.exact_gradient(p, data, s)
        for key in p:
            fd = np.zeros_like(p[key])
            for i in np.ndindex(p[key].shape):
                up = {k: v.copy() for k, v in p.items()}
                dn = {k: v.copy() for k, v in p.items()}
                up[key][i] += 1e-6
                dn[key][i] -= 1e-6
                fd[i] = (ll(up) - ll(dn)) / 2e-6
            np.testing.assert_allclose(g[key], fd, rtol=1e-6, atol=1e-8)


def test_state_index_inverts_enumeration():
    vs = mv_exact.all_visible_states(5)
    assert np.array_equal(mv_exact.state_index(vs), np.arange(32))


def test_kl_per_unit_zero_for_equal_and_positive_otherwise():
    rng = np.random.default_rng(2)
    a, b = random_multivalued(4, 2, 1.0, rng), random_multivalued(4, 2, 1.0, rng)
    la, lb = mv_exact.log_marginal(a, 1), mv_exact.log_marginal(b, 2)
    assert mv.kl_per_unit(la, la) == pytest.approx(0.0, abs=1e-15)
    direct = float(np.sum(np.exp(la) * (la - lb)) / 4)
    assert mv.kl_per_unit(la, lb) == pytest.approx(direct, rel=1e-14) and direct > 0


def test_batched_model_axes_match_single_models():
    rng = np.random.default_rng(3)
    models = [random_multivalued(4, 3, 1.0, rng) for _ in range(3)]
    batch = {k: np.stack([mm[k] for mm in models]) for k in models[0]}
    for s in (2, math.inf):
        lz = mv_exact.log_partition(batch, s)
        for i, mm in enumerate(models):
            assert lz[i] == pytest.approx(mv_exact.log_partition(mm, s), rel=1e-14)


def test_check_s_rejects_bad_values():
    for bad in (0, -1, 1.5, -math.inf):
        with pytest.raises(ValueError):
            mv.check_s(bad)
    with pytest.raises(ValueError):
        mv.hidden_levels(math.inf)
