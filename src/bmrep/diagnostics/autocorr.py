"""Autocorrelation functions and autocorrelation times of scalar MCMC traces.

Brügge, Fischer & Igel (2013), sec. 4.3: the autocorrelation function of the
energy, eq. (12),

    R(dt) = E[(E_k - mu)(E_{k+dt} - mu)] / sigma^2,

and the autocorrelation time, eq. (13), tau = sum_{dt=-inf}^{inf} R(dt)
(= 1 + 2 sum_{dt>=1} R(dt)), which the paper estimates by fitting an
autoregressive (AR) model to the trace, following Thompson (2010) and the
``ar.act`` method of SamplerCompare (Thompson 2011).

The AR fit uses statsmodels (Yule-Walker equations solved by Levinson-Durbin
recursion on the sample autocovariance, order chosen by AIC as R's ``ar.yw``
does). For an AR(p) process x_t = sum_i phi_i x_{t-i} + e_t with innovation
variance s^2 the spectral density at frequency zero gives

    tau = s^2 / (gamma_0 (1 - sum_i phi_i)^2),

which for AR(1) is (1 + phi) / (1 - phi). The integrated estimate of emcee
(Sokal's adaptive window) is the cross-check.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# statsmodels and emcee are imported inside the functions: importing them costs
# about a second, which every workflow job that merely imports this module would pay.


def autocorrelation_function(x: np.ndarray, max_lag: int) -> np.ndarray:
    """Normalised autocorrelation R(0..max_lag) of a 1-D trace (eq. 12).

    Parameters
    ----------
    x : ndarray, shape (n,)
        The trace (e.g. the energy after every sweep).
    max_lag : int
        Largest lag returned (< n).

    Returns
    -------
    ndarray, shape (max_lag + 1,)
        R(0) = 1, R(dt) the biased FFT estimate of statsmodels' ``acf``. A
        constant trace gives R = 1 at lag 0 and NaN elsewhere.
    """
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 1:
        raise ValueError(f"x must be 1-D, got shape {x.shape}")
    if not 0 <= max_lag < x.size:
        raise ValueError(f"max_lag must be in [0, {x.size - 1}], got {max_lag}")
    from statsmodels.tsa.stattools import acf

    if np.ptp(x) == 0:
        out = np.full(max_lag + 1, np.nan)
        out[0] = 1.0
        return out
    return acf(x, nlags=max_lag, fft=True, adjusted=False)


@dataclass(frozen=True)
class ARFit:
    """Result of :func:`ar_autocorrelation_time`."""

    tau: float
    order: int
    coefficients: np.ndarray
    innovation_variance: float


def ar_autocorrelation_time(x: np.ndarray, max_order: int | None = None) -> ARFit:
    """Autocorrelation time from an AR model fit (Thompson 2010, ``ar.act``).

    Parameters
    ----------
    x : ndarray, shape (n,)
        The trace.
    max_order : int, optional
        Largest AR order considered; default ``min(n - 1, 10 log10 n)`` as in
        R's ``ar``. The order minimising AIC = n log s_p^2 + 2 p is used.

    Returns
    -------
    ARFit
        ``tau = s_p^2 / (gamma_0 (1 - sum phi)^2)`` with the chosen order p.
        A constant trace has tau = NaN.
    """
    from statsmodels.tsa.stattools import acovf, levinson_durbin

    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if x.ndim != 1 or n < 3:
        raise ValueError(f"need a 1-D trace of length >= 3, got shape {x.shape}")
    if np.ptp(x) == 0:
        return ARFit(float("nan"), 0, np.zeros(0), 0.0)
    if max_order is None:
        max_order = int(min(n - 1, np.floor(10 * np.log10(n))))
    max_order = max(1, min(int(max_order), n - 1))
    gamma = acovf(x, nlag=max_order, fft=True, adjusted=False, demean=True)
    res = levinson_durbin(gamma, nlags=max_order, isacov=True)
    sigma2 = np.asarray(res.sigma, dtype=np.float64).copy()
    sigma2[0] = gamma[0]
    with np.errstate(divide="ignore"):
        aic = n * np.log(np.maximum(sigma2, np.finfo(float).tiny)) + 2.0 * np.arange(max_order + 1)
    p = int(np.argmin(aic))
    phi = np.asarray(res.phi, dtype=np.float64)[1 : p + 1, p] if p > 0 else np.zeros(0)
    tau = sigma2[p] / (gamma[0] * (1.0 - phi.sum()) ** 2)
    return ARFit(float(tau), p, phi, float(sigma2[p]))


def integrated_autocorrelation_time(x: np.ndarray, c: float = 5.0) -> float:
    """Integrated autocorrelation time with Sokal's adaptive window (emcee).

    The cross-check of :func:`ar_autocorrelation_time`: ``emcee.autocorr.
    integrated_time`` with window constant ``c`` and no length check (a
    trace shorter than 50 tau gives a noisier estimate, not an error).
    """
    from emcee.autocorr import integrated_time

    x = np.asarray(x, dtype=np.float64)
    if np.ptp(x) == 0:
        return float("nan")
    return float(integrated_time(x, c=c, tol=0, quiet=True)[0])


def ar1_autocorrelation_time(phi: float) -> float:
    """Exact tau = (1 + phi) / (1 - phi) of a stationary AR(1) process."""
    if not -1 < phi < 1:
        raise ValueError(f"AR(1) is stationary only for |phi| < 1, got {phi}")
    return (1.0 + phi) / (1.0 - phi)


__all__ = [
    "autocorrelation_function",
    "ARFit",
    "ar_autocorrelation_time",
    "integrated_autocorrelation_time",
    "ar1_autocorrelation_time",
]
