"""Greedy layer-wise pretraining of a two-layer DBM (Salakhutdinov & Hinton 2009, section 3.1).

Two RBMs are trained by CD-1 with the doubled-input trick. The bottom RBM has
tied, doubled visible input (``P(h1 | v) = sigmoid(2 v W1 + c)``,
``P(v | h1) = sigmoid(W1 h1 + b)``); the top RBM is trained on the bottom
one's hidden probabilities with doubled hidden-to-visible input
(``P(h2 | h1) = sigmoid(h1 W2 + c2)``, ``P(h1 | h2) = sigmoid(2 W2 h2 + b')``).
Composing them halves the total input into h1, giving the DBM with
``W1, W2`` and ``c1 = (c + b') / 2``. Both go through the project's one RBM
training loop, :func:`bmrep.learning.rbm_training.train_rbm`, as a
:class:`DoubledRBM` with the negative phase :class:`DoubledCD1` and the
gradient :func:`doubled_gradient`. The joint training that follows is
:func:`bmrep.learning.dbm_training.train_dbm`.

References
----------
Salakhutdinov, R. & Hinton, G. (2009). Deep Boltzmann machines. AISTATS.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from scipy.special import expit

from bmrep.learning.optimizers import SGD
from bmrep.learning.rbm_training import train_rbm
from bmrep.models.dbm import DBM
from bmrep.models.rbm import RBM
from bmrep.sampling.operators import Gibbs

# how many training cases the logged reconstruction error is measured on
_N_LOGGED = 1000


@dataclass(frozen=True)
class DoubledRBM:
    """An RBM with scaled bottom-up and top-down input (the doubling trick).

    ``P(h | v) = sigmoid(up_scale * v W + c)``, ``P(v | h) =
    sigmoid(down_scale * h W^T + b)`` with the weights and biases of ``rbm``.
    With a scale other than 1 these are not the conditionals of one energy:
    the model is only trained (by CD-1) and composed into a DBM, never sampled
    or evaluated as an RBM.
    """

    rbm: RBM
    up_scale: float
    down_scale: float

    @property
    def n_visible(self) -> int:
        return self.rbm.n_visible

    @property
    def n_hidden(self) -> int:
        return self.rbm.n_hidden

    def params(self) -> dict:
        """The live parameter arrays of ``rbm`` (updated in place by the training loop)."""
        return self.rbm.params()

    def copy(self) -> DoubledRBM:
        return replace(self, rbm=self.rbm.copy())

    def astype(self, dtype) -> DoubledRBM:
        return replace(self, rbm=self.rbm.astype(dtype))

    def hidden_field(self, v: np.ndarray) -> np.ndarray:
        """The hidden units' input ``up_scale * v W + c``."""
        return self.up_scale * (v @ self.rbm.W) + self.rbm.c

    def prob_h_given_v(self, v: np.ndarray) -> np.ndarray:
        return expit(self.hidden_field(v)).astype(self.rbm.dtype)

    def prob_v_given_h(self, h: np.ndarray) -> np.ndarray:
        return expit(self.down_scale * (h @ self.rbm.W.T) + self.rbm.b).astype(self.rbm.dtype)


class DoubledCD1:
    """The CD-1 negative phase of the pretraining: ``h ~ P(h | v_data)``, then the reconstruction ``P(v | h)``.

    The hidden units are sampled through the sampling core's ``update_layer``
    with one stream of ``streams`` per minibatch row; the reconstruction is
    the probabilities, not a sample (Salakhutdinov & Hinton 2009).
    """

    def __init__(self, streams):
        self.streams = streams
        self.operator = Gibbs()

    def start(self, model: DoubledRBM, X: np.ndarray, batch_size: int, rng: np.random.Generator) -> None:
        if len(self.streams) != batch_size:
            raise ValueError(f"need one stream per minibatch row: {len(self.streams)} != {batch_size}")
        self.h = np.zeros((batch_size, model.n_hidden), model.rbm.dtype)

    def sample(self, model: DoubledRBM, v_data: np.ndarray) -> np.ndarray:
        self.operator.update_layer(self.h, model.hidden_field(v_data), self.streams)
        return model.prob_v_given_h(self.h)

    def get_state(self) -> dict:
        return {"h": self.h.copy(), "streams": self.streams.get_state()}

    def set_state(self, state: dict) -> None:
        self.h[...] = state["h"]
        self.streams.set_state(state["streams"])


