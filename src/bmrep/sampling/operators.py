"""Transition operators for layer-wise sampling of binary units.

``Gibbs()`` (G), ``FlipTheState()`` (T, Brügge et al. 2013, Def. 1 and
sec. 3.1) and ``Blend(alpha)`` (per unit ``alpha T + (1 - alpha) G``) share one
interface, so every learning or estimation algorithm takes the operator as a
parameter:

* ``op.sweep(rbm, v, h, streams, betas=None, base_bias=None, n_sweeps=1, n_threads=1)``
  updates the chains' states in place, hidden layer then visible layer.
* ``op.update_layer(state, field, streams, betas=None, base_field=None, n_threads=1)``
  is the compiled primitive for any model with layer-wise conditional
  independence (DBMs): the unit's log-odds is
  ``beta * field + (1 - beta) * base_field``.
* ``op.flip_probabilities(state, p_on)`` is the probability that a unit
  changes state given its current value and ``p_on = P(x_i = 1 | rest)``;
  the exact transition matrices and the tests are built from it.

Per-chain inverse temperatures ``betas`` and base-rate biases implement the
tempered family ``p_beta ∝ exp(-beta E + (1 - beta) a.v)`` of
Carlson et al. (2016, eq. 2), so tempering and AIS use the same kernels.

States are float arrays of 0.0/1.0 values (float64 or float32), one chain
per row, C-contiguous; chain i draws only from stream i of ``streams``, so the
result is identical for any ``n_threads``.
"""

from __future__ import annotations

import numpy as np

from bmrep.models.rbm import RBM
from bmrep.sampling import _kernels
from bmrep.sampling.streams import ChainStreams

_MODE_GIBBS, _MODE_FLIP, _MODE_BLEND = 0, 1, 2
_FLOATS = (np.dtype(np.float64), np.dtype(np.float32))


def _check_state(name: str, x, n_chains: int | None = None) -> np.ndarray:
    if not isinstance(x, np.ndarray) or x.dtype not in _FLOATS:
        raise TypeError(f"{name} must be a float64 or float32 numpy array, got {getattr(x, 'dtype', type(x))}")
    if x.ndim != 2:
        raise ValueError(f"{name} must be 2-d (n_chains, n_units), got shape {x.shape}")
    if not x.flags.c_contiguous or not x.flags.writeable:
        raise ValueError(f"{name} must be C-contiguous and writeable (it is updated in place)")
    if n_chains is not None and x.shape[0] != n_chains:
        raise ValueError(f"{name} has {x.shape[0]} chains, expected {n_chains}")
    return x


def _betas(betas, n_chains: int, dtype):
    if betas is None:
        return None
    betas = np.ascontiguousarray(betas, dtype=dtype)
    if betas.ndim == 0:
        betas = np.full(n_chains, betas, dtype=dtype)
    if betas.shape != (n_chains,):
        raise ValueError(f"betas must have shape ({n_chains},), got {betas.shape}")
    if not (betas.min() >= 0.0 and betas.max() <= 1.0):
        raise ValueError("inverse temperatures betas must lie in [0, 1]")
    return betas


def _vector(name: str, a, n: int, dtype):
    if a is None:
        return None
    a = np.ascontiguousarray(a, dtype=dtype)
    if a.shape != (n,):
        raise ValueError(f"{name} must have shape ({n},), got {a.shape}")
    return a


def _streams(streams: ChainStreams, n_chains: int) -> np.ndarray:
    if not isinstance(streams, ChainStreams):
        raise TypeError(f"streams must be a ChainStreams, got {type(streams).__name__}")
    if len(streams) != n_chains:
        raise ValueError(f"{len(streams)} streams for {n_chains} chains (need one per chain)")
    return streams.pointers


