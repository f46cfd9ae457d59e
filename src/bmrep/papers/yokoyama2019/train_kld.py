"""Figs. 2/3 of Yokoyama et al. (2019), one shard: exact KLD and log-likelihood during CD learning.

Section 2.2: a generative binary RBM (gRBM) and its training data; trained
RBMs (tRBM) with ``|H| = 4 + R`` hidden units in ``X(s)`` learn them by
CD-1 with Adam, and the exact KLD (eq. 16) and log-likelihood (eq. 10) are
recorded per epoch. Random streams: see :mod:`bmrep.papers.yokoyama2019`.
"""

from __future__ import annotations

import numpy as np

from ...learning.optimizers import Adam
from ...models import multivalued as mv
from ...models.exact import multivalued as mv_exact
from ...progress import track
from ...seeds import rng
from . import PAPER
from .s_values import parse_s, s_label


def kld_setup(root_seed: int, R: int, e: int, n_visible: int, n_hidden_gen: int, n_data: int) -> dict:
    """gRBM, its training data and the tRBM's initial couplings for one experiment (section 2.2).

    The data are ``n_data`` exact, independent draws from the gRBM's
    enumerated marginal (the paper uses a Gibbs chain; exact sampling is its
    limit).
    """
    g = rng(root_seed, PAPER, "kld", R, e)
    gen = mv.random_rbm(n_visible, n_hidden_gen, g)
    data = mv_exact.sample_exact(gen, 1, n_data, g)
    m = n_hidden_gen + R
    a = mv.xavier_bound(n_visible, m)
    w0 = g.uniform(-a, a, (n_visible, m))
    return {"gen": gen, "data": data, "W0": w0}


def kld_curves(
    root_seed: int,
    R: int,
    experiments,
    s_values,
    epochs: int,
    lr: float,
    n_visible: int = 8,
    n_hidden_gen: int = 4,
    n_data: int = 200,
    cd_k: int = 1,
    record_every: int = 1,
) -> dict:
    """Exact KLD (eq. 16) and training log-likelihood (eq. 10), both per |V|, per epoch.

    For each experiment index in ``experiments`` and each ``s``, the tRBM
    (``|H| = n_hidden_gen + R``, ``b = c = 0``, Xavier couplings) is trained
    by CD-``cd_k``, full batch, Adam with step ``lr``, for ``epochs`` updates.
    Experiments sharing one ``s`` are trained as one batch of independent
    models (each with its own random stream).

    Both are recorded at epochs ``0, record_every, 2 record_every, ...`` and
    at ``epochs``.

    Returns
    -------
    dict with ``kld`` and ``loglik`` of shape (n_experiments, n_s, n_recorded)
    (column 0 is the initial model), ``epochs`` (the recorded epochs),
    ``experiments`` and ``s`` (inf as ``np.inf``).
    """
    experiments = list(experiments)
    s_values = [parse_s(s) for s in s_values]
    states = mv_exact.all_visible_states(n_visible)
    setups = [kld_setup(root_seed, R, e, n_visible, n_hidden_gen, n_data) for e in experiments]
    log_p_gen = np.stack([mv_exact.log_marginal(st["gen"], 1, states) for st in setups])  # (E, 2^n)
    data = np.stack([st["data"] for st in setups])  # (E, N, n)
    data_idx = mv_exact.state_index(data)  # (E, N)
    n_exp, m = len(experiments), n_hidden_gen + R
    recorded = sorted(set(range(0, epochs + 1, int(record_every))) | {epochs})
    kld = np.empty((n_exp, len(s_values), len(recorded)))
    loglik = np.empty_like(kld)
    rows = np.arange(n_exp)[:, None]

    for si, s in enumerate(track(s_values, "RBMs trained (one per s)")):
        params = {
            "b": np.zeros((n_exp, n_visible)),
            "c": np.zeros((n_exp, m)),
            "W": np.stack([st["W0"] for st in setups]),
        }
        gens = [rng(root_seed, PAPER, "kld", R, e, "cd", s_label(s)) for e in experiments]
        opt = Adam(lr)
        col = 0
        for t in range(epochs + 1):
            if t == recorded[col]:
                log_q = mv_exact.log_marginal(params, s, states)  # (E, 2^n)
                kld[:, si, col] = mv.kl_per_unit(log_p_gen, log_q)
                loglik[:, si, col] = log_q[rows, data_idx].mean(1) / n_visible
                col += 1
            if t == epochs:
                break
            opt.step(params, mv.cd_gradient(params, data, s, cd_k, gens))
    return {
        "kld": kld,
        "loglik": loglik,
        "epochs": np.array(recorded),
        "experiments": np.array(experiments),
        "s": np.array(s_values),
    }
