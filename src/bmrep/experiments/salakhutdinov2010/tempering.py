"""CAST's fast chains over training (Salakhutdinov 2010, sections 5 and 8): level occupancy, weights, swaps.

Tables from the records every CAST training keeps
(:meth:`bmrep.learning.cast.CoupledAdaptiveTempering.records`): the fast
chains' visits of each of the 20 levels per window of updates with the shared
Wang-Landau log-weights at the window's end, and, per swap, how many fast
chains reached the lowest beta since the previous swap. Spec, section 3: over
the second half of training every level's share should lie in [0.025, 0.1]
(a flat histogram over 20 levels is 0.05), and most fast chains should reach
beta = 0.9 between consecutive swaps.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

# Spec, section 3: each level's share of the fast chains' visits over the second half of training.
OCCUPANCY_BAND = (0.025, 0.1)


def occupancy_table(records: dict, repeat: int) -> pd.DataFrame:
    """CAST's fast chains' occupancy of every level per window: one row per (window, level).

    Columns ``repeat, window_end, level`` (1 = beta 1), ``beta``, ``visits``, ``fraction`` (of the window's
    fast-chain visits) and ``log_weight`` (log g_k - log g_1 at the window's end).
    """
    occ = np.asarray(records["occupancy"], dtype=np.int64)
    W, K = occ.shape
    tot = np.maximum(occ.sum(1, keepdims=True), 1)
    return pd.DataFrame(
        {
            "repeat": int(repeat),
            "window_end": np.repeat(np.asarray(records["window_end"], dtype=np.int64), K),
            "level": np.tile(np.arange(1, K + 1), W),
            "beta": np.tile(np.asarray(records["betas"], dtype=np.float64), W),
            "visits": occ.ravel(),
            "fraction": (occ / tot).ravel(),
            "log_weight": np.asarray(records["log_weights"], dtype=np.float64).ravel(),
        }
    )


def swap_table(records: dict, repeat: int, n_fast: int) -> pd.DataFrame:
    """CAST's swaps: one row per swap.

    Columns ``repeat, update, reached_min`` (fast chains that reached the lowest beta since the
    previous swap), ``swapped`` (pairs with a fresh beta = 1 state, swapped) and ``n_fast``.
    """
    return pd.DataFrame(
        {
            "repeat": int(repeat),
            "update": np.asarray(records["swap_update"], dtype=np.int64),
            "reached_min": np.asarray(records["swap_reached_min"], dtype=np.int64),
            "swapped": np.asarray(records["swap_swapped"], dtype=np.int64),
            "n_fast": int(n_fast),
        }
    )


def second_half(occupancy: pd.DataFrame, swaps: pd.DataFrame) -> pd.DataFrame:
    """Per CAST run (repeat), its fast chains over the second half of training.

    Over the windows and swaps after half the last update: every level's share of the visits
    (``share_level_<k>``), their min and max and whether all lie in :data:`OCCUPANCY_BAND`; the median
    fraction of fast chains that reached the lowest beta between consecutive swaps (``median_reached_min``),
    the fraction of swaps after which more than half had (``swaps_with_most_reaching``), and the mean
    fraction of pairs swapped (``swapped_fraction``).
    """
    rows = []
    for rep, occ in occupancy.groupby("repeat"):
        end = int(occ["window_end"].max())
        late = occ[occ["window_end"] > end / 2]
        visits = late.groupby("level")["visits"].sum()
        share = visits / max(int(visits.sum()), 1)
        sw = swaps[(swaps["repeat"] == rep) & (swaps["update"] > end / 2)]
        frac = (sw["reached_min"] / sw["n_fast"]).to_numpy()
        lo, hi = OCCUPANCY_BAND
        rows.append(
            {
                "repeat": int(rep),
                "updates": end,
                # windows start at update 0, so the first window's end is the window length
                "first_update": int(late["window_end"].min() - occ["window_end"].min()) + 1 if len(late) else 0,
                "min_share": float(share.min()),
                "max_share": float(share.max()),
                "in_band": bool(((share >= lo) & (share <= hi)).all()),
                "n_swaps": int(len(sw)),
                "median_reached_min": float(np.median(frac)) if frac.size else np.nan,
                "swaps_with_most_reaching": float(np.mean(frac > 0.5)) if frac.size else np.nan,
                "swapped_fraction": float((sw["swapped"] / sw["n_fast"]).mean()) if len(sw) else np.nan,
                **{f"share_level_{int(k)}": float(v) for k, v in share.items()},
            }
        )
    return pd.DataFrame(rows)
