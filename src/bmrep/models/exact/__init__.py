"""Exact quantities of small models by enumeration: the one place where states are enumerated.

One module per model family, so a job imports the enumeration of its own model only:

* :mod:`bmrep.models.exact.rbm`: binary RBMs (Carlson et al. 2016; Brügge et al. 2013),
  ``log Z`` of the tempered family, ``log p(v)``, the joint table, exact samples;
* :mod:`bmrep.models.exact.dbm`: two-layer DBMs (Salakhutdinov 2010), ``log Z``,
  ``log p(v)`` and the joint table;
* :mod:`bmrep.models.exact.multivalued`: RBMs with ±1 visible and multivalued hidden
  units (Yokoyama et al. 2019), ``ln Z_s``, ``ln P_s(v)``, the exact gradient, exact samples;
* :mod:`bmrep.models.exact.sbn`: sigmoid belief networks (Saul et al. 1996), ``ln P(V)``.

Here: the enumeration of binary states itself (:func:`all_states`, :func:`state_index`).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

MAX_ENUM_UNITS = 25
# Enumerations of at most this many units are kept once built (float64, 4 MB a block of 2^15 states):
# Brügge et al.'s 16x16 RBMs are evaluated exactly every 100 updates, and rebuilding the 2^16 states took
# about a third of each evaluation.
CACHED_ENUM_UNITS = 16

__all__ = ["MAX_ENUM_UNITS", "CACHED_ENUM_UNITS", "all_states", "states_range", "state_chunk", "state_index"]


def all_states(n: int) -> np.ndarray:
    """All ``2^n`` binary vectors of length n, uint8 (2^n, n).

    Row k holds the binary digits of k, least significant bit last, so unit 0
    is the most significant digit.
    """
    if not 0 <= n <= MAX_ENUM_UNITS:
        raise ValueError(f"all_states: n must be in [0, {MAX_ENUM_UNITS}], got {n}")
    return states_range(0, 2**n, n)


def states_range(start: int, stop: int, n: int, dtype=np.uint8) -> np.ndarray:
    """Rows ``start .. stop - 1`` of :func:`all_states` (n), as ``dtype``: a chunk of the enumeration."""
    k = np.arange(start, stop, dtype=np.int64)
    shifts = np.arange(n - 1, -1, -1, dtype=np.int64)
    return ((k[:, None] >> shifts) & 1).astype(dtype)


def state_chunk(start: int, stop: int, n: int) -> np.ndarray:
    """:func:`states_range` as float64, read-only, and built once per ``(start, stop, n)`` when n is small.

    The blocks of :func:`bmrep.models.exact.rbm.log_partition`; for ``n <=``
    :data:`CACHED_ENUM_UNITS` the block is cached (the same values; callers must not write to it).
    """
    if n <= CACHED_ENUM_UNITS:
        return _cached_chunk(int(start), int(stop), int(n))
    return states_range(start, stop, n, dtype=np.float64)


@lru_cache(maxsize=8)  # a few (start, stop, n) blocks: 32 MB at most
def _cached_chunk(start: int, stop: int, n: int) -> np.ndarray:
    s = states_range(start, stop, n, dtype=np.float64)
    s.flags.writeable = False
    return s


def state_index(states) -> np.ndarray:
    """Inverse of :func:`all_states`: the integer whose binary digits a row holds."""
    s = np.asarray(states).astype(np.int64)
    n = s.shape[-1]
    return s @ (1 << np.arange(n - 1, -1, -1, dtype=np.int64))
