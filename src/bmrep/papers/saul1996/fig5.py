"""Figure 5 of Saul, Jaakkola & Jordan (1996), one shard: bound vs exact ln P(V) on random networks."""

from __future__ import annotations

import numpy as np

from ...meanfield.sbn_bound import solve_bound
from ...models.exact import sbn as sbn_exact
from ...models.sbn import random_layered_network
from ...seeds import rng as keyed_rng


def fig5_networks(
    root_seed: int, indices, *, sizes=(2, 4, 6), low=-1.0, high=1.0, tol=1e-10, max_iter=1000
) -> dict[str, np.ndarray]:
    """Mean-field bound vs exact ln P(V) on random layered networks, bottom layer all 0 (section 3).

    Network ``k`` draws its weights and biases U[low, high] from the stream
    keyed ``("saul1996", "fig5", k)``, so results do not depend on sharding.

    Returns
    -------
    dict of arrays (one entry per network): ``index``, ``exact`` (ln P(V) by
    enumeration), ``bound`` (L_V, eq. 23), ``n_sweeps``, ``mf_relative_error``
    (L_V / ln P(V) - 1) and ``uniform_relative_error`` (ln 2^-|V| / ln P(V) - 1).
    """
    idx = np.asarray(list(indices), dtype=np.int64)
    n_vis = int(sizes[-1])
    vis = np.zeros(sum(sizes), dtype=bool)
    vis[-n_vis:] = True
    v = np.zeros((1, n_vis))
    exact = np.empty(len(idx))
    bound = np.empty(len(idx))
    sweeps = np.empty(len(idx), dtype=np.int64)
    for a, k in enumerate(idx):
        net = random_layered_network(sizes, keyed_rng(root_seed, "saul1996", "fig5", int(k)), low, high)
        exact[a] = sbn_exact.log_marginal(net, v, vis)[0]
        sol = solve_bound(net, v, vis, tol=tol, max_iter=max_iter)
        bound[a] = sol.bound[0]
        sweeps[a] = sol.n_sweeps[0]
    return {
        "index": idx,
        "exact": exact,
        "bound": bound,
        "n_sweeps": sweeps,
        "mf_relative_error": bound / exact - 1.0,
        "uniform_relative_error": (-n_vis * np.log(2.0)) / exact - 1.0,
    }
