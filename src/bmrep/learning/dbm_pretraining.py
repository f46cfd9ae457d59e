"""Greedy layer-wise pretraining of a two-layer DBM (Salakhutdinov & Hinton 2009, section 3.1).

Two RBMs are trained by CD-1 with the doubled-input trick. The bottom RBM has
tied, doubled visible input (``P(h1 | v) = sigmoid(2 v W1 + c)``,
``P(v | h1) = sigmoid(W1 h1 + b)``); the top RBM is trained on the bottom
one's hidden probabilities with doubled hidden-to-visible input
(``P(h2 | h1) = sigmoid(h1 W2 + c2)``, ``P(h1 | h2) = sigmoid(2 W2 h2 + b')``).
Composing them halves the total input into h1, giving the DBM with
``W1, W2`` and ``c1 = (c + b') / 2``. The joint training that follows is
:func:`bmrep.learning.dbm_training.train_dbm`.

References
----------
Salakhutdinov, R. & Hinton, G. (2009). Deep Boltzmann machines. AISTATS.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from bmrep.learning.optimizers import SGD
from bmrep.models.dbm import DBM
from bmrep.models.rbm import sigmoid
from bmrep.sampling.operators import Gibbs

from ..progress import track


def train_doubled_rbm(
    data: np.ndarray,
    n_hidden: int,
    *,
    up_scale: float,
    down_scale: float,
    n_epochs: int,
    batch_size: int,
    lr: float,
    momentum: float,
    weight_decay: float,
    rng: np.random.Generator,
    streams,
    dtype=np.float32,
    init_scale: float = 0.01,
    log: Callable | None = None,
):
    """CD-1 for an RBM with scaled bottom-up / top-down input (the doubling trick).

    ``P(h | v) = sigmoid(up_scale * v W + c)``, ``P(v | h) = sigmoid(down_scale * h W^T + b)``;
    the gradient is the usual ``<v h>_data - <v h>_recon`` (Salakhutdinov &
    Hinton 2009). Hidden units of the positive phase are sampled through the
    sampling core's ``update_layer`` (one stream per minibatch row).

    Returns
    -------
    dict with ``W`` (n_visible, n_hidden), ``b``, ``c``.
    """
    X = np.asarray(data, dtype=dtype)
    n, D = X.shape
    if batch_size > n:
        raise ValueError(f"batch_size {batch_size} exceeds the {n} training cases")
    if len(streams) != batch_size:
        raise ValueError(f"need one stream per minibatch row: {len(streams)} != {batch_size}")
    p = {
        "W": rng.normal(0.0, init_scale, (D, n_hidden)).astype(dtype),
        "b": np.zeros(D, dtype),
        "c": np.zeros(n_hidden, dtype),
    }
    opt = SGD(lr, momentum=momentum, decay=weight_decay, decay_keys=["W"])
    op = Gibbs()
    n_batches = n // batch_size
    h = np.zeros((batch_size, n_hidden), dtype)
    for epoch in track(range(n_epochs), "pretraining epochs"):
        order = rng.permutation(n)
        for bi in range(n_batches):
            v0 = X[order[bi * batch_size : (bi + 1) * batch_size]]
            f0 = up_scale * (v0 @ p["W"]) + p["c"]
            ph0 = sigmoid(f0).astype(dtype)
            op.update_layer(h, f0, streams)
            pv1 = sigmoid(down_scale * (h @ p["W"].T) + p["b"]).astype(dtype)
            ph1 = sigmoid(up_scale * (pv1 @ p["W"]) + p["c"]).astype(dtype)
            g = {"W": (v0.T @ ph0 - pv1.T @ ph1) / batch_size, "b": (v0 - pv1).mean(0), "c": (ph0 - ph1).mean(0)}
            opt.step(p, g)
        if log is not None:
            log(
                epoch + 1,
                float(
                    np.mean(
                        (
                            X[order[:1000]]
                            - sigmoid(
                                down_scale * (sigmoid(up_scale * (X[order[:1000]] @ p["W"]) + p["c"]) @ p["W"].T)
                                + p["b"]
                            )
                        )
                        ** 2
                    )
                ),
            )
    return p


def pretrain_dbm(
    X: np.ndarray,
    n_hidden1: int,
    n_hidden2: int,
    *,
    n_epochs: int,
    batch_size: int,
    lr: float,
    momentum: float,
    weight_decay: float,
    rng: np.random.Generator,
    streams,
    dtype=np.float32,
    log: Callable | None = None,
) -> DBM:
    """Greedy layer-wise pretraining of a 2-layer DBM (Salakhutdinov & Hinton 2009).

    See the module docstring for the doubling trick and the composition rule.
    ``streams`` (one per minibatch row) is used for both RBMs.
    """
    # the same CD-1 settings and streams for both RBMs; only the doubled direction differs
    common = dict(
        n_epochs=n_epochs,
        batch_size=batch_size,
        lr=lr,
        momentum=momentum,
        weight_decay=weight_decay,
        rng=rng,
        streams=streams,
        dtype=dtype,
    )
    r1 = train_doubled_rbm(
        X,
        n_hidden1,
        up_scale=2.0,
        down_scale=1.0,
        log=None if log is None else (lambda e, r: log("rbm1", e, r)),
        **common,
    )
    H1 = sigmoid(2.0 * (np.asarray(X, dtype) @ r1["W"]) + r1["c"]).astype(dtype)
    r2 = train_doubled_rbm(
        H1,
        n_hidden2,
        up_scale=1.0,
        down_scale=2.0,
        log=None if log is None else (lambda e, r: log("rbm2", e, r)),
        **common,
    )
    return DBM(r1["W"], r2["W"], r1["b"], 0.5 * (r1["c"] + r2["b"]), r2["c"]).astype(dtype)


__all__ = ["train_doubled_rbm", "pretrain_dbm"]
