"""The calibration study's models (issue 23): trained and random 784-H RBMs with their exact log Z.

A model is named ``trained_784xH`` (PCD on binarised MNIST, the carlson2016
recipe of :func:`bmrep.learning.mnist_rbm.train_mnist_rbm`) or
``random_784xH_wS`` (W, b, c ~ N(0, S^2)). Each carries what every estimator
needs: the base p1 (Carlson et al. 2016, sec. 2: Bernoullis matching the
training data's marginals; for a random model, the marginals of exact samples),
RAISE's starting points (test images; exact samples for a random model) and
the exact log Z (hidden layer enumerated in blocks,
:func:`bmrep.models.exact.rbm.log_partition`).
"""

from __future__ import annotations

import re
import time

import numpy as np

from ...estimators.base import data_marginal_base_bias
from ...learning.mnist_rbm import train_mnist_rbm
from ...models.exact import rbm as exact
from ...models.rbm import RBM
from ...seeds import rng as make_rng
from . import SECTION

N_VISIBLE = 784
BASE_SAMPLES = 1000  # exact samples of a random model whose marginals (pseudo-count 1) give its base p1
_NAME = re.compile(r"^(trained|random)_784x(\d+)(?:_w([0-9.]+))?$")


def model_name(kind: str, n_hidden: int, weight_scale: float | None = None) -> str:
    """``trained_784xH`` or ``random_784xH_wS`` (S printed with ``%g``)."""
    if kind == "trained":
        return f"trained_{N_VISIBLE}x{int(n_hidden)}"
    if kind == "random":
        return f"random_{N_VISIBLE}x{int(n_hidden)}_w{float(weight_scale):g}"
    raise ValueError(f"model kind must be 'trained' or 'random', got {kind!r}")


def parse_model_name(name: str) -> tuple[str, int, float]:
    """Inverse of :func:`model_name`: (kind, n_hidden, weight scale; NaN for a trained model)."""
    m = _NAME.match(name)
    if m is None or (m.group(1) == "random") != (m.group(3) is not None):
        raise ValueError(f"not a calibration model name: {name!r}")
    return m.group(1), int(m.group(2)), float(m.group(3)) if m.group(3) else float("nan")


def build_model(name: str, settings: dict, seed: int, X_train=None, X_test=None) -> tuple[dict, dict]:
    """Make one model with its base, RAISE's starting points and exact log Z.

    Parameters
    ----------
    name : str
        ``trained_784xH`` or ``random_784xH_wS``.
    settings : dict
        ``training`` (the carlson2016 recipe: ``rule``, ``k``, ``batch_size``,
        ``n_chains``, ``n_updates``, ``learning_rate``, ``weight_decay``,
        ``init_scale``), ``base_pseudo_count``, ``n_chains`` (RAISE's starting
        points), ``exact_chunk_bits``.
    seed : int
        Root seed.
    X_train, X_test : ndarray or None
        Binarised MNIST (trained models only).

    Returns
    -------
    arrays : dict
        ``W``, ``b``, ``c``, ``base_bias``, ``raise_data``.
    meta : dict
        ``name``, ``kind``, ``n_hidden``, ``weight_scale``, ``log_z`` (exact),
        ``exact_seconds``; for a trained model also the training recipe and
        the exact mean test and train log-likelihoods (nats).
    """
    kind, n_hidden, scale = parse_model_name(name)
    n_points = int(settings["n_chains"])
    meta = {"name": name, "kind": kind, "n_hidden": n_hidden, "weight_scale": None if kind == "trained" else scale}
    if kind == "trained":
        if X_train is None or X_test is None:
            raise ValueError(f"{name}: a trained model needs the MNIST training and test images")
        rbm, recipe = train_mnist_rbm(X_train, n_hidden, settings["training"], seed)
        base_bias = data_marginal_base_bias(X_train, float(settings["base_pseudo_count"]))
        raise_data = np.asarray(X_test[:n_points], np.float64)
        meta["training"] = recipe
    else:
        rng = make_rng(seed, SECTION, "model", name)
        rbm = RBM(rng.normal(0, scale, (N_VISIBLE, n_hidden)), rng.normal(0, scale, N_VISIBLE),
                  rng.normal(0, scale, n_hidden))  # fmt: skip
        chunk = int(settings["exact_chunk_bits"])
        V, _ = exact.sample_exact_hidden_blocks(rbm, BASE_SAMPLES + n_points, rng, chunk_bits=chunk)
        base_bias = data_marginal_base_bias(V[:BASE_SAMPLES], float(settings["base_pseudo_count"]))
        raise_data = V[BASE_SAMPLES:]
    t0 = time.process_time()
    log_z = exact.log_partition(rbm, layer="hidden", chunk_bits=int(settings["exact_chunk_bits"]))
    meta.update(log_z=log_z, exact_seconds=time.process_time() - t0)  # provenance: not hashed by the manifest
    if kind == "trained":
        meta["test_log_likelihood"] = exact.mean_log_likelihood(rbm, np.asarray(X_test, np.float64), log_z)
        meta["train_log_likelihood"] = exact.mean_log_likelihood(rbm, np.asarray(X_train, np.float64), log_z)
    arrays = {**rbm.params(), "base_bias": base_bias, "raise_data": raise_data}
    return arrays, meta
