"""Benchmarks and RBM training with G or T (Brügge et al. 2013, sec. 4.2).

The training of every stage: the learning curves of Table 1 and Fig. 3
(bottom), and the models sampled for Table 2, Fig. 4 and Tables 3 and 4.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...datasets.toys import artificial_modes, bars_and_stripes
from ...estimators.exact import log_partition, mean_log_likelihood
from ...learning.cd import train_rbm
from ...learning.optimizers import SGD
from ...models.rbm import RBM
from ...sampling.operators import operator_from_name
from ...sampling.parallel_tempering import train_rbm_pt
from ...sampling.streams import ChainStreams
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


def make_benchmark(name: str, seed: int, *, modes_train_size: int = 1000, mnist: np.ndarray | None = None,
                   mnist_hidden: int = 10, mnist_eval_size: int | None = None, batch_size: int = 100) -> Benchmark:
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
            idx = np.sort(keyed_rng(seed, PAPER, "mnist_eval_subset").choice(len(X), int(mnist_eval_size), replace=False))
            Xe = X[idx]
        return Benchmark(name, X, Xe, n_hidden, int(batch_size))
    raise ValueError(f"unknown benchmark {name!r}; expected one of {sorted(BENCHMARK_LABELS)}")


def init_rbm(n_visible: int, n_hidden: int, rng: np.random.Generator, std: float = 0.01) -> RBM:
    """Weights and biases N(0, std^2) (sec. 4.2)."""
    return RBM(rng.normal(0, std, (n_visible, n_hidden)), rng.normal(0, std, n_visible), rng.normal(0, std, n_hidden))


def train(bench: Benchmark, recipe: dict, op_name: str, repeat: int, seed: int, key: str,
          eval_every: int | None = None) -> tuple[RBM, np.ndarray, np.ndarray]:
    """Train one RBM of ``bench`` with ``recipe``; exact log-likelihood every ``eval_every`` updates.

    recipe: ``algorithm`` ("cd", "pcd", "pt"), ``k`` (sweeps per update or
    between swaps), ``lr``, ``n_updates``, and for PT ``n_temperatures`` and
    optionally ``n_replicas`` (default: the batch size). Plain gradient
    ascent, no momentum, no weight decay (sec. 4.2).

    Returns
    -------
    model, updates, values
        The model, the updates at which the log-likelihood was evaluated and
        its values (empty if ``eval_every`` is None).
    """
    alg = recipe["algorithm"]
    op = operator_from_name(op_name)
    n_updates = int(recipe["n_updates"])
    rbm0 = init_rbm(bench.X_train.shape[1], bench.n_hidden, keyed_rng(seed, PAPER, key, "init", bench.name, repeat))
    data_rng = keyed_rng(seed, PAPER, key, "batches", bench.name, repeat)
    B = len(bench.X_train) if bench.batch_size is None else min(bench.batch_size, len(bench.X_train))

    def evaluate(t, model):
        return float(mean_log_likelihood(model, bench.X_eval, log_partition(model)))

    common = {"operator": op, "batch_size": bench.batch_size, "n_updates": n_updates, "optimizer": SGD(float(recipe["lr"])),
              "rng": data_rng, "callback": evaluate if eval_every else None,
              "callback_every": int(eval_every or n_updates or 1)}
    if alg in ("cd", "pcd"):
        streams = ChainStreams.from_seed(seed, PAPER, key, "chains", bench.name, alg, repeat, n_chains=B)
        model, hist = train_rbm(rbm0, bench.X_train, k=int(recipe["k"]), persistent=(alg == "pcd"),
                                streams=streams, **common)
    elif alg == "pt":
        t = int(recipe["n_temperatures"])
        R = int(recipe.get("n_replicas") or B)
        streams = ChainStreams.from_seed(seed, PAPER, key, "chains", bench.name, alg, repeat, n_chains=R * t)
        model, hist = train_rbm_pt(rbm0, bench.X_train, n_temperatures=t, k=int(recipe["k"]), streams=streams,
                                   swap_rng=keyed_rng(seed, PAPER, key, "swaps", bench.name, repeat),
                                   n_replicas=R, **common)
    else:
        raise ValueError(f"unknown algorithm {alg!r}: expected 'cd', 'pcd' or 'pt'")
    updates = np.array([h["update"] for h in hist], dtype=np.int64)
    values = np.array([h["value"] for h in hist], dtype=np.float64)
    return model, updates, values


def learning_curves(bench: Benchmark, recipe: dict, op_name: str, repeats, seed: int, eval_every: int):
    """Log-likelihood curves of :func:`train` for the given repeats (Table 1, Fig. 3 bottom).

    Returns
    -------
    updates, curves
        The evaluated updates and the curves, shape (n_repeats, n_evals).
    """
    curves, updates = [], None
    for r in repeats:
        _, updates, ll = train(bench, recipe, op_name, int(r), seed, "learning", eval_every)
        curves.append(ll)
    return updates, np.array(curves)
