"""The one training loop of binary RBMs: minibatch gradient ascent on the log-likelihood.

The log-likelihood gradient of an RBM (Brügge et al. 2013, eq. 3; Hinton
2002; Tieleman 2008) is

    dlog p / dW = <v P(h=1|v)>_data - <v h>_model,

and the model term comes from a pluggable *negative phase*
(:mod:`bmrep.learning.negative_phases`): CD-k and PCD-k with any transition
operator (Gibbs G, flip-the-state T or a blend), or the beta = 1 chains of
parallel-tempering ladders (t-PT_k). The model term uses ``P(h=1|v)`` of the
samples (Rao-Blackwellised) unless hidden samples are passed to
:func:`rbm_gradient`. The doubled-input RBMs of the DBM pretraining
(:mod:`bmrep.learning.dbm_pretraining`) are trained by this loop too, with
their own model, negative phase and gradient.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..models.rbm import RBM
from ..progress import track
from . import _rbm_step
from .checkpoint import Checkpoint, copy_into, generator_state, resume, save_if_due, set_generator_state
from .negative_phases import CDChains, NegativePhase
from .optimizers import SGD
from .redraw import redraw_images


def rbm_gradient(rbm: RBM, v_data, v_model, h_model=None) -> dict:
    """Ascent direction of the average log-likelihood, ``{"W", "b", "c"}`` (float64).

    Parameters
    ----------
    rbm : RBM
    v_data : ndarray (B, n_visible)
    v_model : ndarray (M, n_visible), samples from (an approximation of) the model
    h_model : ndarray (M, n_hidden) or None
        Hidden samples paired with ``v_model``; None uses ``P(h=1|v_model)``.
    """
    vd = np.asarray(v_data, dtype=np.float64)
    vm = np.asarray(v_model, dtype=np.float64)
    r = rbm.astype(np.float64)
    hd = r.prob_h_given_v(vd)
    hm = r.prob_h_given_v(vm) if h_model is None else np.asarray(h_model, dtype=np.float64)
    nd, nm = len(vd), len(vm)
    # sum / n is numpy's mean to the bit (the same reduction, then one division), without its
    # per-call overhead: on Brügge et al.'s 16x16 RBMs the four means were a fifth of an update
    return {
        "W": vd.T @ hd / nd - vm.T @ hm / nm,
        "b": vd.sum(axis=0) / nd - vm.sum(axis=0) / nm,
        "c": hd.sum(axis=0) / nd - hm.sum(axis=0) / nm,
    }


class Minibatches:
    """Endless minibatch indices of ``n`` examples: shuffled epochs (full batch: all rows in order).

    Each epoch is one permutation drawn from ``rng`` when its first batch is
    needed, cut into ``n // batch_size`` batches (a remainder is skipped);
    ``batch_size >= n`` yields ``arange(n)``. ``get_state`` / ``set_state``
    hold the epoch's permutation and position (``rng``'s state is the caller's).
    """

    def __init__(self, n: int, batch_size: int, rng: np.random.Generator):
        self.n, self.batch_size, self.rng = int(n), int(batch_size), rng
        self.perm: np.ndarray | None = None
        self.pos = 0

    def __iter__(self):
        return self

    def __next__(self) -> np.ndarray:
        n, B = self.n, self.batch_size
        if B >= n:
            return np.arange(n)
        if self.perm is None or self.pos + B > n:
            self.perm, self.pos = self.rng.permutation(n), 0
        self.pos += B
        return self.perm[self.pos - B : self.pos]

    def get_state(self) -> dict:
        return {"perm": None if self.perm is None else self.perm.copy(), "pos": self.pos}

    def set_state(self, state) -> None:
        self.perm = None if state["perm"] is None else np.array(state["perm"])
        self.pos = int(state["pos"])


def loop_state(params, optimizer, rng, batches: Minibatches, history: list, **chains) -> dict:
    """What an RBM training loop changes besides its sampler's chains (given as ``chains``), for a checkpoint."""
    return {
        "params": params,
        "optimizer": optimizer.get_state(),
        "rng": generator_state(rng),
        "batches": batches.get_state(),
        "history": history,
        **chains,
    }


