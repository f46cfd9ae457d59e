"""Synthetic binary data sets: Bars and Stripes, Artificial Modes.

Bars and Stripes (MacKay 2003) on a ``side x side`` grid: every pattern in
which each row is all-on or all-off (stripes) or each column is all-on or
all-off (bars). The all-off and all-on images are both, and appear once, so
4x4 has 2*2^4 - 2 = 30 distinct patterns.

Artificial Modes (Desjardins et al. 2010, as used by Brügge et al. 2013,
section 4.2): 4x4 binary images around four equally likely basic modes, each
pixel flipped independently with probability ``p_mut``. Desjardins et al. do
not list their modes; ours (``BASIC_MODES``) are

====  ==========================  ===================
mode  picture (rows, 1 = on)      pattern
====  ==========================  ===================
0     1111 1111 0000 0000         top half on
1     1100 1100 1100 1100         left half on
2     1010 0101 1010 0101         checkerboard
3     0101 1010 0101 1010         inverse checkerboard
====  ==========================  ===================

Pairwise Hamming distances are 8, 8, 8, 8, 8 and 16 (modes 2/3), so every
mode is at least 8 flips from every other.
"""

from __future__ import annotations

import itertools

import numpy as np

BASIC_MODES = np.array(
    [
        [1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        [1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0],
        [1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1],
        [0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0],
    ],
    dtype=np.uint8,
)


def bars_and_stripes(side: int = 4) -> np.ndarray:
    """All distinct Bars-and-Stripes patterns, uint8 array (2^(side+1) - 2, side*side).

    Rows are ordered: stripes by the binary code of the row pattern, then
    bars not already present, so the order is deterministic.
    """
    if side < 1:
        raise ValueError(f"side must be >= 1, got {side}")
    patterns = []
    seen = set()
    for bits in itertools.product([0, 1], repeat=side):
        col = np.array(bits, dtype=np.uint8)
        for img in (np.repeat(col[:, None], side, axis=1), np.repeat(col[None, :], side, axis=0)):
            key = img.tobytes()
            if key not in seen:
                seen.add(key)
                patterns.append(img.reshape(-1))
    stripes = [p for p in patterns if np.all(p.reshape(side, side) == p.reshape(side, side)[:, :1])]
    bars = [p for p in patterns if not np.all(p.reshape(side, side) == p.reshape(side, side)[:, :1])]
    return np.array(stripes + bars, dtype=np.uint8)


def artificial_modes(n: int, p_mut: float, rng: np.random.Generator, side: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``n`` Artificial Modes images.

    Parameters
    ----------
    n : number of images.
    p_mut : probability of flipping each pixel of the chosen basic mode, in [0, 1].
    rng : random generator.
    side : must be 4 (the basic modes are 4x4).

    Returns
    -------
    X : uint8 array (n, 16) of 0/1 pixels.
    mode : int array (n,) index of the basic mode each image was drawn from.
    """
    if side != 4:
        raise ValueError("Artificial Modes are defined on 4x4 images only (side=4)")
    if not 0.0 <= p_mut <= 1.0:
        raise ValueError(f"p_mut must be in [0, 1], got {p_mut}")
    if n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    mode = rng.integers(0, len(BASIC_MODES), size=n)
    flips = (rng.random((n, BASIC_MODES.shape[1])) < p_mut).astype(np.uint8)
    return BASIC_MODES[mode] ^ flips, mode


def artificial_modes_distribution(p_mut: float) -> tuple[np.ndarray, np.ndarray]:
    """Exact distribution of Artificial Modes: (all 2^16 states, probabilities).

    P(x) = 1/4 sum_m p_mut^d(x, m) (1 - p_mut)^(16 - d(x, m)), d = Hamming distance.
    """
    n = BASIC_MODES.shape[1]
    states = ((np.arange(2**n)[:, None] >> np.arange(n - 1, -1, -1)) & 1).astype(np.uint8)
    d = (states[:, None, :] != BASIC_MODES[None, :, :]).sum(-1)
    with np.errstate(divide="ignore"):
        logp = d * np.log(p_mut) + (n - d) * np.log1p(-p_mut) if 0 < p_mut < 1 else None
    if logp is None:
        probs = (d == (0 if p_mut == 0 else n)).astype(float)
    else:
        probs = np.exp(logp)
    return states, probs.mean(axis=1)


__all__ = [
    "bars_and_stripes",
    "artificial_modes",
    "artificial_modes_distribution",
]
