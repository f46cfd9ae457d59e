"""Mode classes of samples and class-change statistics.

Brügge, Fischer & Igel (2013), sec. 4.4: a sample belongs to the class of the
basic mode (of the Artificial Modes data) nearest to it in Hamming distance;
samples equally close to two or more modes are ambiguous and discarded.
Table 3 counts class changes along a chain, Table 4 the number of steps
before the first class change.
"""

from __future__ import annotations

import numpy as np

AMBIGUOUS = -1


def nearest_mode_class(V: np.ndarray, modes: np.ndarray) -> np.ndarray:
    """Index of the nearest mode in Hamming distance, ``AMBIGUOUS`` (-1) on ties.

    Parameters
    ----------
    V : ndarray, shape (..., d)
        Binary samples (0/1 values, any numeric dtype).
    modes : ndarray, shape (K, d)
        The basic modes.

    Returns
    -------
    ndarray of int64, shape V.shape[:-1]
    """
    V = np.asarray(V)
    modes = np.asarray(modes)
    if V.shape[-1] != modes.shape[1]:
        raise ValueError(f"samples have {V.shape[-1]} units, modes {modes.shape[1]}")
    vb = V.astype(np.int64) != 0
    mb = modes.astype(np.int64) != 0
    dist = (vb[..., None, :] != mb).sum(axis=-1)
    best = dist.min(axis=-1, keepdims=True)
    n_best = (dist == best).sum(axis=-1)
    cls = dist.argmin(axis=-1).astype(np.int64)
    cls[n_best > 1] = AMBIGUOUS
    return cls


def count_class_changes(classes: np.ndarray) -> np.ndarray:
    """Number of class changes along each chain, ambiguous samples discarded.

    Parameters
    ----------
    classes : ndarray of int, shape (n_steps,) or (n_steps, n_chains)
        Classes of successive samples (time along axis 0).

    Returns
    -------
    ndarray of int64, shape () or (n_chains,)
        Number of pairs of successive *unambiguous* samples whose classes differ.
    """
    classes = np.asarray(classes)
    single = classes.ndim == 1
    c2 = classes[:, None] if single else classes
    out = np.zeros(c2.shape[1], dtype=np.int64)
    for j in range(c2.shape[1]):
        kept = c2[:, j][c2[:, j] != AMBIGUOUS]
        out[j] = int(np.count_nonzero(kept[1:] != kept[:-1]))
    return out[0] if single else out


def steps_to_first_change(classes: np.ndarray) -> np.ndarray:
    """Steps until the class first differs from the starting class.

    Parameters
    ----------
    classes : ndarray of int, shape (n_steps + 1, n_chains)
        Row 0 holds the classes of the starting samples, row t the classes
        after t steps.

    Returns
    -------
    ndarray of float64, shape (n_chains,)
        The first t >= 1 with an unambiguous class different from the start
        class; ``inf`` if none occurs within ``n_steps`` (censored); ``nan``
        where the starting sample itself is ambiguous (discarded).
    """
    classes = np.asarray(classes)
    if classes.ndim != 2 or classes.shape[0] < 2:
        raise ValueError(f"classes must have shape (n_steps + 1, n_chains), got {classes.shape}")
    start = classes[0]
    changed = (classes[1:] != start) & (classes[1:] != AMBIGUOUS)
    any_change = changed.any(axis=0)
    first = np.where(any_change, changed.argmax(axis=0) + 1, np.inf).astype(np.float64)
    first[start == AMBIGUOUS] = np.nan
    return first


__all__ = [
    "nearest_mode_class",
    "count_class_changes",
    "steps_to_first_change",
]