def restore_loop_state(state, params, optimizer, rng, batches: Minibatches, history: list) -> None:
    """Put back :func:`loop_state`'s parts in place (the chains are the caller's)."""
    copy_into(params, state["params"])
    optimizer.set_state(state["optimizer"])
    set_generator_state(rng, state["rng"])
    batches.set_state(state["batches"])
    history[:] = state["history"]


def compiled_step(model, X: np.ndarray, batch_size: int, negative_phase, optimizer, gradient, weight_decay: float):
    """The update of :func:`train_rbm` as one compiled call (:class:`bmrep.learning._rbm_step.SGDStep`), or None.

    It applies to the plain case of Brügge et al. (2013, sec. 4.2): a float64
    :class:`RBM`, :func:`rbm_gradient`, :class:`SGD` without momentum or
    decay, no weight decay. It computes the same bits as the numpy update
    (``tests/learning/test_rbm_step.py``); with :class:`CDChains` (CD-k, PCD-k) the
    chains' sweeps run inside the call too, any other negative phase (t-PT_k)
    samples in Python first.
    """
    plain_sgd = type(optimizer) is SGD and not optimizer.momentum and not optimizer.decay
    if type(model) is not RBM or model.dtype != np.float64 or gradient is not rbm_gradient or not plain_sgd:
        return None
    if weight_decay or X.dtype != np.float64:
        return None
    chains = negative_phase.sweep_arguments() if isinstance(negative_phase, CDChains) else None
    n_model = len(chains["v"]) if chains is not None else 0
    return _rbm_step.SGDStep(model.W, model.b, model.c, X, batch_size, n_model, chains)


