"""Figure 2 of Salakhutdinov (2010): the two-node MRF of section 4.1 under Gibbs, FPCD and Wang-Landau."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bmrep.sampling.wang_landau import gamma_schedule, partition_gibbs_sweep, wang_landau_partitions

from .common import paper_rng

PARTITION_NAMES = ["X1 (1,1)", "X2 (-1,1)", "X3 (1,-1)", "X4 (-1,-1)"]


def two_node_mrf(phi_same: float = 5.0, phi_diff: float = -5.0):
    """States, log-potentials and partitions of the toy of section 4.1.

    A state is an integer in 0..3 whose bit i is 1 when x_i = +1 (i = 0, 1).
    ``phi(1,1) = phi(-1,-1) = phi_same``, ``phi(-1,1) = phi(1,-1) = phi_diff``.
    Partitions (one state each): X1 = (1,1), X2 = (-1,1), X3 = (1,-1),
    X4 = (-1,-1), returned as 0-based indices 0..3.

    Returns
    -------
    x : (4, 2) int array of ±1, log_p : (4,), partition : (4,) int
    """
    x = np.array([[1 if (s >> i) & 1 else -1 for i in range(2)] for s in range(4)])
    log_p = np.where(x[:, 0] == x[:, 1], phi_same, phi_diff).astype(float)
    lookup = {(1, 1): 0, (-1, 1): 1, (1, -1): 2, (-1, -1): 3}
    partition = np.array([lookup[tuple(r)] for r in x])
    return x, log_p, partition


def _state_of(x1: int, x2: int) -> int:
    return (1 if x1 > 0 else 0) | ((1 if x2 > 0 else 0) << 1)


def gibbs_partition_chain(log_p, partition, start: int, n_updates: int, rng: np.random.Generator) -> np.ndarray:
    """Plain Gibbs sweeps on the toy; the partition after every update."""
    no_weights = np.zeros(int(partition.max()) + 1)
    u = rng.random((n_updates, 2))
    x, traj = start, np.empty(n_updates, dtype=np.int64)
    for t in range(n_updates):
        x = partition_gibbs_sweep(x, log_p, partition, no_weights, 2, u[t])
        traj[t] = partition[x]
    return traj


def fpcd_partition_chain(
    log_p,
    partition,
    start: int,
    data_state: int,
    n_updates: int,
    rng: np.random.Generator,
    fast_lr: float,
    fast_decay: float,
) -> np.ndarray:
    """FPCD on the toy (section 4.1, eq. 9).

    Fast weights f_k on the partition indicators; the particle samples ``p(x) exp(f_{k(x)})`` and after every sweep
    ``f <- fast_decay f + fast_lr (I(x0 in X_k) - I(x_{t+1} in X_k))``. The slow
    parameters phi are held fixed (the toy is about mixing). Returns the
    partition after every update.
    """
    K = int(partition.max()) + 1
    fast = np.zeros(K)
    data_ind = np.eye(K)[partition[data_state]]
    traj = np.empty(n_updates, dtype=np.int64)
    u = rng.random((n_updates, 2))
    x = start
    for t in range(n_updates):
        x = partition_gibbs_sweep(x, log_p, partition, -fast, 2, u[t])
        fast = fast_decay * fast + fast_lr * (data_ind - np.eye(K)[partition[x]])
        traj[t] = partition[x]
    return traj


def _tail(traj: np.ndarray, k: int) -> int:
    """Length of the final stretch of ``traj`` spent in set ``k``."""
    out = np.flatnonzero(traj != k)
    return int(traj.size if out.size == 0 else traj.size - 1 - out[-1])


def fig2_toy(cfg: dict, seed: int):
    """Figure 2: partition index vs update for Gibbs, FPCD and Wang-Landau, over independent runs.

    ``n_runs`` independent runs of ``n_updates`` updates per sampler (streams
    keyed by the run), and ``n_long_runs`` long Wang-Landau runs with
    decreasing gamma (their occupation of every partition).

    ``cfg`` keys (the config's ``fig2``): ``n_updates``, ``n_runs``, ``phi``, ``wl_gamma``,
    ``fpcd_lr``, ``fpcd_decay``, ``long_updates``, ``n_long_runs``, ``long_gamma0``, ``long_gamma_t0``.

    Returns
    -------
    traj : DataFrame (update, Gibbs, FPCD, Wang-Landau), 1-based partitions, of run 0 (the figure)
    runs : DataFrame per run: ``n_updates``, ``wang_landau_partitions`` (sets visited),
        ``gibbs_left_start`` (bool), ``fpcd_data_tail`` (final updates spent in the data's set)
    occupation : DataFrame per long run and partition (run, partition, fraction, exact p(X_k), weight fraction)
    """
    _, log_p, part = two_node_mrf(cfg["phi"], -cfg["phi"])
    start = _state_of(-1, -1)
    data_state = _state_of(1, 1)
    n = int(cfg["n_updates"])
    rows, traj = [], None
    for i in range(int(cfg["n_runs"])):
        r = lambda *k, i=i: paper_rng(seed, "fig2", i, *k)  # noqa: E731
        gibbs = gibbs_partition_chain(log_p, part, start, n, r("gibbs"))
        wl = wang_landau_partitions(log_p, part, start, n, r("wang-landau"), gamma_schedule(cfg["wl_gamma"]), 2)
        fpcd = fpcd_partition_chain(log_p, part, start, data_state, n, r("fpcd"), cfg["fpcd_lr"], cfg["fpcd_decay"])
        if i == 0:
            traj = pd.DataFrame(
                {"update": np.arange(1, n + 1), "Gibbs": gibbs + 1, "FPCD": fpcd + 1, "Wang-Landau": wl.partitions + 1}
            )
        rows.append(
            {
                "run": i,
                "n_updates": n,
                "wang_landau_partitions": int(np.unique(wl.partitions).size),
                "gibbs_left_start": bool(np.any(gibbs != part[start])),
                "fpcd_data_tail": _tail(fpcd, part[data_state]),
            }
        )
    p_exact = np.exp(log_p - np.logaddexp.reduce(log_p))
    occ = []
    for j in range(int(cfg["n_long_runs"])):
        long = wang_landau_partitions(
            log_p,
            part,
            start,
            int(cfg["long_updates"]),
            paper_rng(seed, "fig2", "wang-landau-long", j),
            gamma_schedule(cfg["long_gamma0"], cfg["long_gamma_t0"]),
            2,
        )
        occ.append(
            pd.DataFrame(
                {
                    "run": j,
                    "partition": np.arange(1, 5),
                    "name": PARTITION_NAMES,
                    "fraction": long.occupation,
                    "exact_probability": [p_exact[part == k].sum() for k in range(4)],
                    "wl_weight_fraction": np.exp(long.log_g - np.logaddexp.reduce(long.log_g)),
                }
            )
        )
    return traj, pd.DataFrame(rows), pd.concat(occ, ignore_index=True)
