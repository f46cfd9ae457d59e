"""Thermodynamic integration variants (bmrep.estimators.ti)."""

import numpy as np
import pytest

from bmrep.estimators.rts import uniform_log_prior
from bmrep.estimators.ti import (
    binned_moments,
    integrate_riemann,
    integrate_trapezoid,
    integrate_trapezoid_corrected,
    rao_blackwell_moments,
    ti_log_z,
)


def test_quadrature_rules_on_polynomials():
    b = np.linspace(0, 1, 11)
    assert integrate_trapezoid(b, 2 * b + 1) == pytest.approx(2.0)
    assert integrate_riemann(b, np.ones_like(b)) == pytest.approx(1.0)
    # Friel et al. correction = Euler-Maclaurin: exact for cubics when v is the derivative of the mean
    assert integrate_trapezoid_corrected(b, b**3, 3 * b**2) == pytest.approx(0.25, abs=1e-12)
    assert abs(integrate_trapezoid(b, b**3) - 0.25) > 1e-3


def test_ti_with_exact_means_converges_in_K(tempered_system):
    g = tempered_system
    exact = g.log_z(1.0) - g.log_z(0.0)
    errs = {}
    for K in (10, 40, 160):
        b = np.linspace(0, 1, K)
        m = np.array([g.mean_delta(x) for x in b])
        errs[K] = abs(integrate_trapezoid(b, m) - exact)
    assert errs[40] < errs[10] / 8 and errs[160] < errs[40] / 8, errs  # O(1/K^2)


def test_binned_moments_interpolate_empty_bins():
    b = np.linspace(0, 1, 5)
    delta = np.array([1.0, 3.0, 5.0, 5.0, 9.0])
    k = np.array([0, 0, 2, 2, 4])
    mean, var, n = binned_moments(delta, k, b)
    np.testing.assert_allclose(mean, [2.0, 3.5, 5.0, 7.0, 9.0])
    np.testing.assert_array_equal(n, [2, 0, 2, 0, 1])


def test_rao_blackwell_moments_are_weighted_means():
    delta = np.array([1.0, 2.0, 4.0])
    q = np.array([[1.0, 0.0], [1.0, 0.5], [0.0, 0.5]])
    m, v = rao_blackwell_moments(delta, q)
    np.testing.assert_allclose(m, [1.5, 3.0])
    np.testing.assert_allclose(v, [0.25, 1.0])


def test_ti_variants_on_exact_tempered_samples_shrink_with_budget(tempered_system):
    """Exact i.i.d. draws of q(x, beta): the error w.r.t. the discretised integral of the exact means shrinks with N."""
    g = tempered_system
    K = 25
    b = np.linspace(0, 1, K)
    lp = uniform_log_prior(K)
    lz_true = np.array([g.log_z(x) for x in b])
    target = integrate_trapezoid(b, np.array([g.mean_delta(x) for x in b])) + g.log_z(0.0)
    err = {}
    for n in (2000, 50000):
        e = []
        for s in range(5):
            d, k, _ = g.tempered_joint_samples(b, lp, lz_true, n, np.random.default_rng(100 * n + s))
            r = ti_log_z(d, k, b, g.log_z(0.0), log_prior=lp, log_zhat=lz_true)
            e.append([r["TI-trapezoid"].estimate - target, r["TI-RB"].estimate - target])
        err[n] = np.sqrt(np.mean(np.square(e), axis=0))
    assert np.all(err[50000] < 0.5 * err[2000]), err
    # and with many samples the only error left is the discretisation
    # (TI-RB and TI agree with the exact-mean quadrature)
    assert np.all(err[50000] < 0.05)
