"""Binary restricted Boltzmann machine (units in {0, 1}).

Energy (Brügge et al. 2013, eq. 1; Salakhutdinov 2010, eq. 1)::

    E(v, h) = -b.v - c.h - v.W.h,      W of shape (n_visible, n_hidden).

The tempered family used by parallel tempering, simulated tempering and AIS
(Carlson et al. 2016, eq. 2; Salakhutdinov & Murray 2008, eq. 11) is::

    p_beta(v, h)  ∝  exp(-beta E(v, h) + (1 - beta) a.v),

i.e. a geometric path between the RBM (beta = 1) and a base distribution p1
that is a product of Bernoullis on v with logits ``a = base_bias`` (zeros:
uniform) and uniform on h.

All functions accept a single state (1-d) or a batch of states (2-d, one per
row) and are numerically safe for weights of magnitude 50 and more: every
logistic function is ``scipy.special.expit`` and every sum of
``log(1 + exp(x))`` over units (a layer summed out) is
:func:`bmrep.special.softplus_sum_` (compiled, within 2 ulp of
``scipy.special.softplus`` and ten times faster), both without overflow.

Mutability: :class:`RBM` is a frozen dataclass (its fields cannot be
reassigned), but its arrays are ordinary writable numpy arrays, and
:meth:`RBM.params` returns the live arrays, so an optimiser's in-place
``opt.step(rbm.params(), grads)`` updates the model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from bmrep.special import softplus_sum_


def _float_dtype(*arrays) -> np.dtype:
    """float32 only if every array is already float32, else float64."""
    if all(np.asarray(a).dtype == np.float32 for a in arrays):
        return np.dtype(np.float32)
    return np.dtype(np.float64)


@dataclass(frozen=True, eq=False)
class RBM:
    """Binary RBM with weights ``W`` (n_visible, n_hidden), visible biases ``b``, hidden biases ``c``.

    Arrays are float64 (float32 only when all three are given as float32, e.g.
    by :meth:`astype`), C-contiguous, and owned by the model.
    """

    W: np.ndarray
    b: np.ndarray
    c: np.ndarray

    def __post_init__(self):
        dt = _float_dtype(self.W, self.b, self.c)
        W = np.ascontiguousarray(self.W, dtype=dt)
        b = np.ascontiguousarray(self.b, dtype=dt)
        c = np.ascontiguousarray(self.c, dtype=dt)
        if W.ndim != 2:
            raise ValueError(f"W must be 2-d (n_visible, n_hidden), got shape {W.shape}")
        if b.shape != (W.shape[0],):
            raise ValueError(f"b must have shape ({W.shape[0]},), got {b.shape}")
        if c.shape != (W.shape[1],):
            raise ValueError(f"c must have shape ({W.shape[1]},), got {c.shape}")
        for name, a in (("W", W), ("b", b), ("c", c)):
            if not np.all(np.isfinite(a)):
                raise ValueError(f"RBM parameter {name} contains non-finite values")
        object.__setattr__(self, "W", W)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "c", c)

    # ------------------------------------------------------------------ build
    @classmethod
    def random(cls, n_visible: int, n_hidden: int, rng: np.random.Generator, scale: float = 0.01) -> RBM:
        """Weights N(0, scale^2), zero biases (Brügge et al. 2013, sec. 4.2)."""
        if n_visible < 1 or n_hidden < 1:
            raise ValueError(f"need n_visible, n_hidden >= 1, got {n_visible}, {n_hidden}")
        if scale < 0:
            raise ValueError(f"scale must be >= 0, got {scale}")
        W = rng.normal(0.0, scale, size=(n_visible, n_hidden))
        return cls(W, np.zeros(n_visible), np.zeros(n_hidden))

    @classmethod
    def from_params(cls, params: dict) -> RBM:
        """Build from a dict with keys ``"W"``, ``"b"``, ``"c"`` (arrays are copied)."""
        missing = {"W", "b", "c"} - set(params)
        if missing:
            raise KeyError(f"RBM.from_params: missing keys {sorted(missing)}")
        return cls(np.array(params["W"]), np.array(params["b"]), np.array(params["c"]))

    def params(self) -> dict:
        """The live parameter arrays ``{"W", "b", "c"}`` (not copies)."""
        return {"W": self.W, "b": self.b, "c": self.c}

    def copy(self) -> RBM:
        return RBM(self.W.copy(), self.b.copy(), self.c.copy())

    def astype(self, dtype) -> RBM:
        """The same model with arrays of ``dtype`` (float32 or float64); self if unchanged."""
        dt = np.dtype(dtype)
        if dt not in (np.float32, np.float64):
            raise ValueError(f"RBM dtype must be float32 or float64, got {dt}")
        if self.W.dtype == dt:
            return self
        return RBM(self.W.astype(dt), self.b.astype(dt), self.c.astype(dt))

    @property
    def n_visible(self) -> int:
        return self.W.shape[0]

    @property
    def n_hidden(self) -> int:
        return self.W.shape[1]

    @property
    def dtype(self) -> np.dtype:
        return self.W.dtype

    # ------------------------------------------------------------- functions
    def energy(self, v, h) -> np.ndarray:
        """``E(v, h) = -b.v - c.h - v.W.h`` (float64), per row for batches."""
        v = np.asarray(v, dtype=np.float64)
        h = np.asarray(h, dtype=np.float64)
        W, b, c = _params64(self)
        return -(v @ b) - (h @ c) - np.sum((v @ W) * h, axis=-1)

    def free_energy_v(self, v) -> np.ndarray:
        """``F(v) = -b.v - sum_j softplus(c_j + (vW)_j)``, so ``p(v) ∝ exp(-F(v))``."""
        return tempered_free_energy_v(self, v, 1.0, None)

    def free_energy_h(self, h) -> np.ndarray:
        """``F(h) = -c.h - sum_i softplus(b_i + (W h)_i)``, so ``p(h) ∝ exp(-F(h))``."""
        return tempered_free_energy_h(self, h, 1.0, None)

    def prob_h_given_v(self, v, beta: float = 1.0) -> np.ndarray:
        """``P(h_j = 1 | v) = sigmoid(beta (c_j + (vW)_j))``."""
        v = np.asarray(v, dtype=self.dtype)
        x = v @ self.W + self.c
        return expit(x if beta == 1.0 else beta * x).astype(self.dtype, copy=False)  # 1.0 * x is x: one pass less

    def prob_v_given_h(self, h, beta: float = 1.0, base_bias=None) -> np.ndarray:
        """``P(v_i = 1 | h) = sigmoid(beta (b_i + (W h)_i) + (1 - beta) a_i)``, a = base_bias."""
        h = np.asarray(h, dtype=self.dtype)
        x = beta * (h @ self.W.T + self.b)
        if base_bias is not None and beta != 1.0:
            x = x + (1.0 - beta) * np.asarray(base_bias, dtype=self.dtype)
        return expit(x).astype(self.dtype, copy=False)


def _check_beta(beta) -> float:
    beta = float(beta)
    if not 0.0 <= beta <= 1.0:
        raise ValueError(f"inverse temperature beta must be in [0, 1], got {beta}")
    return beta


def _base(rbm: RBM, base_bias) -> np.ndarray:
    if base_bias is None:
        return np.zeros(rbm.n_visible)
    a = np.asarray(base_bias, dtype=np.float64)
    if a.shape != (rbm.n_visible,):
        raise ValueError(f"base_bias must have shape ({rbm.n_visible},), got {a.shape}")
    return a


def _params64(rbm: RBM) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(W, b, c)`` as float64 (no copy when they already are)."""
    return tuple(x.astype(np.float64, copy=False) for x in (rbm.W, rbm.b, rbm.c))


