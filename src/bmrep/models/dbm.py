"""Two-hidden-layer binary deep Boltzmann machine (units in {0, 1}).

Energy (Salakhutdinov 2010, eq. 1, with the bias terms the paper omits)::

    E(v, h1, h2) = -b.v - c1.h1 - c2.h2 - v.W1.h1 - h1.W2.h2,

``W1`` of shape (D, F1), ``W2`` of shape (F1, F2). Given h1, the layers v and
h2 are conditionally independent, and given (v, h2) the units of h1 are, so
one Gibbs sweep is two block updates (h1 | v, h2, then v, h2 | h1), each
run through the sampling core's compiled ``update_layer``.

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
(:func:`tempered_log_f_h1`).

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
from scipy.special import expit, logsumexp

from bmrep.estimators.exact import all_states
from bmrep.models.rbm import _float_dtype, sigmoid, softplus

MAX_ENUM_UNITS = 20
_CHUNK = 1 << 12
_LOG2 = float(np.log(2.0))


@dataclass(frozen=True, eq=False)
class DBM:
    """Binary DBM v - h1 - h2 with weights ``W1`` (D, F1), ``W2`` (F1, F2) and
    biases ``b`` (D,), ``c1`` (F1,), ``c2`` (F2,).

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
    def random(cls, n_visible: int, n_hidden1: int, n_hidden2: int, rng: np.random.Generator, scale: float = 0.01) -> "DBM":
        """Weights N(0, scale^2), zero biases."""
        return cls(
            rng.normal(0.0, scale, (n_visible, n_hidden1)),
            rng.normal(0.0, scale, (n_hidden1, n_hidden2)),
            np.zeros(n_visible),
            np.zeros(n_hidden1),
            np.zeros(n_hidden2),
        )

    @classmethod
    def from_params(cls, params: dict) -> "DBM":
        return cls(*(params[k] for k in ("W1", "W2", "b", "c1", "c2")))

    def params(self) -> dict:
        """The live parameter arrays (``W1, W2, b, c1, c2``)."""
        return {"W1": self.W1, "W2": self.W2, "b": self.b, "c1": self.c1, "c2": self.c2}

    def copy(self) -> "DBM":
        return DBM(*(a.copy() for a in self.params().values()))

    def astype(self, dtype) -> "DBM":
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
        return -(v.astype(f64) @ self.b.astype(f64) + h1.astype(f64) @ self.c1.astype(f64)
                 + h2.astype(f64) @ self.c2.astype(f64)
                 + np.einsum("...i,...i->...", v @ self.W1, h1, dtype=f64)
                 + np.einsum("...i,...i->...", h1 @ self.W2, h2, dtype=f64))

    def field_h1(self, v, h2) -> np.ndarray:
        """Pre-activation of h1 given (v, h2): ``v W1 + h2 W2^T + c1``."""
        return v @ self.W1 + h2 @ self.W2.T + self.c1

    def field_v(self, h1) -> np.ndarray:
        return h1 @ self.W1.T + self.b

    def field_h2(self, h1) -> np.ndarray:
        return h1 @ self.W2 + self.c2


def _check_beta(beta) -> float:
    beta = float(beta)
    if not 0.0 <= beta <= 1.0:
        raise ValueError(f"inverse temperature beta must be in [0, 1], got {beta}")
    return beta


