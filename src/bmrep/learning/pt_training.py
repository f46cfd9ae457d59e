"""Training a binary RBM with parallel tempering, ``t-PT_k`` (Brügge, Fischer & Igel 2013, sec. 4.2).

The loop of :func:`bmrep.learning.cd.train_rbm` (minibatches, data term,
optimiser, callback history) with the model term taken from the beta = 1
chains of persistent PT ladders (:class:`bmrep.sampling.parallel_tempering.ParallelTempering`;
Desjardins et al. 2010; Cho et al. 2010).
"""

from __future__ import annotations

import numpy as np

from ..models.rbm import RBM
from ..progress import track
from ..sampling.ladders import linear_betas
from ..sampling.parallel_tempering import ParallelTempering
from .cd import Minibatches, loop_state, rbm_gradient, restore_loop_state
from .checkpoint import Checkpoint, resume, save_if_due

__all__ = ["train_rbm_pt"]


def train_rbm_pt(
    rbm: RBM,
    data,
    *,
    operator,
    n_temperatures: int,
    k: int,
    batch_size: int | None,
    n_updates: int,
    optimizer,
    streams,
    swap_rng: np.random.Generator,
    rng: np.random.Generator,
    callback=None,
    callback_every: int = 100,
    n_replicas: int | None = None,
    checkpoint: Checkpoint | None = None,
) -> tuple[RBM, list[dict]]:
    """Train a binary RBM with ``t-PT_k`` (Brügge et al. 2013, sec. 4.2; Desjardins et al. 2010).

    The same loop as :func:`bmrep.learning.cd.train_rbm` (minibatches, data
    term, optimiser, callback history), with the model term from the beta = 1
    chains of ``n_replicas`` persistent PT ladders (default: the batch size,
    so that as many samples as training examples enter each update, as in the
    paper). ``streams`` needs ``n_replicas * n_temperatures`` streams.
    A ``checkpoint`` saves and resumes the loop as in ``train_rbm`` (the PT
    chains, their streams and swap generator included).
    """
    X = np.ascontiguousarray(data, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != rbm.n_visible:
        raise ValueError(f"data must have shape (N, {rbm.n_visible}), got {X.shape}")
    N = len(X)
    B = N if batch_size is None else min(int(batch_size), N)
    R = int(n_replicas or B)
    betas = linear_betas(n_temperatures)
    v0 = X[rng.integers(0, N, size=R * betas.size)]
    pt = ParallelTempering(operator, betas, k, R, rbm.n_visible, rbm.n_hidden, streams, swap_rng, v0=v0)
    model = rbm.astype(np.float64).copy()
    params = model.params()
    history: list[dict] = []

    def record(t):
        if callback is not None:
            res = callback(t, model)
            history.append({"update": t, **res} if isinstance(res, dict) else {"update": t, "value": res})

    batches = Minibatches(N, B, rng)

    def restore(state):
        restore_loop_state(state, params, optimizer, rng, batches, history)
        pt.set_state(state["pt"])

    start = resume(checkpoint, restore)
    if start == 0:
        record(0)
    for t in track(range(start + 1, int(n_updates) + 1), "PT training updates"):
        vd = X[next(batches)]
        vm, _ = pt.negative_phase(model)
        optimizer.step(params, rbm_gradient(model, vd, vm))
        if not all(np.all(np.isfinite(p)) for p in params.values()):
            raise FloatingPointError(f"train_rbm_pt: parameters became non-finite at update {t}")
        if t % callback_every == 0 or t == n_updates:
            record(t)
        save_if_due(
            checkpoint,
            t,
            int(n_updates),
            lambda: loop_state(params, optimizer, rng, batches, history, pt=pt.get_state()),
        )
    return model, history
