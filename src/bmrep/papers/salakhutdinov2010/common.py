"""What every stage of Salakhutdinov (2010) shares: the MNIST split and the paper's keyed random streams."""

from __future__ import annotations

import numpy as np

from bmrep.sampling.streams import ChainStreams
from bmrep.seeds import rng as keyed_rng

PAPER = "salakhutdinov2010"


def split_mnist(data: dict, n_validation: int):
    """Training images without the last ``n_validation`` (the validation set, section 8.1), and the test images.

    Returns
    -------
    X_train, y_train, X_test, y_test
    """
    X = np.asarray(data["X_train"], dtype=np.float32)
    if not 0 <= n_validation < X.shape[0]:
        raise ValueError(f"n_validation must be in [0, {X.shape[0]}), got {n_validation}")
    n_train = X.shape[0] - n_validation
    return (
        X[:n_train],
        np.asarray(data["y_train"][:n_train]),
        np.asarray(data["X_test"], np.float32),
        np.asarray(data["y_test"]),
    )


def grey_levels(mnist: dict, n_validation: int) -> np.ndarray:
    """The grey levels in [0, 1] (pixel / 255) of :func:`split_mnist`'s training images, from the uint8 MNIST.

    Row for row the images that ``mnist_stochastic`` binarised once: what ``training_images: redrawn``
    binarises again at every minibatch.
    """
    X, _, _, _ = split_mnist(mnist, n_validation)
    return X / np.float32(255.0)


def paper_rng(seed: int, *keys) -> np.random.Generator:
    """The generator keyed by (seed, this paper, *keys)."""
    return keyed_rng(seed, PAPER, *keys)


def chain_streams(seed: int, n: int, *keys) -> ChainStreams:
    """One independent stream per chain, keyed by (seed, this paper, *keys)."""
    return ChainStreams.from_seed(seed, PAPER, *keys, n_chains=n)
