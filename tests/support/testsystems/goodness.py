"""Goodness of fit of a sampler's draws against the exact distribution of an enumerable two-layer DBM.

A transition that leaves ``p`` invariant maps exact draws from ``p`` to exact draws: the
tests start chains from :func:`exact_dbm_draws`, apply the transition and compare the
counts of the joint states (:func:`dbm_state_index`) with ``n p`` (:func:`chi2_pvalue`).
"""

import numpy as np
from scipy import stats

from bmrep.models.exact import dbm as exact_dbm
from bmrep.models.exact import state_index
from bmrep.sampling.dbm_gibbs import DBMChains


def chi2_pvalue(counts: np.ndarray, expected: np.ndarray) -> float:
    """Pearson's chi-square p-value of ``counts`` against ``expected``, the cells expecting < 5 pooled into one."""
    keep = expected >= 5
    obs = np.append(counts[keep], counts[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] == 0:  # no cell (or none with any mass) was pooled
        obs, exp = obs[:-1], exp[:-1]
    chi2 = ((obs - exp) ** 2 / exp).sum()
    return stats.chi2.sf(chi2, len(obs) - 1)


def dbm_chains(d, rows: np.ndarray) -> DBMChains:
    """Joint states of ``d`` (rows holding v, h1, h2 side by side, as ``all_states``) as chains (copies)."""
    D, F1, _ = d.shape
    return DBMChains(rows[:, :D].copy(), rows[:, D : D + F1].copy(), rows[:, D + F1 :].copy())


def dbm_state_index(chains: DBMChains) -> np.ndarray:
    """Each chain's joint state (v, h1, h2) as its row in ``all_states(D + F1 + F2)``."""
    return state_index(np.hstack([chains.v, chains.h1, chains.h2]))


def exact_dbm_draws(d, n: int, rng: np.random.Generator) -> tuple[DBMChains, np.ndarray]:
    """``n`` i.i.d. draws of (v, h1, h2) from ``d`` as chains, and the exact log p of every joint state."""
    X, lp = exact_dbm.joint_log_probabilities(d)
    return dbm_chains(d, X[rng.choice(X.shape[0], size=n, p=np.exp(lp))]), lp
