"""The bound on <ln(1 + e^z)> of Saul, Jaakkola & Jordan (1996), eqs. (18)-(21).

For any random variable z and any real xi (eq. 20):

    <ln(1 + e^z)> <= xi <z> + ln <e^{-xi z} + e^{(1-xi) z}>,

convex in xi and minimised on [0, 1]; xi = 0 gives Jensen's bound
ln(1 + <e^z>). Written with the cumulant generating function
``K(t) = ln <e^{t z}>`` the right-hand side is
``xi K'(0) + logaddexp(K(-xi), K(1 - xi))``. For z ~ N(m, s^2),
``K(t) = m t + s^2 t^2 / 2`` (the paper's Figure 2 uses m = 0, s = 1).

References
----------
Saul, L. K., Jaakkola, T. & Jordan, M. I. (1996). Mean field theory for
sigmoid belief networks. JAIR 4, 61-76, eqs. (18)-(21) and Figure 2.
"""

from __future__ import annotations

import numpy as np
from scipy import integrate, optimize
from scipy.special import softplus

__all__ = [
    "gaussian_cgf",
    "softplus_bound",
    "gaussian_softplus_bound",
    "gaussian_softplus_expectation",
    "minimise_softplus_bound",
]


def gaussian_cgf(t, mean: float = 0.0, std: float = 1.0):
    """Cumulant generating function ``ln <e^{t z}>`` of z ~ N(mean, std^2)."""
    t = np.asarray(t, dtype=np.float64)
    return mean * t + 0.5 * std**2 * t**2


def softplus_bound(xi, mean_z: float, cgf) -> np.ndarray:
    """Right-hand side of eq. (20): ``xi <z> + ln(<e^{-xi z}> + <e^{(1-xi) z}>)``.

    Parameters
    ----------
    xi : float or array
        The variational parameter (any real; the minimum lies in [0, 1]).
    mean_z : float
        ``<z>``.
    cgf : callable
        ``t -> ln <e^{t z}>`` (vectorised).
    """
    xi = np.asarray(xi, dtype=np.float64)
    return xi * mean_z + np.logaddexp(cgf(-xi), cgf(1.0 - xi))


def gaussian_softplus_bound(xi, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
    """Eq. (20) for z ~ N(mean, std^2): the curve of the paper's Figure 2."""
    return softplus_bound(xi, mean, lambda t: gaussian_cgf(t, mean, std))


def gaussian_softplus_expectation(mean: float = 0.0, std: float = 1.0) -> float:
    """Exact ``<ln(1 + e^z)>`` for z ~ N(mean, std^2), by adaptive quadrature."""
    if std <= 0:
        return float(softplus(mean))

    def integrand(u):
        z = mean + std * u
        return softplus(z) * np.exp(-0.5 * u * u) / np.sqrt(2.0 * np.pi)

    val, _ = integrate.quad(integrand, -np.inf, np.inf, epsabs=1e-13, epsrel=1e-12)
    return float(val)


def minimise_softplus_bound(mean_z: float, cgf) -> tuple[float, float]:
    """The tightest bound of eq. (20): ``(xi*, bound(xi*))`` with xi* in [0, 1] (convex 1-D problem)."""
    res = optimize.minimize_scalar(
        lambda x: float(softplus_bound(x, mean_z, cgf)), bounds=(0.0, 1.0), method="bounded", options={"xatol": 1e-12}
    )
    return float(res.x), float(res.fun)
