"""Thermodynamic integration (TI) on a discrete ladder, and its Rao-Blackwellized form TI-RB.

Carlson et al. (2016) sec. 3.4: ``d/dbeta log Z(beta) = E_{x|beta}[Delta(x)]``
(eq. 20) with ``Delta = log f - log p1``, so ``log Z_K = log Z_1 +
int_0^1 E_beta[Delta] dbeta``. On a discrete ladder the integral is a
quadrature of the per-temperature means:

- Riemann (right sum): ``sum_k (beta_k - beta_{k-1}) m_k``
- trapezoid: ``sum_k (beta_k - beta_{k-1}) (m_k + m_{k-1}) / 2``
- trapezoid with the variance correction of Friel, Hurn & Wyse (2014):
  trapezoid ``- sum_k (beta_k - beta_{k-1})^2 (v_k - v_{k-1}) / 12``, with
  ``v_k = Var_beta_k[Delta]`` (the derivative of the mean).

With simulated-tempering samples the means come either from the samples
in each bin (TI; empty bins imputed by linear interpolation, sec. 4.3) or
from the Rao-Blackwellized weights of eq. 21 (TI-RB):
``m_k = sum_i q(beta_k|x_i) Delta_i / sum_i q(beta_k|x_i)``; TI-RB is
integrated with the trapezoid rule. :func:`ti_rules` applies every TI
estimator's rule to given means and variances: to sampled ones in
:func:`ti_log_z`, and to exact ones for the value each estimator converges
to, discretisation bias included.
"""

from __future__ import annotations

import numpy as np

from ..sampling.simulated_tempering import temperature_conditional
from .base import EstimateResult

__all__ = [
    "integrate_riemann",
    "integrate_trapezoid",
    "integrate_trapezoid_corrected",
    "binned_moments",
    "rao_blackwell_moments",
    "ti_rules",
    "ti_log_z",
]


def integrate_riemann(betas, means) -> float:
    """Right Riemann sum of ``means`` over ``betas``."""
    return float(np.sum(np.diff(betas) * np.asarray(means)[1:]))


def integrate_trapezoid(betas, means) -> float:
    """Trapezoid rule."""
    m = np.asarray(means, np.float64)
    return float(np.sum(np.diff(betas) * (m[1:] + m[:-1]) / 2.0))


def integrate_trapezoid_corrected(betas, means, variances) -> float:
    """Trapezoid with the Friel et al. (2014) correction ``- sum d^2 (v_k - v_{k-1}) / 12``."""
    d = np.diff(betas)
    v = np.asarray(variances, np.float64)
    return integrate_trapezoid(betas, means) - float(np.sum(d**2 * np.diff(v)) / 12.0)


def _interpolate_empty(betas, values, ok):
    if not np.any(ok):
        raise ValueError("no temperature bin has samples")
    out = np.asarray(values, np.float64).copy()
    out[~ok] = np.interp(np.asarray(betas)[~ok], np.asarray(betas)[ok], out[ok])
    return out


def binned_moments(delta: np.ndarray, k: np.ndarray, betas: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-bin mean and variance of ``Delta`` from samples with bin labels ``k``; empty bins interpolated."""
    delta = np.asarray(delta, np.float64)
    K = len(betas)
    n = np.bincount(k, minlength=K).astype(np.float64)
    s1 = np.bincount(k, weights=delta, minlength=K)
    ok = n > 0
    mean = np.where(ok, s1 / np.maximum(n, 1), 0.0)
    s2 = np.bincount(k, weights=(delta - mean[k]) ** 2, minlength=K)
    var = np.where(n > 1, s2 / np.maximum(n - 1, 1), 0.0)
    return _interpolate_empty(betas, mean, ok), _interpolate_empty(betas, var, n > 1) if np.any(n > 1) else var, n


def rao_blackwell_moments(delta: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Eq. 21: ``q``-weighted mean and variance of ``Delta`` per temperature; q is (N, K)."""
    delta = np.asarray(delta, np.float64)
    w = np.asarray(q, np.float64)
    sw = w.sum(axis=0)
    mean = (w * delta[:, None]).sum(axis=0) / sw
    var = (w * (delta[:, None] - mean[None, :]) ** 2).sum(axis=0) / sw
    return mean, var


def ti_rules(betas, means, variances, rb_means=None) -> dict[str, float]:
    """Every TI estimator's quadrature rule applied to an integrand (without the base's log Z).

    Parameters
    ----------
    betas : array (K,)
        The ladder.
    means, variances : array (K,)
        ``E_beta_k[Delta]`` and ``Var_beta_k[Delta]`` (sampled per bin, or exact).
    rb_means : array (K,) or None
        The Rao-Blackwellized means of eq. 21 (TI-RB); none: no TI-RB entry.

    Returns
    -------
    dict
        ``"TI-riemann"``, ``"TI-trapezoid"``, ``"TI-trapezoid-corrected"`` and
        (with ``rb_means``) ``"TI-RB"``: the integral of ``E_beta[Delta]``
        over beta by each estimator's rule.
    """
    out = {
        "TI-riemann": integrate_riemann(betas, means),
        "TI-trapezoid": integrate_trapezoid(betas, means),
        "TI-trapezoid-corrected": integrate_trapezoid_corrected(betas, means, variances),
    }
    if rb_means is not None:
        out["TI-RB"] = integrate_trapezoid(betas, rb_means)
    return out


def ti_log_z(
    delta: np.ndarray,
    k: np.ndarray,
    betas: np.ndarray,
    log_z_base: float,
    *,
    log_prior: np.ndarray | None = None,
    log_zhat: np.ndarray | None = None,
    budget: float = float("nan"),
) -> dict[str, EstimateResult]:
    """All TI variants from tempered samples ``(Delta_i, k_i)``.

    Returns ``{"TI-riemann", "TI-trapezoid", "TI-trapezoid-corrected"}`` and,
    when ``log_prior`` and ``log_zhat`` are given (to evaluate q(beta|x)),
    ``"TI-RB"``. TI has no stated error here (NaN): its error is dominated by
    discretisation, which the samples do not measure.
    """
    betas = np.asarray(betas, np.float64)
    mean, var, _ = binned_moments(delta, np.asarray(k), betas)
    m_rb = None
    if log_prior is not None and log_zhat is not None:
        q = temperature_conditional(delta, betas, log_prior, log_zhat)
        m_rb, _ = rao_blackwell_moments(delta, q)
    out = ti_rules(betas, mean, var, m_rb)
    return {name: EstimateResult(float(log_z_base + v), float("nan"), name, budget) for name, v in out.items()}
