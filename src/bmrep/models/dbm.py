"""Two-hidden-layer binary deep Boltzmann machine (units in {0, 1}).

Energy (Salakhutdinov 2010, eq. 1, with the bias terms the paper omits)::

    E(v, h1, h2) = -b.v - c1.h1 - c2.h2 - v.W1.h1 - h1.W2.h2,

``W1`` of shape (D, F1), ``W2`` of shape (F1, F2). Given h1, the layers v and
h2 are conditionally independent, and given (v, h2) the units of h1 are, so
one Gibbs sweep is two block updates (h1 | v, h2, then v, h2 | h1); the
sweep is :func:`bmrep.sampling.dbm_gibbs.gibbs_sweep`.

Tempered family (the AIS path of Salakhutdinov & Hinton 2009 / Salakhutdinov
& Murray 2008, and the simulated-tempering ladder of Salakhutdinov 2010,
eq. 10)::

    p_beta(v, h1, h2)  ∝  exp(-beta E(v, h1, h2) + (1 - beta)(a.v + a1.h1 + a2.h2)),

a geometric path from a base distribution (a product of Bernoullis with logits
``(a, a1, a2)``; by default ``a = base_bias`` on v and uniform h1, h2) to the
DBM. Summing h1 out analytically gives the unnormalised marginal on {v, h2}
used by AIS (Salakhutdinov & Hinton 2009)::

    log f_beta(v, h2) = (beta b + (1 - beta) a).v + (beta c2 + (1 - beta) a2).h2
                        + sum_j softplus(beta (c1 + v W1 + W2 h2)_j + (1 - beta) a1_j),

and summing v and h2 out instead gives the marginal on h1
(:func:`tempered_log_f_h1`). AIS along this path is
:mod:`bmrep.estimators.dbm_ais`; exact enumeration of small DBMs is
:mod:`bmrep.models.exact.dbm`.

The mean-field posterior and the variational bound of eq. (3) are here too:
they are deterministic functions of the model used by learning, by the AIS
base distribution and by the evaluation.

Mutability: :class:`DBM` is a frozen dataclass whose arrays are ordinary
writable numpy arrays; :meth:`DBM.params` returns the live arrays, so an
optimiser's in-place ``opt.step(dbm.params(), grads)`` updates the model.

References
----------
Salakhutdinov, R. (2010). Learning deep Boltzmann machines using adaptive
MCMC. ICML. Eqs. (1)-(3).
Salakhutdinov, R. & Hinton, G. (2009). Deep Boltzmann machines. AISTATS.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit, xlogy

from bmrep.models.rbm import _float_dtype
from bmrep.special import affine_softplus_sum, logistic_, softplus_sum_


@dataclass(frozen=True, eq=False)
class DBM:
    """Binary two-layer DBM v - h1 - h2.

    Weights ``W1`` (D, F1), ``W2`` (F1, F2) and biases ``b`` (D,), ``c1`` (F1,),
    ``c2`` (F2,); the energy is eq. (1) of Salakhutdinov (2010) with its bias terms.

    Arrays are float64, or float32 when all five are float32 (see :meth:`astype`).
    """

    W1: np.ndarray
    W2: np.ndarray
    b: np.ndarray
    c1: np.ndarray
    c2: np.ndarray

    def __post_init__(self):
        dt = _float_dtype(self.W1, self.W2, self.b, self.c1, self.c2)
        arrs = {k: np.ascontiguousarray(getattr(self, k), dtype=dt) for k in ("W1", "W2", "b", "c1", "c2")}
        D, F1 = arrs["W1"].shape if arrs["W1"].ndim == 2 else (None, None)
        if D is None:
            raise ValueError(f"W1 must be 2-d (D, F1), got shape {arrs['W1'].shape}")
        if arrs["W2"].ndim != 2 or arrs["W2"].shape[0] != F1:
            raise ValueError(f"W2 must have shape ({F1}, F2), got {arrs['W2'].shape}")
        F2 = arrs["W2"].shape[1]
        for k, n in (("b", D), ("c1", F1), ("c2", F2)):
            if arrs[k].shape != (n,):
                raise ValueError(f"{k} must have shape ({n},), got {arrs[k].shape}")
        for k, a in arrs.items():
            if not np.all(np.isfinite(a)):
                raise ValueError(f"DBM parameter {k} contains non-finite values")
            object.__setattr__(self, k, a)

    # -- construction -------------------------------------------------------
    @classmethod
    def random(
        cls, n_visible: int, n_hidden1: int, n_hidden2: int, rng: np.random.Generator, scale: float = 0.01
    ) -> DBM:
        """Weights N(0, scale^2), zero biases."""
        return cls(
            rng.normal(0.0, scale, (n_visible, n_hidden1)),
            rng.normal(0.0, scale, (n_hidden1, n_hidden2)),
            np.zeros(n_visible),
            np.zeros(n_hidden1),
            np.zeros(n_hidden2),
        )

    @classmethod
    def from_params(cls, params: dict) -> DBM:
        return cls(*(params[k] for k in ("W1", "W2", "b", "c1", "c2")))

    def params(self) -> dict:
        """The live parameter arrays (``W1, W2, b, c1, c2``)."""
        return {"W1": self.W1, "W2": self.W2, "b": self.b, "c1": self.c1, "c2": self.c2}

    def copy(self) -> DBM:
        return DBM(*(a.copy() for a in self.params().values()))

    def astype(self, dtype) -> DBM:
        return DBM(*(a.astype(dtype) for a in self.params().values()))

    @property
    def shape(self) -> tuple[int, int, int]:
        return (self.W1.shape[0], self.W1.shape[1], self.W2.shape[1])

    @property
    def dtype(self) -> np.dtype:
        return self.W1.dtype

    # -- energies and conditionals -----------------------------------------
    def energy(self, v, h1, h2) -> np.ndarray:
        """E(v, h1, h2) of eq. (1) (with biases), one value per row.

        Products are computed in the model's dtype, sums accumulated in float64.
        """
        dt = self.dtype
        v, h1, h2 = (np.asarray(x, dtype=dt) for x in (v, h1, h2))
        f64 = np.float64
        return -(
            v.astype(f64) @ self.b.astype(f64)
            + h1.astype(f64) @ self.c1.astype(f64)
            + h2.astype(f64) @ self.c2.astype(f64)
            + np.einsum("...i,...i->...", v @ self.W1, h1, dtype=f64)
            + np.einsum("...i,...i->...", h1 @ self.W2, h2, dtype=f64)
        )

    def field_h1(self, v, h2) -> np.ndarray:
        """Pre-activation of h1 given (v, h2): ``v W1 + h2 W2^T + c1``."""
        return v @ self.W1 + h2 @ self.W2.T + self.c1

    def field_v(self, h1) -> np.ndarray:
        return h1 @ self.W1.T + self.b

    def field_h2(self, h1) -> np.ndarray:
        return h1 @ self.W2 + self.c2


def check_beta(beta) -> float:
    """``beta`` as a float, refused unless it lies in [0, 1] (the tempered family's range)."""
    beta = float(beta)
    if not 0.0 <= beta <= 1.0:
        raise ValueError(f"inverse temperature beta must be in [0, 1], got {beta}")
    return beta


class BaseLogits(tuple):
    """``(a, a1, a2)`` as :func:`base_logits` returns them: checked float64 logits.

    Passed back to :func:`base_logits` (as ``base_bias``) they are returned
    as they are, unchecked again: an AIS step evaluates ``log f`` twice per
    block of chains, and the checks were a sixth of a 784-12-12 step.
    """

    __slots__ = ()


def base_logits(dbm: DBM, base_bias) -> BaseLogits:
    """Logits ``(a, a1, a2)`` of the base distribution on (v, h1, h2), float64.

    ``base_bias`` is None (uniform), an array (D,) (base on v, uniform hidden
    layers), or a triple ``(a, a1, a2)`` whose entries may be None (zeros).
    """
    D, F1, F2 = dbm.shape
    if isinstance(base_bias, BaseLogits) and tuple(x.shape for x in base_bias) == ((D,), (F1,), (F2,)):
        return base_bias
    parts = (
        (base_bias, None, None) if base_bias is None or not isinstance(base_bias, (tuple, list)) else tuple(base_bias)
    )
    if len(parts) != 3:
        raise ValueError("base_bias must be None, an array (D,) or a triple (a_v, a_h1, a_h2)")
    out = []
    for x, n, name in zip(parts, (D, F1, F2), ("v", "h1", "h2"), strict=True):
        a = np.zeros(n) if x is None else np.asarray(x, dtype=np.float64)
        if a.shape != (n,):
            raise ValueError(f"base logits of {name} must have shape ({n},), got {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"base logits of {name} contain non-finite values")
        out.append(a)
    return BaseLogits(out)


# -- the tempered family with h1 summed out (AIS over {v, h2}) --------------
def tempered_log_f(dbm: DBM, v, h2, beta: float = 1.0, base_bias=None, field_h1=None) -> np.ndarray:
    """``log f_beta(v, h2)``: the tempered DBM with h1 summed out analytically.

    ``beta (b.v + c2.h2) + (1 - beta)(a.v + a2.h2) + sum_j softplus(beta f1_j + (1 - beta) a1_j)``
    with ``f1 = v W1 + h2 W2^T + c1``.

    Parameters
    ----------
    dbm : DBM
    v, h2 : array (n, D), (n, F2)
    beta : float in [0, 1]
    base_bias : None, array (D,) or triple (a, a1, a2)
        Logits of the base product of Bernoullis (None: uniform), see :func:`base_logits`.
    field_h1 : array (n, F1), optional
        ``v W1 + h2 W2^T + c1`` if already computed (it does not depend on beta).

    Returns
    -------
    array (n,), float64
    """
    beta = check_beta(beta)
    a, a1, a2 = base_logits(dbm, base_bias)
    v = np.asarray(v, dtype=np.float64)
    h2 = np.asarray(h2, dtype=np.float64)
    if field_h1 is None:
        field_h1 = v @ dbm.W1.astype(np.float64) + h2 @ dbm.W2.T.astype(np.float64) + dbm.c1
    return (
        v @ (beta * dbm.b.astype(np.float64) + (1.0 - beta) * a)
        + h2 @ (beta * dbm.c2.astype(np.float64) + (1.0 - beta) * a2)
        # softplus_sum_(beta * float64(field_h1) + (1 - beta) a1), row by row without float64 copies
        + affine_softplus_sum(field_h1, beta, (1.0 - beta) * a1)
    )


def tempered_log_f_h1(dbm: DBM, h1, beta: float = 1.0, base_bias=None, field_v=None, field_h2=None) -> np.ndarray:
    """``log f_beta(h1)``: the tempered DBM with v and h2 summed out analytically.

    ``(beta c1 + (1 - beta) a1).h1 + sum_i softplus(beta (b + W1 h1)_i + (1 - beta) a_i)
    + sum_k softplus(beta (c2 + h1 W2)_k + (1 - beta) a2_k)``; the fields
    ``h1 W1^T + b`` and ``h1 W2 + c2`` (beta-independent) may be passed in.
    """
    beta = check_beta(beta)
    a, a1, a2 = base_logits(dbm, base_bias)
    h1 = np.asarray(h1, dtype=np.float64)
    if field_v is None:
        field_v = h1 @ dbm.W1.T.astype(np.float64) + dbm.b
    if field_h2 is None:
        field_h2 = h1 @ dbm.W2.astype(np.float64) + dbm.c2
    fv = np.asarray(field_v, dtype=np.float64)
    f2 = np.asarray(field_h2, dtype=np.float64)
    return (
        h1 @ (beta * dbm.c1.astype(np.float64) + (1.0 - beta) * a1)
        + softplus_sum_(beta * fv + (1.0 - beta) * a)
        + softplus_sum_(beta * f2 + (1.0 - beta) * a2)
    )


def sample_base(dbm: DBM, n: int, rng: np.random.Generator, base_bias=None, dtype=None):
    """N exact draws of (v, h1, h2) from the beta = 0 member of the family."""
    D, F1, F2 = dbm.shape
    dtype = dbm.dtype if dtype is None else dtype
    a, a1, a2 = base_logits(dbm, base_bias)
    return tuple((rng.random((n, x.size)) < expit(x)).astype(dtype) for x in (a, a1, a2))


# -- mean field and the variational bound (eq. 3) ----------------------------
def mean_field(dbm: DBM, V, n_iter: int = 5, damping: float = 0.0, tol: float | None = None, init=None):
    """Mean-field posterior Q(h1, h2 | v) = prod q(h1_j) prod q(h2_k) (section 2.1).

    Fixed-point iteration ``mu1 <- sigmoid(v W1 + mu2 W2^T + c1)``,
    ``mu2 <- sigmoid(mu1 W2 + c2)`` with optional damping
    ``mu <- damping * mu_old + (1 - damping) * update``. Initialised (unless
    ``init`` is given) by the bottom-up pass of Salakhutdinov & Hinton (2009):
    ``mu1 = sigmoid(2 v W1 + c1)``, ``mu2 = sigmoid(mu1 W2 + c2)``.

    Parameters
    ----------
    n_iter : int
        Maximum number of fixed-point updates (the paper uses 5 during learning).
    damping : float in [0, 1)
    tol : float or None
        Stop early when max |mu_new - mu_old| < tol.
    init : (mu1, mu2) or None

    Returns
    -------
    mu1 : array (n, F1), mu2 : array (n, F2), in the model's dtype.
    """
    if not 0.0 <= damping < 1.0:
        raise ValueError(f"damping must be in [0, 1), got {damping}")
    dt = dbm.dtype
    V = np.asarray(V, dtype=dt)
    VW1 = V @ dbm.W1
    vW1 = VW1 + dbm.c1
    # the compiled logistic (bmrep.special) in place of expit: this loop is most of a DBM update
    if init is None:
        mu1 = logistic_(2.0 * VW1 + dbm.c1)
        mu2 = logistic_(mu1 @ dbm.W2 + dbm.c2)
    else:
        mu1, mu2 = (np.array(m, dtype=dt) for m in init)
    for _ in range(int(n_iter)):
        new1 = logistic_(vW1 + mu2 @ dbm.W2.T)
        if damping:
            new1 = damping * mu1 + (1.0 - damping) * new1
        new2 = logistic_(new1 @ dbm.W2 + dbm.c2)
        if damping:
            new2 = damping * mu2 + (1.0 - damping) * new2
        if tol is not None:
            delta = max(np.max(np.abs(new1 - mu1), initial=0.0), np.max(np.abs(new2 - mu2), initial=0.0))
        mu1, mu2 = new1, new2
        if tol is not None and delta < tol:
            break
    return mu1, mu2


def bernoulli_entropy(mu) -> np.ndarray:
    """Sum over the last axis of ``-mu log mu - (1 - mu) log(1 - mu)`` (0 log 0 = 0)."""
    mu = np.clip(np.asarray(mu, dtype=np.float64), 0.0, 1.0)
    return -(xlogy(mu, mu) + xlogy(1.0 - mu, 1.0 - mu)).sum(axis=-1)


def variational_bound(dbm: DBM, V, log_z: float, mu1=None, mu2=None, **mf_kwargs) -> np.ndarray:
    """Per-example variational lower bound of eq. (3) on log p(v).

    ``sum_h Q log p*(v, h) + H(Q) - log Z`` with the factorised Q, i.e.
    ``b.v + c1.mu1 + c2.mu2 + (v W1).mu1 + (mu1 W2).mu2 + H(mu1) + H(mu2) - log Z``.
    If ``mu1, mu2`` are not given they are computed by :func:`mean_field`
    with ``mf_kwargs``. Float64 throughout.
    """
    V = np.asarray(V, dtype=np.float64)
    if mu1 is None or mu2 is None:
        mu1, mu2 = mean_field(dbm, V, **mf_kwargs)
    mu1 = np.asarray(mu1, dtype=np.float64)
    mu2 = np.asarray(mu2, dtype=np.float64)
    W1, W2 = dbm.W1.astype(np.float64), dbm.W2.astype(np.float64)
    b, c1, c2 = (x.astype(np.float64) for x in (dbm.b, dbm.c1, dbm.c2))
    expected = V @ b + mu1 @ c1 + mu2 @ c2 + np.sum((V @ W1) * mu1, axis=1) + np.sum((mu1 @ W2) * mu2, axis=1)
    return expected + bernoulli_entropy(mu1) + bernoulli_entropy(mu2) - float(log_z)


__all__ = [
    "DBM",
    "check_beta",
    "base_logits",
    "tempered_log_f",
    "tempered_log_f_h1",
    "sample_base",
    "mean_field",
    "bernoulli_entropy",
    "variational_bound",
]