def _bases(dbm: DBM, base_bias) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Logits ``(a, a1, a2)`` of the base distribution on (v, h1, h2), float64.

    ``base_bias`` is None (uniform), an array (D,) (base on v, uniform hidden
    layers), or a triple ``(a, a1, a2)`` whose entries may be None (zeros).
    """
    D, F1, F2 = dbm.shape
    parts = (base_bias, None, None) if base_bias is None or not isinstance(base_bias, (tuple, list)) else tuple(base_bias)
    if len(parts) != 3:
        raise ValueError("base_bias must be None, an array (D,) or a triple (a_v, a_h1, a_h2)")
    out = []
    for x, n, name in zip(parts, (D, F1, F2), ("v", "h1", "h2")):
        a = np.zeros(n) if x is None else np.asarray(x, dtype=np.float64)
        if a.shape != (n,):
            raise ValueError(f"base logits of {name} must have shape ({n},), got {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"base logits of {name} contain non-finite values")
        out.append(a)
    return tuple(out)


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
        Logits of the base product of Bernoullis (None: uniform), see :func:`_bases`.
    field_h1 : array (n, F1), optional
        ``v W1 + h2 W2^T + c1`` if already computed (it does not depend on beta).

    Returns
    -------
    array (n,), float64
    """
    beta = _check_beta(beta)
    a, a1, a2 = _bases(dbm, base_bias)
    v = np.asarray(v, dtype=np.float64)
    h2 = np.asarray(h2, dtype=np.float64)
    if field_h1 is None:
        field_h1 = v @ dbm.W1.astype(np.float64) + h2 @ dbm.W2.T.astype(np.float64) + dbm.c1
    field_h1 = np.asarray(field_h1, dtype=np.float64)
    return (v @ (beta * dbm.b.astype(np.float64) + (1.0 - beta) * a)
            + h2 @ (beta * dbm.c2.astype(np.float64) + (1.0 - beta) * a2)
            + softplus(beta * field_h1 + (1.0 - beta) * a1).sum(axis=-1))


def base_log_partition(dbm: DBM, base_bias=None) -> float:
    """log Z at beta = 0: ``sum softplus(a) + sum softplus(a1) + sum softplus(a2)``
    (``(F1 + F2) log 2`` for uniform hidden layers)."""
    return float(sum(softplus(x).sum() for x in _bases(dbm, base_bias)))


def sample_base(dbm: DBM, n: int, rng: np.random.Generator, base_bias=None, dtype=None):
    """n exact draws of (v, h1, h2) from the beta = 0 member of the family."""
    D, F1, F2 = dbm.shape
    dtype = dbm.dtype if dtype is None else dtype
    a, a1, a2 = _bases(dbm, base_bias)
    return tuple((rng.random((n, x.size)) < sigmoid(x)).astype(dtype) for x in (a, a1, a2))


# -- exact enumeration --------------------------------------------------------
def _check_enum(n: int, what: str) -> None:
    if n > MAX_ENUM_UNITS:
        raise ValueError(f"exact enumeration over {what} needs 2^{n} states; at most 2^{MAX_ENUM_UNITS} are allowed")


def log_partition_exact(dbm: DBM, beta: float = 1.0, base_bias=None) -> float:
    """Exact log Z of the tempered DBM by enumerating h1 (v and h2 summed out).

    ``log Z = logsumexp_h1 [(beta c1 + (1-beta) a1).h1 + sum_i softplus(beta (b + W1 h1)_i + (1-beta) a_i)
    + sum_k softplus(beta (c2 + h1 W2)_k + (1-beta) a2_k)]``; feasible for F1 <= 20.
    """
    beta = _check_beta(beta)
    a, a1, a2 = _bases(dbm, base_bias)
    D, F1, F2 = dbm.shape
    _check_enum(F1, "h1")
    W1, W2 = dbm.W1.astype(np.float64), dbm.W2.astype(np.float64)
    b, c1, c2 = (x.astype(np.float64) for x in (dbm.b, dbm.c1, dbm.c2))
    H = all_states(F1)
    parts = []
    for s in range(0, H.shape[0], _CHUNK):
        h1 = H[s:s + _CHUNK].astype(np.float64)
        t = (h1 @ (beta * c1 + (1.0 - beta) * a1) + softplus(beta * (h1 @ W1.T + b) + (1.0 - beta) * a).sum(axis=1)
             + softplus(beta * (h1 @ W2 + c2) + (1.0 - beta) * a2).sum(axis=1))
        parts.append(logsumexp(t))
    return float(logsumexp(parts))


