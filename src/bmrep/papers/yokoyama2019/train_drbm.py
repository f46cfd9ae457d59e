"""Fig. 6 of Yokoyama et al. (2019), one shard: the discriminative RBM on noisy MNIST.

Section 3.2: DRBM of eq. (22) trained by AdaMax on exact gradients
(eqs. 25-28) for ``s`` in {1, inf}, training and noisy-test
misclassification per evaluated epoch. Random streams: see
:mod:`bmrep.papers.yokoyama2019`.
"""

from __future__ import annotations

import numpy as np

from ...learning.optimizers import AdaMax
from ...models import drbm
from ...progress import track
from ...seeds import rng
from . import PAPER
from .s_values import parse_s


def noisy_test_set(root_seed: int, x_test_uint8: np.ndarray, sigma: float) -> np.ndarray:
    """The corrupted test inputs of section 3.2 (one fixed draw for all experiments)."""
    return drbm.noisy_images(x_test_uint8, sigma, rng(root_seed, PAPER, "drbm", "noisy_test"))


def drbm_curves(
    root_seed: int,
    experiments,
    s_values,
    x_train_uint8: np.ndarray,
    y_train: np.ndarray,
    x_test: np.ndarray,
    y_test: np.ndarray,
    n_train: int,
    n_hidden: int,
    batch_size: int,
    lr: float,
    epochs: int,
    eval_epochs,
) -> dict:
    """Training and test misclassification of the DRBM (eq. 22) per evaluated epoch.

    Per experiment: a random subset of ``n_train`` training images (/255),
    Xavier couplings and zero biases, minibatches of ``batch_size`` in a
    random order per epoch, AdaMax with step ``lr`` on the exact gradients of
    eqs. (25)-(28). Subset, initial couplings and minibatch order are shared
    by every ``s`` (paired design). ``x_test`` is already scaled (noisy).

    Returns ``train_error``, ``test_error`` of shape (n_experiments, n_s,
    len(eval_epochs)), ``epochs`` and ``experiments``.
    """
    experiments = list(experiments)
    s_values = [parse_s(s) for s in s_values]
    eval_epochs = sorted(set(int(t) for t in eval_epochs))
    if eval_epochs[-1] != epochs or eval_epochs[0] < 0:
        raise ValueError(f"eval_epochs must lie in [0, epochs] and end at epochs={epochs}, got {eval_epochs}")
    n_classes = int(max(y_train.max(), y_test.max())) + 1
    train_err = np.empty((len(experiments), len(s_values), len(eval_epochs)))
    test_err = np.empty_like(train_err)
    n_batches = n_train // batch_size
    for ei, e in enumerate(track(experiments, "DRBM experiments")):
        g = rng(root_seed, PAPER, "drbm", e)
        idx = g.choice(x_train_uint8.shape[0], size=n_train, replace=False)
        x = x_train_uint8[idx].astype(np.float64) / 255.0
        y = y_train[idx].astype(np.int64)
        init = drbm.init_params(x.shape[1], n_hidden, n_classes, g)
        orders = [g.permutation(n_train) for _ in range(epochs)]
        for si, s in enumerate(s_values):
            params = {k: v.copy() for k, v in init.items()}
            opt = AdaMax(lr)
            col = 0
            for t in range(epochs + 1):
                if t == eval_epochs[col]:
                    train_err[ei, si, col] = drbm.error_rate(params, x, y, s)
                    test_err[ei, si, col] = drbm.error_rate(params, x_test, y_test, s)
                    col += 1
                if t == epochs:
                    break
                for bi in range(n_batches):
                    sel = orders[t][bi * batch_size : (bi + 1) * batch_size]
                    opt.step(params, drbm.gradient(params, x[sel], y[sel], s))
    return {
        "train_error": train_err,
        "test_error": test_err,
        "epochs": np.array(eval_epochs),
        "experiments": np.array(experiments),
        "s": np.array(s_values),
    }


def eval_epoch_grid(epochs: int, n_points: int) -> list[int]:
    """Roughly log-spaced epochs 0..epochs (always including 0, 1 and ``epochs``)."""
    grid = np.unique(np.round(np.geomspace(1, epochs, max(n_points - 1, 1))).astype(int))
    return sorted({0, *grid.tolist(), epochs})
