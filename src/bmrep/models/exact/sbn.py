"""Exact ``ln P(V)`` of a sigmoid belief network by enumerating its hidden units.

Saul, Jaakkola & Jordan (1996), eq. (8): the ground truth of the mean-field
bounds of :mod:`bmrep.meanfield.sbn_bound` on small networks. Only the
network's ``n_units`` and ``log_joint`` are used, so this module imports no
model code.
"""

from __future__ import annotations

import numpy as np

__all__ = ["log_marginal"]


def log_marginal(net, values: np.ndarray, visible: np.ndarray, max_hidden: int = 20) -> np.ndarray:
    """Exact ``ln P(V)`` of eq. (8) by enumerating the ``2^|H|`` hidden states.

    Parameters
    ----------
    net : bmrep.models.sbn.SigmoidBeliefNetwork
    values : ndarray, shape (P, N) or (P, |V|)
        Evidence per pattern: either full-width rows (hidden entries ignored)
        or only the visible units' values, in unit order.
    visible : ndarray of bool, shape (N,)
        Which units are instantiated.
    max_hidden : int
        Refuse to enumerate more than ``2**max_hidden`` hidden states.
    """
    vis = np.asarray(visible, dtype=bool)
    if vis.shape != (net.n_units,):
        raise ValueError(f"visible must have shape ({net.n_units},)")
    hid = np.flatnonzero(~vis)
    if len(hid) > max_hidden:
        raise ValueError(f"{len(hid)} hidden units: exact enumeration of 2^{len(hid)} states refused")
    vals = np.atleast_2d(np.asarray(values, dtype=np.float64))
    if vals.shape[1] == net.n_units:
        vals = vals[:, vis]
    if vals.shape[1] != vis.sum():
        raise ValueError("values must have N or |V| columns")
    codes = np.arange(2 ** len(hid))
    hstates = ((codes[:, None] >> np.arange(len(hid))[None, :]) & 1).astype(np.float64)
    out = np.empty(len(vals))
    chunk = max(1, 2**22 // max(1, len(codes) * net.n_units))
    for a in range(0, len(vals), chunk):
        v = vals[a : a + chunk]
        s = np.empty((len(v), len(codes), net.n_units))
        s[:, :, vis] = v[:, None, :]
        s[:, :, hid] = hstates[None, :, :]
        lj = net.log_joint(s)
        m = lj.max(axis=1, keepdims=True)
        out[a : a + chunk] = m[:, 0] + np.log(np.exp(lj - m).sum(axis=1))
    return out