def train_rbm(
    rbm: RBM,
    data,
    *,
    negative_phase: NegativePhase,
    batch_size: int | None,
    n_updates: int,
    optimizer,
    rng: np.random.Generator,
    callback: Callable[[int, RBM], object] | None = None,
    callback_every: int = 100,
    weight_decay: float = 0.0,
    checkpoint: Checkpoint | None = None,
    gradient: Callable[[RBM, np.ndarray, np.ndarray], dict] = rbm_gradient,
    dtype=np.float64,
    redraw_rng: np.random.Generator | None = None,
) -> tuple[RBM, list[dict]]:
    """Train a binary RBM by minibatch gradient ascent with any negative phase.

    Parameters
    ----------
    rbm : RBM
        Initial model; a copy of ``dtype`` is trained (the argument is not modified).
        Any model with ``n_visible``, ``astype``, ``copy`` and ``params`` that
        ``negative_phase`` and ``gradient`` understand will do
        (:class:`bmrep.learning.dbm_pretraining.DoubledRBM`).
    data : ndarray (N, n_visible) of 0/1 (or probabilities)
    negative_phase : NegativePhase
        The model term's samples: :class:`~bmrep.learning.negative_phases.CDChains`
        (CD-k, PCD-k) or :class:`~bmrep.learning.negative_phases.PTChains` (t-PT_k).
        Its ``start`` draws any initial states from ``rng`` before the first
        minibatch is drawn.
    batch_size : int or None
        Minibatch size; None (or >= N) is batch learning on all of ``data``.
    n_updates : int
        Number of parameter updates.
    optimizer : object with ``step(params, grads)`` (``bmrep.learning.optimizers``)
        Gradient ascent in place on ``rbm.params()``; its learning-rate
        schedule and momentum apply.
    rng : numpy Generator
        Minibatch order and the negative phase's initial states.
    callback : callable(update, rbm) -> float | dict | None
        Called before training (update 0) and after every ``callback_every``
        updates (and after the last one); its results form the history,
        e.g. the exact log-likelihood.
    weight_decay : float >= 0
        L2 penalty: ``grad_W -= weight_decay * W``.
    checkpoint : Checkpoint or None
        Save the loop's state (parameters, optimiser, the negative phase's
        chains and streams, minibatch order, ``rng``, history) every
        ``checkpoint.every`` updates and resume from a saved one
        (:mod:`bmrep.learning.checkpoint`): the result is bit-identical to an
        uninterrupted run.
    gradient : callable(model, v_data, v_model) -> dict
        The ascent direction of one update (before the weight decay); default
        :func:`rbm_gradient`.
    dtype : float32 or float64
        Float type of the trained copy and of the data.
    redraw_rng : numpy Generator or None
        With it, ``data`` holds grey levels in [0, 1] and every minibatch is
        binarised again from them (:func:`bmrep.learning.redraw.redraw_images`;
        its state is checkpointed with the loop's).

    Returns
    -------
    rbm : RBM, the trained model
    history : list of dict
        ``{"update": t, **result}`` (a dict result) or ``{"update": t, "value": result}``.
    """
    X = np.ascontiguousarray(data, dtype=dtype)
    if X.ndim != 2 or X.shape[1] != rbm.n_visible:
        raise ValueError(f"data must have shape (N, {rbm.n_visible}), got {X.shape}")
    N = len(X)
    if N == 0:
        raise ValueError("data is empty")
    if n_updates < 0:
        raise ValueError(f"n_updates must be >= 0, got {n_updates}")
    if weight_decay < 0:
        raise ValueError(f"weight_decay must be >= 0, got {weight_decay}")
    if callback_every < 1:
        raise ValueError(f"callback_every must be >= 1, got {callback_every}")
    B = N if batch_size is None else int(batch_size)
    if B < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    B = min(B, N)
    model = rbm.astype(dtype).copy()
    params = model.params()
    history: list[dict] = []

    def record(t):
        if callback is not None:
            res = callback(t, model)
            history.append({"update": t, **res} if isinstance(res, dict) else {"update": t, "value": res})

    negative_phase.start(model, X, B, rng)
    batches = Minibatches(N, B, rng)

    def restore(state):
        restore_loop_state(state, params, optimizer, rng, batches, history)
        negative_phase.set_state(state["negative_phase"])
        if redraw_rng is not None:
            set_generator_state(redraw_rng, state["redraw_rng"])

    start = resume(checkpoint, restore)
    if start == 0:
        record(0)
    # the compiled update reads its minibatch from X itself: redrawn images take the numpy one
    step = (
        None
        if redraw_rng is not None
        else compiled_step(model, X, B, negative_phase, optimizer, gradient, weight_decay)
    )
    for t in track(range(start + 1, int(n_updates) + 1), "RBM training updates"):
        rows = next(batches)
        if step is not None:  # the same update, compiled (same bits)
            lr = optimizer.lr(optimizer.t)
            optimizer.t += 1
            samples = None if isinstance(negative_phase, CDChains) else negative_phase.sample(model, X[rows])
            finite = step(rows, lr, samples)
        else:
            vd = X[rows] if redraw_rng is None else redraw_images(X[rows], redraw_rng)
            grads = gradient(model, vd, negative_phase.sample(model, vd))
            if weight_decay:
                grads["W"] -= weight_decay * params["W"]
            optimizer.step(params, grads)
            finite = all(np.all(np.isfinite(p)) for p in params.values())
        if not finite:
            raise FloatingPointError(f"train_rbm: parameters became non-finite at update {t}")
        if t % callback_every == 0 or t == n_updates:
            record(t)
        save_if_due(
            checkpoint,
            t,
            int(n_updates),
            lambda: loop_state(
                params,
                optimizer,
                rng,
                batches,
                history,
                negative_phase=negative_phase.get_state(),
                **({} if redraw_rng is None else {"redraw_rng": generator_state(redraw_rng)}),
            ),
        )
    return model, history


__all__ = ["rbm_gradient", "Minibatches", "loop_state", "restore_loop_state", "compiled_step", "train_rbm"]
