"""Enumerable random models: every test draws its model here (one draw order per model kind).

A ``seed`` is an int (``numpy.random.default_rng(seed)``) or a ``numpy.random.Generator``
(e.g. ``bmrep.seeds.rng(root, *keys)``); a passed generator goes on being used by the
caller after the draw, so the parameters are drawn first and in a fixed order.
"""

import numpy as np

from bmrep.models.dbm import DBM
from bmrep.models.rbm import RBM
from bmrep.models.sbn import random_layered_network


def _generator(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def random_rbm(nv: int, nh: int, scale: float, seed, *, bias_scale: float = 1.0, weights: str = "normal") -> RBM:
    """A binary RBM: ``W`` N(0, scale^2) (``weights="uniform"``: U(-scale, scale)), ``b``, ``c`` N(0, bias_scale^2).

    Exact answers: ``bmrep.models.exact.rbm`` (``log_partition``, ``log_prob_v``, ``joint_probabilities``).
    """
    r = _generator(seed)
    if weights == "normal":
        W = r.normal(0, scale, (nv, nh))
    elif weights == "uniform":
        W = r.uniform(-scale, scale, (nv, nh))
    else:
        raise ValueError(f"random_rbm: weights {weights!r} is not 'normal' or 'uniform'")
    return RBM(W, r.normal(0, bias_scale, nv), r.normal(0, bias_scale, nh))


def random_dbm(D: int, F1: int, F2: int, scale: float, seed, *, bias_scale: float = 1.0) -> DBM:
    """A two-layer DBM: ``W1``, ``W2`` N(0, scale^2), then the three biases N(0, bias_scale^2).

    Exact answers: ``bmrep.models.exact.dbm`` (``log_partition``, ``log_prob_v``).
    """
    r = _generator(seed)
    W1, W2 = r.normal(0, scale, (D, F1)), r.normal(0, scale, (F1, F2))
    return DBM(W1, W2, r.normal(0, bias_scale, D), r.normal(0, bias_scale, F1), r.normal(0, bias_scale, F2))


def random_multivalued(n: int, m: int, scale: float, seed) -> dict:
    """Parameters of a multivalued-hidden RBM (Yokoyama et al. 2019): ``b``, ``c``, ``W`` all N(0, scale^2).

    Exact answers: ``bmrep.models.exact.multivalued`` (``log_partition``, ``log_marginal``).
    """
    r = _generator(seed)
    return {"b": r.normal(0, scale, n), "c": r.normal(0, scale, m), "W": r.normal(0, scale, (n, m))}


def random_sbn(sizes, seed, low: float = -1.0, high: float = 1.0):
    """A layered sigmoid belief network (Saul et al. 1996) with parameters U(low, high).

    Exact answers: ``bmrep.models.exact.sbn.log_marginal``.
    """
    return random_layered_network(sizes, _generator(seed), low, high)
