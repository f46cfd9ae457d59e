"""Benchmarks and RBM training with G or T (Brügge et al. 2013, sec. 4.2).

The training of every stage: the learning curves of Table 1 and Fig. 3
(bottom), and the models sampled for Table 2, Fig. 4 and Tables 3 and 4
(:func:`train_models`; their sampling is its own job, so a change to a
sampling setting does not retrain them).
"""

from __future__ import annotations

import numpy as np

from ...learning.checkpoint import run_resumable
from ...learning.negative_phases import CDChains, PTChains
from ...learning.optimizers import SGD
from ...learning.rbm_training import train_rbm
from ...models.exact.rbm import log_partition, mean_log_likelihood
from ...models.rbm import RBM
from ...sampling.operators import operator_from_name
from ...sampling.streams import ChainStreams
from ...seeds import rng as keyed_rng
from .benchmarks import Benchmark
from .common import PAPER
from .models import stack_models


def init_rbm(n_visible: int, n_hidden: int, rng: np.random.Generator, std: float = 0.01) -> RBM:
    """Weights and biases N(0, std^2) (sec. 4.2)."""
    return RBM(rng.normal(0, std, (n_visible, n_hidden)), rng.normal(0, std, n_visible), rng.normal(0, std, n_hidden))


def train(
    bench: Benchmark,
    recipe: dict,
    op_name: str,
    repeat: int,
    seed: int,
    key: str,
    eval_every: int | None = None,
    checkpoint=None,
) -> tuple[RBM, np.ndarray, np.ndarray]:
    """Train one RBM of ``bench`` with ``recipe``; exact log-likelihood every ``eval_every`` updates.

    recipe: ``algorithm`` ("cd", "pcd", "pt"), ``k`` (sweeps per update or
    between swaps), ``lr``, ``n_updates``, and for PT ``n_temperatures`` and
    optionally ``n_replicas`` (default: the batch size). Plain gradient
    ascent, no momentum, no weight decay (sec. 4.2). ``checkpoint`` (a
    :class:`bmrep.learning.checkpoint.Checkpoint` or None) is the training
    loop's: an interrupted training resumes from it.

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

    common = {
        "batch_size": bench.batch_size,
        "n_updates": n_updates,
        "optimizer": SGD(float(recipe["lr"])),
        "rng": data_rng,
        "callback": evaluate if eval_every else None,
        "callback_every": int(eval_every or n_updates or 1),
        "checkpoint": checkpoint,
    }
    if alg in ("cd", "pcd"):
        streams = ChainStreams.from_seed(seed, PAPER, key, "chains", bench.name, alg, repeat, n_chains=B)
        chains = CDChains(op, int(recipe["k"]), persistent=(alg == "pcd"), streams=streams)
        model, hist = train_rbm(rbm0, bench.X_train, negative_phase=chains, **common)
    elif alg == "pt":
        t = int(recipe["n_temperatures"])
        R = int(recipe.get("n_replicas") or B)
        streams = ChainStreams.from_seed(seed, PAPER, key, "chains", bench.name, alg, repeat, n_chains=R * t)
        ladders = PTChains(
            op,
            t,
            int(recipe["k"]),
            streams=streams,
            swap_rng=keyed_rng(seed, PAPER, key, "swaps", bench.name, repeat),
            n_replicas=R,
        )
        model, hist = train_rbm(rbm0, bench.X_train, negative_phase=ladders, **common)
    else:
        raise ValueError(f"unknown algorithm {alg!r}: expected 'cd', 'pcd' or 'pt'")
    updates = np.array([h["update"] for h in hist], dtype=np.int64)
    values = np.array([h["value"] for h in hist], dtype=np.float64)
    return model, updates, values


def learning_curves(bench: Benchmark, recipe: dict, op_name: str, repeats, seed: int, eval_every: int, checkpoint=None):
    """Log-likelihood curves of :func:`train` for the given repeats (Table 1, Fig. 3 bottom).

    With a ``checkpoint`` the finished repeats' curves and the running
    training are saved (:func:`bmrep.learning.checkpoint.run_resumable`).

    Returns
    -------
    updates, curves
        The evaluated updates and the curves, shape (n_repeats, n_evals).
    """

    def one(r, ck):
        _, updates, ll = train(bench, recipe, op_name, int(r), seed, "learning", eval_every, ck)
        return {"updates": updates, "ll": ll}

    runs = run_resumable(list(repeats), one, checkpoint)
    updates = runs[-1]["updates"] if runs else None
    return updates, np.array([run["ll"] for run in runs])


def model_key(stage: str, recipe: dict) -> str:
    """The random-stream key of the models sampled in ``stage`` ("autocorr" or "classes")."""
    if stage == "autocorr":
        return f"autocorr_models_{recipe['algorithm']}"
    if stage == "classes":
        return "classes_models"
    raise ValueError(f"unknown stage {stage!r}: expected 'autocorr' or 'classes'")


def train_models(
    bench: Benchmark, recipe: dict, repeats, seed: int, stage: str, checkpoint=None
) -> dict[str, np.ndarray]:
    """Train one RBM per repeat with ``recipe`` and Gibbs sampling, to be sampled in ``stage``.

    Table 2 / Fig. 4 (sec. 4.3) and Tables 3 and 4 (sec. 4.4) sample RBMs
    trained with G; each repeat has its own initial weights and minibatches.
    With a ``checkpoint`` the finished models and the running training are
    saved (:func:`bmrep.learning.checkpoint.run_resumable`).

    Returns
    -------
    dict of arrays
        ``repeat`` (n,), ``W`` (n, visible, hidden), ``b`` (n, visible), ``c`` (n, hidden).
    """
    key = model_key(stage, recipe)

    def one(r, ck):
        return train(bench, recipe, "G", int(r), seed, key, checkpoint=ck)[0].params()

    params = run_resumable(list(repeats), one, checkpoint)
    return stack_models([RBM(p["W"], p["b"], p["c"]) for p in params], repeats)