def tempered_free_energy_v(rbm: RBM, v, beta: float = 1.0, base_bias=None) -> np.ndarray:
    """Free energy of v under ``p_beta`` with h summed out (float64).

    ``F_beta(v) = -(beta b + (1 - beta) a).v - sum_j softplus(beta (c_j + (vW)_j))``
    so that ``p_beta(v) ∝ exp(-F_beta(v))`` (Carlson et al. 2016, eq. 2;
    Salakhutdinov & Murray 2008, eq. 13). At beta = 0 this is
    ``-a.v - n_hidden log 2``, the log-normaliser of the base distribution
    being ``sum_i softplus(a_i) + n_hidden log 2``.
    """
    beta = _check_beta(beta)
    v = np.asarray(v, dtype=np.float64)
    W, b, c = _params64(rbm)
    # at beta = 1 without a base the products by 1 and 0 are skipped: the same values, fewer passes
    # over the (states x units) arrays of exact log Z's hot loop
    plain = beta == 1.0 and base_bias is None
    lin = v @ (b if plain else beta * b + (1.0 - beta) * _base(rbm, base_bias))
    x = v @ W + c
    return -lin - softplus_sum_(x if plain else beta * x)


def tempered_free_energy_h(rbm: RBM, h, beta: float = 1.0, base_bias=None) -> np.ndarray:
    """Free energy of h under ``p_beta`` with v summed out (float64).

    ``F_beta(h) = -beta c.h - sum_i softplus(beta (b_i + (W h)_i) + (1 - beta) a_i)``.
    """
    beta = _check_beta(beta)
    a = _base(rbm, base_bias)
    h = np.asarray(h, dtype=np.float64)
    W, b, c = _params64(rbm)
    return -beta * (h @ c) - softplus_sum_(beta * (h @ W.T + b) + (1.0 - beta) * a)


def tempered_log_unnormalized(rbm: RBM, v, h, beta: float = 1.0, base_bias=None) -> np.ndarray:
    """``-beta E(v, h) + (1 - beta) a.v``, the log of the unnormalised ``p_beta(v, h)``."""
    beta = _check_beta(beta)
    a = _base(rbm, base_bias)
    v = np.asarray(v, dtype=np.float64)
    return -beta * rbm.energy(v, h) + (1.0 - beta) * (v @ a)


def tempered_delta(rbm: RBM, v, h, base_bias=None) -> np.ndarray:
    """``Delta(v, h) = -E(v, h) - a.v`` (float64), the one sign convention of every tempering method.

    ``log p_beta(v, h) = beta Delta(v, h) + a.v + const`` (Carlson et al. 2016,
    eq. 2), so Delta rises with the model's log-density: simulated tempering's
    temperature conditional (eq. 7), the RTS and TI estimators and the
    parallel-tempering swap all read it.
    """
    if base_bias is None:  # a = 0: the same values as subtracting v.0, without the product
        return -rbm.energy(v, h)
    a = _base(rbm, base_bias)
    return -rbm.energy(v, h) - np.asarray(v, dtype=np.float64) @ a


__all__ = [
    "RBM",
    "tempered_free_energy_v",
    "tempered_free_energy_h",
    "tempered_log_unnormalized",
    "tempered_delta",
]
