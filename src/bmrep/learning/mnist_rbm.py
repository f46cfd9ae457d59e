"""A 784-H RBM trained on binarised MNIST by the recipe of Carlson et al. (2016), sec. 4.2.

The models of carlson2016's Figs. 1, 3 and 4 and the calibration study's
trained models: one code and one set of random streams, so equal settings give
the same model in both (the workflow trains each once and caches it).
"""

from __future__ import annotations

import time

import numpy as np

from ..estimators.base import data_marginal_base_bias
from ..models.rbm import RBM
from ..sampling.operators import Gibbs
from ..sampling.streams import ChainStreams
from ..seeds import rng as make_rng
from .negative_phases import CDChains
from .optimizers import Adam
from .rbm_training import train_rbm

# The recipe's name in its random streams and its sidecar: the paper it comes from (keeps its models bit for bit).
RECIPE = "carlson2016"


def train_mnist_rbm(X: np.ndarray, n_hidden: int, settings: dict, seed: int, checkpoint=None) -> tuple[RBM, dict]:
    """Train a 784-H RBM on binarised MNIST by PCD-k or CD-k with Adam (sec. 4.2; the recipe is returned).

    Parameters
    ----------
    X : ndarray, shape (n, 784)
        Binary training images.
    n_hidden : int
        Number of hidden units H.
    settings : dict
        ``rule`` (``pcd``/``cd``), ``k``, ``batch_size``, ``n_updates``,
        ``learning_rate``, ``weight_decay``, ``n_chains`` (PCD), ``init_scale``.
    seed : int
        Root seed; the streams are keyed by the model's name.
    checkpoint : bmrep.learning.checkpoint.Checkpoint or None
        Handed to ``train_rbm``: an interrupted training resumes from it.

    Returns
    -------
    model : RBM
    recipe : dict
        The settings, sizes, seed and training time (the model's sidecar).

    Notes
    -----
    Visible biases start at the data's log-odds (Hinton 2010).
    """
    key = (RECIPE, "train", f"mnist_784x{n_hidden}")
    rng = make_rng(seed, *key)
    X = np.ascontiguousarray(X, dtype=np.float64)
    rbm0 = RBM.random(X.shape[1], n_hidden, rng, scale=float(settings["init_scale"]))
    rbm0 = RBM(rbm0.W, data_marginal_base_bias(X, 1.0), rbm0.c)
    persistent = settings["rule"] == "pcd"
    n_chains = int(settings["n_chains"]) if persistent else int(settings["batch_size"])
    streams = ChainStreams.from_seed(seed, *key, n_chains=max(n_chains, int(settings["batch_size"])))
    t0 = time.time()
    model, _ = train_rbm(
        rbm0,
        X,
        negative_phase=CDChains(
            Gibbs(),
            int(settings["k"]),
            persistent=persistent,
            streams=streams,
            n_chains=n_chains if persistent else None,
        ),
        batch_size=int(settings["batch_size"]),
        n_updates=int(settings["n_updates"]),
        optimizer=Adam(float(settings["learning_rate"])),
        rng=rng,
        weight_decay=float(settings["weight_decay"]),
        checkpoint=checkpoint,
    )
    recipe = {
        "paper": RECIPE,
        "n_visible": int(X.shape[1]),
        "n_hidden": int(n_hidden),
        "n_train": int(X.shape[0]),
        "optimizer": "Adam",
        "seed": int(seed),
        "seed_key": list(key),
        "training_seconds": time.time() - t0,
        **{k: settings[k] for k in sorted(settings)},
    }
    return model, recipe


__all__ = [
    "train_mnist_rbm",
]
