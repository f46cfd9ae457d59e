"""Tempered families with exact answers, for the estimators of log Z on tempered samples (TI, MBAR, RTS).

Carlson et al. (2016): ``f_beta(x) = f(x)^beta p1(x)^(1 - beta)`` (eq. 2) and the joint
``q(x, beta_k) ∝ f_k(x) r_k / Zhat_k`` (eq. 6). A system has ``log_z(beta)``,
``mean_delta(beta)`` (``d log Z_beta / d beta``, eq. 20) and
``tempered_joint_samples(betas, log_prior, log_zhat, n, rng) -> (Delta_i, k_i, log Z_k)``.
"""

import numpy as np
from scipy.special import logsumexp

from bmrep.models.exact import all_states
from bmrep.models.exact import rbm as exact
from support.testsystems.gaussian import GaussianFamily
from support.testsystems.models import random_rbm


def joint_deltas(rbm, a):
    """Delta(v, h) = -E(v, h) - a.v and a.v for every joint state."""
    S = all_states(rbm.n_visible + rbm.n_hidden).astype(float)
    v, h = S[:, : rbm.n_visible], S[:, rbm.n_visible :]
    return -rbm.energy(v, h) - v @ a, v @ a


def exact_tempered_joint(rbm, a, betas, log_prior, log_zhat):
    """log q(x, beta_k) over all joint states x and k (eq. 6, normalised), and Delta of every x."""
    delta, av = joint_deltas(rbm, a)
    lq = betas[None, :] * delta[:, None] + av[:, None] + (log_prior - log_zhat)[None, :]
    return lq - logsumexp(lq), delta


class TemperedRBM:
    """An enumerable RBM tempered towards the base ``p1(v) ∝ exp(a.v)`` (eq. 2 with Carlson's base).

    ``log_z`` and ``mean_delta`` are ``bmrep.models.exact.rbm.log_partition`` and
    ``tempered_delta_moments``; joint draws are exact (every (v, h, k) enumerated).
    """

    def __init__(self, rbm, base_bias):
        self.rbm, self.a = rbm, np.asarray(base_bias, float)

    def log_z(self, beta):
        return exact.log_partition(self.rbm, beta, self.a)

    def mean_delta(self, beta):
        return exact.tempered_delta_moments(self.rbm, beta, self.a)[0]

    def tempered_joint_samples(self, betas, log_prior, log_zhat, n, rng):
        """Exact i.i.d. samples (Delta_i, k_i) of q(x, beta_k) (eq. 6) and the exact log Z_k."""
        lq, delta = exact_tempered_joint(self.rbm, self.a, betas, log_prior, log_zhat)
        p = np.exp(lq).ravel()
        x, k = np.unravel_index(rng.choice(p.size, size=n, p=p / p.sum()), lq.shape)
        return delta[x], k, np.array([self.log_z(b) for b in betas])


def _tempered_rbm():
    """A 6x4 RBM with weights N(0, 1) and a random base (1024 joint states)."""
    rbm = random_rbm(6, 4, 1.0, 31)
    return TemperedRBM(rbm, np.random.default_rng(32).normal(size=rbm.n_visible))


TEMPERED_SYSTEMS = {"gaussian": GaussianFamily, "rbm": _tempered_rbm}