def doubled_gradient(model: DoubledRBM, v_data: np.ndarray, v_model: np.ndarray) -> dict:
    """CD-1 direction ``<v P(h|v)>_data - <v P(h|v)>_recon`` (and the biases'), in the model's dtype.

    The same formula as :func:`bmrep.learning.rbm_training.rbm_gradient`, but
    the differences are taken before the average (one division, in float32
    for a float32 DBM), which is how the pretraining has always rounded.
    """
    ph0 = model.prob_h_given_v(v_data)
    ph1 = model.prob_h_given_v(v_model)
    return {
        "W": (v_data.T @ ph0 - v_model.T @ ph1) / len(v_data),
        "b": (v_data - v_model).mean(0),
        "c": (ph0 - ph1).mean(0),
    }


def reconstruction_error(model: DoubledRBM, X: np.ndarray) -> float:
    """Mean squared difference between ``X`` and its reconstruction ``P(v | P(h | X))``."""
    return float(np.mean((X - model.prob_v_given_h(model.prob_h_given_v(X))) ** 2))


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
    grey: np.ndarray | None = None,
    redraw_rng: np.random.Generator | None = None,
) -> DBM:
    """Greedy layer-wise pretraining of a 2-layer DBM (Salakhutdinov & Hinton 2009).

    See the module docstring for the doubling trick and the composition rule.
    Each RBM makes ``n_epochs`` passes of ``len(X) // batch_size`` minibatches
    (SGD with momentum, L2 decay on W), its initial weights and its epochs'
    orders drawn from ``rng`` (``batch_size == len(X)``: the whole data in its
    order, as in every RBM training); ``streams`` (one per minibatch row) is used for
    both. ``log(layer, epoch, error)`` gets the reconstruction error on the
    first 1000 training cases after every epoch.

    With ``grey`` (the grey levels of ``X``'s images, in [0, 1]) and
    ``redraw_rng``, the bottom RBM sees every minibatch binarised again from
    ``grey`` (:func:`bmrep.learning.redraw.redraw_images`), as the authors'
    code does; the top RBM is trained on the bottom one's hidden
    probabilities of ``X``, one binary draw per image (theirs: of the last
    epoch's draws).
    """
    data = np.asarray(X, dtype)
    if batch_size > len(data):
        raise ValueError(f"batch_size {batch_size} exceeds the {len(data)} training cases")
    if (grey is None) != (redraw_rng is None):
        raise ValueError("redrawn training images need both the grey levels and redraw_rng")
    if grey is not None and np.shape(grey) != data.shape:
        raise ValueError(f"grey levels of shape {np.shape(grey)} for training images of shape {data.shape}")
    n_batches = len(data) // batch_size
    trained = []
    # rbm1 doubles the bottom-up input, rbm2 the top-down one
    for layer, n_hidden, up_scale, down_scale in (("rbm1", n_hidden1, 2.0, 1.0), ("rbm2", n_hidden2, 1.0, 2.0)):

        def report(update, model, layer=layer, data=data):
            if log is not None and update > 0:
                log(layer, update // n_batches, reconstruction_error(model, data[:_N_LOGGED]))

        redrawn = layer == "rbm1" and grey is not None  # the bottom RBM sees the images drawn again
        model, _ = train_rbm(
            DoubledRBM(RBM.random(data.shape[1], n_hidden, rng).astype(dtype), up_scale, down_scale),
            np.asarray(grey, dtype) if redrawn else data,
            negative_phase=DoubledCD1(streams),
            batch_size=batch_size,
            n_updates=n_epochs * n_batches,
            optimizer=SGD(lr, momentum=momentum),
            rng=rng,
            callback=report,
            callback_every=n_batches,
            weight_decay=weight_decay,
            gradient=doubled_gradient,
            dtype=dtype,
            redraw_rng=redraw_rng if redrawn else None,
        )
        trained.append(model.rbm)
        data = model.prob_h_given_v(data)  # rbm2 is trained on rbm1's hidden probabilities
    r1, r2 = trained
    return DBM(r1.W, r2.W, r1.b, 0.5 * (r1.c + r2.b), r2.c).astype(dtype)


__all__ = ["DoubledRBM", "DoubledCD1", "doubled_gradient", "reconstruction_error", "pretrain_dbm"]
