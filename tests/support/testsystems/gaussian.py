"""The Gaussian tempered family of the carlson2016 estimator tests (closed-form log Z(beta)).

``GaussianFamily``: f(x) = A exp(-|x - mu|^2 / (2 sigma^2)) tempered towards p1 = N(0, s^2 I): every
f_beta = f^beta p1^(1-beta) is Gaussian, so log Z_beta and exact samples are closed form.
"""

import numpy as np
from scipy.special import logsumexp


class GaussianFamily:
    """Every f_beta is Gaussian: ``log_z``, ``mean_delta`` and ``sample`` are exact."""

    def __init__(self, dim=3, mu=2.0, sigma=0.7, s=3.0, log_a=1.5):
        self.d, self.mu, self.sigma, self.s, self.log_a = dim, np.full(dim, mu), sigma, s, log_a

    def _prec(self, beta):
        return beta / self.sigma**2 + (1 - beta) / self.s**2

    def log_z(self, beta):
        lam = self._prec(beta)
        b = beta * self.mu / self.sigma**2
        return (
            beta * self.log_a
            - (1 - beta) * 0.5 * self.d * np.log(2 * np.pi * self.s**2)
            + 0.5 * self.d * np.log(2 * np.pi / lam)
            + b @ b / (2 * lam)
            - beta * self.mu @ self.mu / (2 * self.sigma**2)
        )

    def delta(self, x):
        lf = self.log_a - ((x - self.mu) ** 2).sum(-1) / (2 * self.sigma**2)
        lp = -(x**2).sum(-1) / (2 * self.s**2) - 0.5 * self.d * np.log(2 * np.pi * self.s**2)
        return lf - lp

    def sample(self, beta, n, rng):
        lam = self._prec(beta)
        m = beta * self.mu / self.sigma**2 / lam
        return m + rng.normal(size=(n, self.d)) / np.sqrt(lam)

    def mean_delta(self, beta):
        """E_beta[Delta] in closed form (derivative of log Z_beta), by central differences of the exact log Z."""
        h = 1e-6
        lo, hi = max(beta - h, 0.0), min(beta + h, 1.0)
        return (self.log_z(hi) - self.log_z(lo)) / (hi - lo)

    def tempered_joint_samples(self, betas, log_prior, log_zhat, n, rng):
        """Exact i.i.d. samples (Delta_i, k_i) of q(x, beta_k) ∝ f_k(x) r_k / Zhat_k (eq. 6)."""
        lz = np.array([self.log_z(b) for b in betas])
        lw = log_prior + lz - log_zhat
        k = rng.choice(len(betas), size=n, p=np.exp(lw - logsumexp(lw)))
        delta = np.empty(n)
        for j in np.unique(k):
            sel = k == j
            delta[sel] = self.delta(self.sample(betas[j], sel.sum(), rng))
        return delta, k, lz