class Operator:
    """Base class: a layer-wise transition operator (see module docstring).

    Subclasses set the compiled kernel's mode and ``alpha``; every operator
    is a point of the family ``alpha T + (1 - alpha) G``, which fixes its
    exact form (:meth:`flip_probabilities`).
    """

    _mode = _MODE_GIBBS
    alpha = 0.0
    name = "operator"

    # ------------------------------------------------------------ exact form
    def flip_probabilities(self, state, p_on) -> np.ndarray:
        """Probability that each unit changes state: ``alpha q_T + (1 - alpha) q_G`` (vectorised numpy).

        ``p_on = P(x_i = 1 | rest)``. G (``alpha = 0``) and T (``alpha = 1``)
        are the ends of the blend of Brügge et al. (2013): there the other
        term, finite for ``p_on`` in [0, 1], is multiplied by an exact 0, so
        the result is q_G or q_T to the bit. The exact transition matrices are
        built from it.
        """
        return self.alpha * _flip_the_state_flip(state, p_on) + (1.0 - self.alpha) * _gibbs_flip(state, p_on)

    # -------------------------------------------------------------- compiled
    def update_layer(self, state, field, streams: ChainStreams, betas=None, base_field=None, n_threads: int = 1):
        """Update ``state`` (n_chains, n_units) in place.

        Parameters
        ----------
        state : ndarray (n_chains, n_units), float64 or float32, 0/1 values
        field : ndarray like ``state``
            Pre-activation (bias included), e.g. ``c + v @ W``.
        streams : ChainStreams, one stream per chain
        betas : ndarray (n_chains,) in [0, 1] or None (all 1)
        base_field : ndarray (n_units,) or None (zeros)
            The unit's log-odds is ``beta * field + (1 - beta) * base_field``.
        n_threads : int
            Threads over chains; the result does not depend on it.
        """
        state = _check_state("state", state)
        nc, n = state.shape
        field = np.ascontiguousarray(field, dtype=state.dtype)
        if field.shape != state.shape:
            raise ValueError(f"field shape {field.shape} != state shape {state.shape}")
        _kernels.update_layer(
            state,
            field,
            None,
            _vector("base_field", base_field, n, state.dtype),
            _betas(betas, nc, state.dtype),
            _streams(streams, nc),
            self._mode,
            float(self.alpha),
            int(n_threads),
        )
        return state

    def sweep(
        self,
        rbm: RBM,
        v,
        h,
        streams: ChainStreams,
        betas=None,
        base_bias=None,
        n_sweeps: int = 1,
        n_threads: int = 1,
        hidden_field=None,
        visible_product=None,
    ):
        """``n_sweeps`` sweeps of an RBM (hidden given v, then visible given h), in place.

        The one RBM sweep of the package: Gibbs sampling, CD/PCD, parallel
        tempering, AIS, RAISE and simulated tempering
        (:class:`bmrep.sampling.tempered_rbm.TemperedRBMChains`) all call it.

        Parameters
        ----------
        rbm : RBM
            Cast to the dtype of ``v`` (pass ``rbm.astype(np.float32)`` once for
            a float32 run to avoid a cast per call).
        v, h : ndarray (n_chains, n_visible), (n_chains, n_hidden)
            Chain states, same dtype (float64 or float32), C-contiguous.
        streams : ChainStreams
            One stream per chain.
        betas : ndarray (n_chains,) or None
            Per-chain inverse temperature: ``P(h_j=1|v) = sigmoid(beta (c_j + vW_j))``,
            ``P(v_i=1|h) = sigmoid(beta (b_i + W_i h) + (1-beta) a_i)``.
        base_bias : ndarray (n_visible,) or None
            Logits ``a`` of the base distribution on v (Carlson et al. 2016, eq. 2).
        n_sweeps : int
        n_threads : int
            Threads over chains (``prange``); the result does not depend on it.
        hidden_field : ndarray (n_chains, n_hidden) or None
            ``c + v W`` of the current chains when the caller has it already
            (AIS computes it for its weights); the first sweep uses it instead
            of a product. Same dtype as ``v``.
        visible_product : ndarray (n_chains, n_visible) or None
            Receives ``h W^T`` of the last sweep (the visible field without
            ``b``), e.g. for the energy of the new state at no extra product.

        Returns
        -------
        (v, h), the same arrays.
        """
        # shapes, dtypes, contiguity and n_sweeps are checked by the kernel (in C,
        # cheaply: at 16x16 the Python overhead is a quarter of a sweep)
        dt = getattr(v, "dtype", None)
        r = rbm if rbm.W.dtype is dt else rbm.astype(dt if dt in _FLOATS else np.float64)
        nc = len(v)
        _kernels.rbm_sweeps(
            r.W,
            r.b,
            r.c,
            v,
            h,
            None if betas is None else _betas(betas, nc, dt),
            None if base_bias is None else _vector("base_bias", base_bias, rbm.n_visible, dt),
            _streams(streams, nc),
            n_sweeps,
            self._mode,
            self.alpha,
            n_threads,
            hidden_field,
            visible_product,
        )
        return v, h

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __eq__(self, other) -> bool:
        return type(self) is type(other) and self.alpha == other.alpha

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.alpha))


