"""The benchmarks of Brügge et al. (2013), sec. 4.2: Bars and Stripes, Artificial Modes, MNIST."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...datasets.toys import artificial_modes, bars_and_stripes
from ...seeds import rng as keyed_rng
from .common import BENCHMARK_LABELS, MODES_P_MUT, PAPER


@dataclass(frozen=True)
class Benchmark:
    """Training data, log-likelihood evaluation data, model size, batch size."""

    name: str
    X_train: np.ndarray
    X_eval: np.ndarray
    n_hidden: int
    batch_size: int | None


def make_benchmark(
    name: str,
    seed: int,
    *,
    modes_train_size: int = 1000,
    mnist: np.ndarray | None = None,
    mnist_hidden: int = 10,
    mnist_eval_size: int | None = None,
    batch_size: int = 100,
) -> Benchmark:
    """The benchmarks of sec. 4.2.

    bas: all 30 4x4 Bars-and-Stripes patterns, batch learning, 16 hidden.
    modes_0p1 / modes_0p01: a fixed training set of ``modes_train_size``
    Artificial Modes images (seeded), minibatches, 16 hidden. mnist /
    mnist500: binary MNIST training images, minibatches, ``mnist_hidden``
    (mnist) or 500 (mnist500) hidden units; the log-likelihood on a fixed seeded subset of
    ``mnist_eval_size`` training images (all if None).
    """
    if name == "bas":
        X = bars_and_stripes(4).astype(np.float64)
        return Benchmark(name, X, X, 16, None)
    if name in MODES_P_MUT:
        X, _ = artificial_modes(int(modes_train_size), MODES_P_MUT[name], keyed_rng(seed, PAPER, "data", name))
        X = X.astype(np.float64)
        return Benchmark(name, X, X, 16, int(batch_size))
    if name in ("mnist", "mnist500"):
        n_hidden = 500 if name == "mnist500" else int(mnist_hidden)
        if mnist is None:
            raise ValueError(f"benchmark {name!r} needs the binary MNIST training images")
        X = np.asarray(mnist, dtype=np.float64)
        if mnist_eval_size is None or mnist_eval_size >= len(X):
            Xe = X
        else:
            idx = np.sort(
                keyed_rng(seed, PAPER, "mnist_eval_subset").choice(len(X), int(mnist_eval_size), replace=False)
            )
            Xe = X[idx]
        return Benchmark(name, X, Xe, n_hidden, int(batch_size))
    raise ValueError(f"unknown benchmark {name!r}; expected one of {sorted(BENCHMARK_LABELS)}")