def log_unnormalized_v_exact(dbm: DBM, V) -> np.ndarray:
    """Exact ``log sum_{h1,h2} exp(-E(v, h1, h2))`` per row of V, enumerating h2 (F2 <= 20)."""
    V = np.atleast_2d(np.asarray(V, dtype=np.float64))
    D, F1, F2 = dbm.shape
    _check_enum(F2, "h2")
    W1, W2 = dbm.W1.astype(np.float64), dbm.W2.astype(np.float64)
    b, c1, c2 = (x.astype(np.float64) for x in (dbm.b, dbm.c1, dbm.c2))
    H2 = all_states(F2).astype(np.float64)
    base = V @ W1 + c1  # (n, F1)
    out = np.empty(V.shape[0])
    for i in range(V.shape[0]):
        t = H2 @ c2 + softplus(base[i] + H2 @ W2.T).sum(axis=1)
        out[i] = V[i] @ b + logsumexp(t)
    return out


def log_prob_v_exact(dbm: DBM, V, log_z: float | None = None) -> np.ndarray:
    """Exact log p(v) per row of V (needs F1 <= 20 for log Z and F2 <= 20)."""
    if log_z is None:
        log_z = log_partition_exact(dbm)
    return log_unnormalized_v_exact(dbm, V) - log_z