def _gibbs_flip(state, p_on) -> np.ndarray:
    state = np.asarray(state)
    p_on = np.asarray(p_on, dtype=np.float64)
    return np.where(state == 1, 1.0 - p_on, p_on)


def _flip_the_state_flip(state, p_on) -> np.ndarray:
    state = np.asarray(state)
    p_on = np.asarray(p_on, dtype=np.float64)
    p_cur = np.where(state == 1, p_on, 1.0 - p_on)
    p_oth = 1.0 - p_cur
    # the ratio is only used where p_cur > p_oth, i.e. p_cur > 1/2
    ratio = p_oth / np.maximum(p_cur, 0.5)
    return np.where(p_oth > p_cur, 1.0, np.where(p_oth == p_cur, 0.5, ratio))


class Gibbs(Operator):
    """Gibbs sampling G: each unit set to 1 with probability P(x_i = 1 | rest).

    As a flip probability: ``P(other state) = p_on`` if the unit is 0 and
    ``1 - p_on`` if it is 1 (Brügge et al. 2013, Fig. 1a).
    """

    _mode = _MODE_GIBBS
    alpha = 0.0
    name = "G"


class FlipTheState(Operator):
    """Flip-the-state operator T (Brügge et al. 2013, Def. 1, sec. 3.1).

    A unit in the less probable state moves to the more probable one with
    probability 1; in the more probable state it flips with probability
    ``p(other) / p(current)``; if both states are equally probable it flips
    with probability 1/2 (the case that makes T ergodic, sec. 3.2). In terms
    of the log-odds x of being on (the activation function of sec. 3.1), a
    unit at 0 turns on with probability ``min(e^x, 1)`` and a unit at 1 stays
    on with probability ``max(1 - e^{-x}, 0)``.
    """

    _mode = _MODE_FLIP
    alpha = 1.0
    name = "T"


class Blend(Operator):
    """Per-unit blend ``T_alpha = alpha T + (1 - alpha) G`` of flip-the-state and Gibbs.

    The unit's flip probability is ``alpha * q_T + (1 - alpha) * q_G``
    (Brügge et al. 2013).

    ``Blend(0)`` has the transition probabilities of G and ``Blend(1)`` those
    of T (the random numbers are used differently, so the sample paths differ).
    """

    _mode = _MODE_BLEND
    name = "T_alpha"

    def __init__(self, alpha: float):
        alpha = float(alpha)
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(f"Blend: alpha must be in [0, 1], got {alpha}")
        self.alpha = alpha

    def __repr__(self) -> str:
        return f"Blend({self.alpha!r})"


def operator_from_name(name: str) -> Operator:
    """The operator named ``name``, case-insensitive.

    ``"gibbs"``/``"G"`` -> Gibbs(), ``"flip"``/``"T"`` -> FlipTheState(),
    ``"blend:0.3"`` -> Blend(0.3).
    """
    key = str(name).strip()
    low = key.lower()
    if low in ("g", "gibbs"):
        return Gibbs()
    if low in ("t", "flip", "flip_the_state", "flipthestate"):
        return FlipTheState()
    if low.startswith("blend:"):
        return Blend(float(low.split(":", 1)[1]))
    raise ValueError(f"unknown operator {name!r}: expected 'gibbs', 'flip' or 'blend:<alpha>'")


__all__ = ["Operator", "Gibbs", "FlipTheState", "Blend", "operator_from_name"]
