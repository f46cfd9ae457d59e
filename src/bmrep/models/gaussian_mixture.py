"""A mixture of isotropic Gaussians with known normaliser, tempered towards a broad Gaussian base.

The continuous target of Carlson et al. (2016) sec. 4.1 / Fig. 2 (a mixture
of two 10-dimensional Gaussians; the appendix with the paper's settings is
not in our copy, so the components are chosen here and recorded in the
config). The unnormalised target is

    f(x) = sum_m a_m exp(-|x - mu_m|^2 / (2 s_m^2)),   Z = sum_m a_m (2 pi s_m^2)^(d/2),

and the base p1 = N(0, s0^2 I) is normalised (Z_1 = 1). The tempered family
(eq. 2) is ``log f_beta = beta Delta + log p1`` with ``Delta = log f - log p1``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import logsumexp

__all__ = ["GaussianMixture"]


@dataclass(frozen=True)
class GaussianMixture:
    """Unnormalised isotropic Gaussian mixture plus a N(0, base_scale^2 I) base.

    Parameters
    ----------
    means : (M, d) array
    scales : (M,) array
        Component standard deviations.
    log_amplitudes : (M,) array
        ``log a_m`` of the unnormalised components.
    base_scale : float
        Standard deviation of the normalised Gaussian base p1.
    """

    means: np.ndarray
    scales: np.ndarray
    log_amplitudes: np.ndarray
    base_scale: float

    @classmethod
    def two_components(
        cls,
        dim: int = 10,
        separation: float = 3.0,
        scale: float = 1.0,
        weight: float = 0.3,
        log_z: float = 5.0,
        base_scale: float = 5.0,
    ):
        """Two components at ``+-separation/2`` along every axis, mixing weight ``weight``, total ``log Z``."""
        mu = np.full(dim, separation / 2.0)
        means = np.stack([mu, -mu])
        scales = np.array([scale, scale], float)
        log_norm = 0.5 * dim * np.log(2 * np.pi * scale**2)
        log_amp = np.log([weight, 1.0 - weight]) + log_z - log_norm
        return cls(means, scales, log_amp, float(base_scale))

    @property
    def dim(self) -> int:
        return self.means.shape[1]

    @property
    def log_z(self) -> float:
        """Exact ``log Z`` of the unnormalised mixture."""
        return float(logsumexp(self.log_amplitudes + 0.5 * self.dim * np.log(2 * np.pi * self.scales**2)))

    def log_f(self, x: np.ndarray) -> np.ndarray:
        x = np.atleast_2d(x)
        d2 = ((x[:, None, :] - self.means[None]) ** 2).sum(-1)  # (n, M)
        return logsumexp(self.log_amplitudes[None] - d2 / (2 * self.scales[None] ** 2), axis=1)

    def grad_log_f(self, x: np.ndarray) -> np.ndarray:
        x = np.atleast_2d(x)
        diff = x[:, None, :] - self.means[None]  # (n, M, d)
        a = self.log_amplitudes[None] - (diff**2).sum(-1) / (2 * self.scales[None] ** 2)
        w = np.exp(a - logsumexp(a, axis=1, keepdims=True))  # responsibilities
        return -np.einsum("nm,nmd->nd", w / self.scales[None] ** 2, diff)

    def log_base(self, x: np.ndarray) -> np.ndarray:
        x = np.atleast_2d(x)
        s2 = self.base_scale**2
        return -0.5 * (x**2).sum(-1) / s2 - 0.5 * self.dim * np.log(2 * np.pi * s2)

    def grad_log_base(self, x: np.ndarray) -> np.ndarray:
        return -np.atleast_2d(x) / self.base_scale**2

    def delta(self, x: np.ndarray) -> np.ndarray:
        """``Delta(x) = log f(x) - log p1(x)``."""
        return self.log_f(x) - self.log_base(x)

    def log_f_tempered(self, x: np.ndarray, betas) -> np.ndarray:
        """``beta log f + (1 - beta) log p1`` per row, ``betas`` scalar or (n,)."""
        return np.asarray(betas) * self.log_f(x) + (1 - np.asarray(betas)) * self.log_base(x)

    def grad_log_f_tempered(self, x: np.ndarray, betas) -> np.ndarray:
        b = np.asarray(betas, np.float64).reshape(-1, 1)
        return b * self.grad_log_f(x) + (1 - b) * self.grad_log_base(x)

    def sample_tempered_exact(self, beta: float, n: int, rng: np.random.Generator) -> np.ndarray:
        """Exact samples of ``f^beta p1^(1-beta)``: each component times the Gaussian base is Gaussian.

        Valid because ``(sum_m g_m)^beta`` is *not* a mixture for 0<beta<1, so
        this is only used at beta in {0, 1}; other betas raise.
        """
        if beta == 0.0:
            return rng.normal(0.0, self.base_scale, size=(n, self.dim))
        if beta == 1.0:
            log_w = self.log_amplitudes + 0.5 * self.dim * np.log(2 * np.pi * self.scales**2)
            w = np.exp(log_w - logsumexp(log_w))
            m = rng.choice(len(w), size=n, p=w)
            return self.means[m] + rng.normal(size=(n, self.dim)) * self.scales[m, None]
        raise ValueError("exact tempered samples only at beta = 0 or 1")