def joint_log_probabilities(dbm: DBM, beta: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """All joint states (v, h1, h2) as rows (ordered as ``all_states(D+F1+F2)``)
    and their exact log-probabilities under ``p_beta ∝ exp(-beta E)``.
    Only for tiny models (D + F1 + F2 <= 20)."""
    D, F1, F2 = dbm.shape
    _check_enum(D + F1 + F2, "(v, h1, h2)")
    X = all_states(D + F1 + F2).astype(np.float64)
    lp = -_check_beta(beta) * dbm.energy(X[:, :D], X[:, D:D + F1], X[:, D + F1:])
    return X, lp - logsumexp(lp)


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
    if init is None:
        mu1 = expit(2.0 * VW1 + dbm.c1)
        mu2 = expit(mu1 @ dbm.W2 + dbm.c2)
    else:
        mu1, mu2 = (np.array(m, dtype=dt) for m in init)
    for _ in range(int(n_iter)):
        new1 = expit(vW1 + mu2 @ dbm.W2.T)
        if damping:
            new1 = damping * mu1 + (1.0 - damping) * new1
        new2 = expit(new1 @ dbm.W2 + dbm.c2)
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
    from scipy.special import xlogy

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


# -- Gibbs sampling through the sampling core --------------------------------
@dataclass
class DBMChains:
    """Mutable states of ``n`` DBM chains, rows of ``v`` (n, D), ``h1`` (n, F1), ``h2`` (n, F2)."""

    v: np.ndarray
    h1: np.ndarray
    h2: np.ndarray

    @property
    def n_chains(self) -> int:
        return self.v.shape[0]

    def copy(self) -> "DBMChains":
        return DBMChains(self.v.copy(), self.h1.copy(), self.h2.copy())

    def take(self, idx) -> "DBMChains":
        return DBMChains(self.v[idx].copy(), self.h1[idx].copy(), self.h2[idx].copy())

    def put(self, idx, other: "DBMChains") -> None:
        self.v[idx] = other.v
        self.h1[idx] = other.h1
        self.h2[idx] = other.h2


def random_chains(dbm: DBM, n_chains: int, rng: np.random.Generator, p: float = 0.5) -> DBMChains:
    """Chains initialised with independent Bernoulli(p) units."""
    D, F1, F2 = dbm.shape
    dt = dbm.dtype
    return DBMChains(*((rng.random((n_chains, n)) < p).astype(dt) for n in (D, F1, F2)))


def _gibbs_operator(operator):
    if operator is not None:
        return operator
    from bmrep.sampling.operators import Gibbs

    return Gibbs()


def gibbs_sweep(dbm: DBM, chains: DBMChains, streams, *, betas=None, base_bias=None, operator=None,
                reverse: bool = False, n_threads: int = 1, field_h1=None) -> np.ndarray:
    """One Gibbs sweep of every chain, in place: h1 | (v, h2), then v, h2 | h1.

    Each block's pre-activation is computed by BLAS and the units are drawn
    by the sampling core's compiled ``operator.update_layer`` with per-chain
    inverse temperatures ``betas`` (conditional ``sigmoid(beta * field +
    (1 - beta) * base_field)``, base fields from ``base_bias``, see :func:`_bases`).
    The returned energy is E of eq. (1), whatever the base.

    Parameters
    ----------
    reverse : bool
        Update (v, h2) first, then h1: the reverse of the forward sweep, as
        tempered transitions need (Neal 1996).
    field_h1 : array (n_chains, F1), optional
        ``v W1 + h2 W2^T + c1`` of the current state if already computed
        (forward sweep only; AIS reuses the product of its weight increment).

    Returns
    -------
    energy : array (n_chains,), float64
        E(v, h1, h2) of the new states (computed from the fields at no extra
        matrix-product cost when ``reverse`` is False).
    """
    op = _gibbs_operator(operator)
    dt = dbm.dtype
    base_v = base_1 = base_2 = None
    if base_bias is not None:
        base_v, base_1, base_2 = (np.ascontiguousarray(x, dtype=dt) for x in _bases(dbm, base_bias))

    def upd_h1(f1=None):
        if f1 is None:
            f1 = chains.v @ dbm.W1 + chains.h2 @ dbm.W2.T + dbm.c1
        op.update_layer(chains.h1, f1, streams, betas=betas, base_field=base_1, n_threads=n_threads)
        return f1

    def upd_v_h2():
        fv = chains.h1 @ dbm.W1.T + dbm.b
        op.update_layer(chains.v, fv, streams, betas=betas, base_field=base_v, n_threads=n_threads)
        f2 = chains.h1 @ dbm.W2 + dbm.c2
        op.update_layer(chains.h2, f2, streams, betas=betas, base_field=base_2, n_threads=n_threads)
        return fv, f2

    if not reverse:
        upd_h1(field_h1)
        fv, f2 = upd_v_h2()
        # E = -v.(b + W1 h1) - h2.(c2 + h1 W2) - c1.h1, all from the fields just used
        return -(np.einsum("ij,ij->i", chains.v, fv, dtype=np.float64)
                 + np.einsum("ij,ij->i", chains.h2, f2, dtype=np.float64)
                 + chains.h1.astype(np.float64) @ dbm.c1.astype(np.float64))
    upd_v_h2()
    f1 = upd_h1()
    return -(np.einsum("ij,ij->i", chains.h1, f1, dtype=np.float64)
             + chains.v.astype(np.float64) @ dbm.b.astype(np.float64)
             + chains.h2.astype(np.float64) @ dbm.c2.astype(np.float64))


# -- AIS over {v, h2} with h1 summed out (through bmrep.estimators.ais) --------
class DBMAnnealingState:
    """AIS chains of a DBM and the cached pre-activation of h1.

    ``log_f`` of the increment and the h1 update of the next transition need
    the same product ``v W1 + h2 W2^T + c1``; it is computed once per step.
    """

    def __init__(self, dbm: DBM, chains: DBMChains, streams, base_bias, operator, n_threads: int = 1):
        self.dbm = dbm
        self.chains = chains
        self.streams = streams
        self.base_bias = _bases(dbm, base_bias)
        self.operator = operator
        self.n_threads = int(n_threads)
        self._field = None

    @property
    def field_h1(self) -> np.ndarray:
        if self._field is None:
            c, d = self.chains, self.dbm
            self._field = c.v @ d.W1 + c.h2 @ d.W2.T + d.c1
        return self._field

    def log_f_pair(self, beta_a: float, beta_b: float):
        c = self.chains
        return (tempered_log_f(self.dbm, c.v, c.h2, beta_a, self.base_bias, self.field_h1),
                tempered_log_f(self.dbm, c.v, c.h2, beta_b, self.base_bias, self.field_h1))

    def sweep(self, beta: float) -> "DBMAnnealingState":
        betas = np.full(self.chains.n_chains, beta, dtype=self.dbm.dtype)
        gibbs_sweep(self.dbm, self.chains, self.streams, betas=betas, base_bias=self.base_bias,
                    operator=self.operator, n_threads=self.n_threads, field_h1=self.field_h1)
        self._field = None
        return self


def tempered_log_f_h1(dbm: DBM, h1, beta: float = 1.0, base_bias=None, field_v=None, field_h2=None) -> np.ndarray:
    """``log f_beta(h1)``: the tempered DBM with v and h2 summed out analytically.

    ``(beta c1 + (1 - beta) a1).h1 + sum_i softplus(beta (b + W1 h1)_i + (1 - beta) a_i)
    + sum_k softplus(beta (c2 + h1 W2)_k + (1 - beta) a2_k)``; the fields
    ``h1 W1^T + b`` and ``h1 W2 + c2`` (beta-independent) may be passed in.
    """
    beta = _check_beta(beta)
    a, a1, a2 = _bases(dbm, base_bias)
    h1 = np.asarray(h1, dtype=np.float64)
    if field_v is None:
        field_v = h1 @ dbm.W1.T.astype(np.float64) + dbm.b
    if field_h2 is None:
        field_h2 = h1 @ dbm.W2.astype(np.float64) + dbm.c2
    fv = np.asarray(field_v, dtype=np.float64)
    f2 = np.asarray(field_h2, dtype=np.float64)
    return (h1 @ (beta * dbm.c1.astype(np.float64) + (1.0 - beta) * a1)
            + softplus(beta * fv + (1.0 - beta) * a).sum(axis=-1) + softplus(beta * f2 + (1.0 - beta) * a2).sum(axis=-1))


class DBMAnnealingStateH1(DBMAnnealingState):
    """AIS chains whose annealed state is h1 alone (v and h2 summed out), with the
    cached fields ``h1 W1^T + b`` and ``h1 W2 + c2``: one step samples v, h2 | h1
    with those fields, then h1 | v, h2."""

    @property
    def fields_given_h1(self):
        if self._field is None:
            c, d = self.chains, self.dbm
            self._field = (c.h1 @ d.W1.T + d.b, c.h1 @ d.W2 + d.c2)
        return self._field

    def log_f_pair(self, beta_a: float, beta_b: float):
        fv, f2 = self.fields_given_h1
        h1 = self.chains.h1
        return (tempered_log_f_h1(self.dbm, h1, beta_a, self.base_bias, fv, f2),
                tempered_log_f_h1(self.dbm, h1, beta_b, self.base_bias, fv, f2))

    def sweep(self, beta: float) -> "DBMAnnealingStateH1":
        c, d = self.chains, self.dbm
        betas = np.full(c.n_chains, beta, dtype=d.dtype)
        fv, f2 = self.fields_given_h1
        a, a1, a2 = (x.astype(d.dtype) for x in self.base_bias)
        self.operator.update_layer(c.v, fv, self.streams, betas=betas, base_field=a, n_threads=self.n_threads)
        self.operator.update_layer(c.h2, f2, self.streams, betas=betas, base_field=a2, n_threads=self.n_threads)
        f1 = c.v @ d.W1 + c.h2 @ d.W2.T + d.c1
        self.operator.update_layer(c.h1, f1, self.streams, betas=betas, base_field=a1, n_threads=self.n_threads)
        self._field = None
        return self


def dbm_annealing_model(dbm: DBM, base_bias=None, *, operator=None, dtype=np.float64, n_threads: int = 1,
                        state: str = "v_h2"):
    """The tempered DBM family as ``(init_sample, transition, log_f_pair, log_z_base)``
    for :func:`bmrep.estimators.ais.ais_log_weights`.

    The AIS state is (v, h2) with h1 summed out in ``log_f``
    (:func:`tempered_log_f`); the transition at beta is one Gibbs sweep
    h1 | (v, h2), then v, h2 | h1, which leaves the {v, h2} marginal of
    ``p_beta`` invariant. ``init_sample(n, streams)`` draws exactly from the
    base (v ~ Bernoulli(sigmoid(a)), h uniform) with the chains' own streams.

    ``state="h1"`` instead anneals h1 alone with v and h2 summed out
    (:func:`tempered_log_f_h1`): given h1 the two other layers are
    independent, so this integrates 1284 of the 1784 units of a 784-500-1000
    DBM analytically instead of 500 (lower variance at the same cost).
    """
    if state not in ("v_h2", "h1"):
        raise ValueError(f"AIS state must be 'v_h2' (h1 summed out) or 'h1' (v, h2 summed out), got {state!r}")
    state_cls = DBMAnnealingState if state == "v_h2" else DBMAnnealingStateH1
    op = _gibbs_operator(operator)
    model = dbm.astype(dtype)
    bases = _bases(dbm, base_bias)
    D, F1, F2 = dbm.shape

    def init_sample(n, streams):
        if len(streams) != n:
            raise ValueError(f"need one stream per AIS run: {len(streams)} streams for {n} runs")
        ch = DBMChains(np.zeros((n, D), dtype), np.zeros((n, F1), dtype), np.zeros((n, F2), dtype))
        zeros = np.zeros(n, dtype=dtype)
        for x, base in zip((ch.v, ch.h1, ch.h2), bases):  # a layer update at beta = 0 draws sigmoid(base) exactly
            op.update_layer(x, np.zeros_like(x), streams, betas=zeros, base_field=base.astype(dtype), n_threads=n_threads)
        return state_cls(model, ch, streams, bases, op, n_threads)

    def transition(state, beta):
        return state.sweep(beta)

    def log_f_pair(state, b0, b1):
        return state.log_f_pair(b0, b1)

    return init_sample, transition, log_f_pair, base_log_partition(dbm, bases)


def ais_log_partition(dbm: DBM, n_runs: int, betas, streams, base_bias=None, *, operator=None,
                      dtype=np.float64, n_threads: int = 1, state: str = "v_h2", record_partial: bool = False):
    """AIS estimate of a DBM's log Z over {v, h2}, h1 summed out (Salakhutdinov & Hinton 2009).

    Uses the project's single AIS driver, :func:`bmrep.estimators.ais.ais_log_weights`;
    log weights accumulate in float64 whatever ``dtype`` the chains use.
    ``record_partial`` also returns the estimate of every intermediate
    ``log Z_k`` (``AISRun.partial_log_z``), e.g. to locate where along the
    ladder an estimate drifts from exact values.

    Returns
    -------
    bmrep.estimators.ais.AISRun
    """
    from bmrep.estimators.ais import ais_log_weights

    init_sample, transition, log_f_pair, log_z0 = dbm_annealing_model(
        dbm, base_bias, operator=operator, dtype=dtype, n_threads=n_threads, state=state)
    return ais_log_weights(np.asarray(betas, dtype=np.float64), n_runs=n_runs, rng=streams, init_sample=init_sample,
                           transition=transition, log_f_pair=log_f_pair, log_z_base=log_z0,
                           record_partial=record_partial)


def data_base_bias(X, eps: float = 0.02) -> np.ndarray:
    """Logits of the training data's pixel means (clipped to [eps, 1-eps]): the AIS base
    distribution of Salakhutdinov & Murray (2008)."""
    p = np.clip(np.asarray(X, dtype=np.float64).mean(axis=0), eps, 1.0 - eps)
    return np.log(p) - np.log1p(-p)


def data_base_biases(dbm: DBM, X, n_mean_field: int = 10, eps: float = 0.02):
    """Base logits for all three layers: data pixel means on v and the mean-field
    posterior means on h1 and h2 averaged over X (clipped to [eps, 1-eps]).

    A base whose hidden layers already look like the data-driven regime keeps
    the annealing path away from the abrupt ordering of strongly coupled
    hidden units that a uniform hidden base has to cross.
    """
    mu1, mu2 = mean_field(dbm, np.asarray(X, dtype=dbm.dtype), n_iter=n_mean_field)
    return tuple(data_base_bias(m, eps) for m in (X, mu1, mu2))


__all__ = [
    "DBM",
    "DBMAnnealingState",
    "dbm_annealing_model",
    "DBMAnnealingStateH1",
    "tempered_log_f_h1",
    "ais_log_partition",
    "data_base_bias",
    "data_base_biases",
    "DBMChains",
    "random_chains",
    "gibbs_sweep",
    "tempered_log_f",
    "base_log_partition",
    "sample_base",
    "log_partition_exact",
    "log_unnormalized_v_exact",
    "log_prob_v_exact",
    "joint_log_probabilities",
    "mean_field",
    "variational_bound",
    "bernoulli_entropy",
]
