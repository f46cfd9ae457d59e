"""AR-model and integrated autocorrelation times on synthetic AR series with known tau."""

import numpy as np
import pytest
from scipy.signal import lfilter

from bmrep.diagnostics.autocorr import (
    ar1_autocorrelation_time,
    ar_autocorrelation_time,
    autocorrelation_function,
    integrated_autocorrelation_time,
)
from bmrep.seeds import rng

N = 200_000


def ar_series(phis, n, key):
    e = rng(2013, "test_autocorr", key).standard_normal(n + 1000)
    return lfilter([1.0], np.r_[1.0, -np.asarray(phis)], e)[1000:]


@pytest.mark.parametrize("phi", [0.0, 0.5, 0.8, -0.5])
def test_ar_fit_tau_matches_ar1_value(phi):
    x = ar_series([phi], N, f"ar1_{phi}")
    fit = ar_autocorrelation_time(x)
    tau = ar1_autocorrelation_time(phi)
    # delta method: se(phi_hat) = sqrt((1 - phi^2) / n), dtau/dphi = 2 / (1 - phi)^2
    se = 2.0 / (1.0 - phi) ** 2 * np.sqrt((1.0 - phi**2) / N)
    assert abs(fit.tau - tau) < 5 * se, (fit.tau, tau, se, fit.order)


def test_ar_fit_tau_matches_ar2_value():
    p1, p2 = 0.6, 0.25
    rho1 = p1 / (1 - p2)
    rho2 = p1 * rho1 + p2
    tau = (1 - p1 * rho1 - p2 * rho2) / (1 - p1 - p2) ** 2  # s^2 / (gamma0 (1 - sum phi)^2)
    x = ar_series([p1, p2], N, "ar2")
    fit = ar_autocorrelation_time(x)
    assert fit.order >= 2
    # relative se of the long-run variance estimate ~ sqrt(2 * 2 * tau / n) (generous bound below)
    assert abs(fit.tau / tau - 1) < 5 * np.sqrt(4 * tau / N), (fit.tau, tau)


def test_integrated_time_cross_check():
    phi = 0.8
    x = ar_series([phi], N, "emcee")
    tau = ar1_autocorrelation_time(phi)
    est = integrated_autocorrelation_time(x)
    # Sokal window M ~ 5 tau: var(tau_hat) ~ 2 (2M + 1) tau^2 / n
    se = tau * np.sqrt(2 * (2 * 5 * tau + 1) / N)
    assert abs(est - tau) < 5 * se, (est, tau, se)


def test_acf_of_ar1():
    phi = 0.7
    x = ar_series([phi], N, "acf")
    r = autocorrelation_function(x, 5)
    assert r[0] == 1.0
    # Bartlett: var(r_k) ~ (1 + phi^2)(1 - phi^(2k)) / ((1 - phi^2) n) - 2k phi^(2k) / n <= (1+phi^2)/((1-phi^2) n)
    se = np.sqrt((1 + phi**2) / ((1 - phi**2) * N))
    np.testing.assert_array_less(np.abs(r[1:] - phi ** np.arange(1, 6)), 5 * se)


def test_constant_trace_gives_nan():
    x = np.ones(100)
    assert np.isnan(ar_autocorrelation_time(x).tau)
    assert np.isnan(integrated_autocorrelation_time(x))
    r = autocorrelation_function(x, 3)
    assert r[0] == 1 and np.isnan(r[1:]).all()


def test_bad_input():
    with pytest.raises(ValueError):
        ar1_autocorrelation_time(1.0)
    with pytest.raises(ValueError):
        autocorrelation_function(np.arange(5.0), 5)
