"""CAST's fast chains over training (Salakhutdinov 2010, sections 5 and 8): level occupancy, weights, swaps.

Tables from the records every CAST training keeps
(:meth:`bmrep.learning.cast.CoupledAdaptiveTempering.records`): the fast
chains' visits of each of the 20 levels per window of updates with the shared
Wang-Landau log-weights at the window's end, and, per swap, how many fast
chains reached the lowest beta since the previous swap. Spec, section 3: over
the second half of training every level's share should lie in [0.025, 0.1]
(a flat histogram over 20 levels is 0.05), and most fast chains should reach
beta = 0.9 between consecutive swaps. For the seeds also trained without swapping
(CAST-noswap, the same streams), :func:`swap_comparison` sets the two side by side.
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


def first_reach_table(records: dict, repeat: int) -> pd.DataFrame:
    """CAST-perchain's fast chains: the update at which each first reached the lowest beta.

    Columns ``repeat, chain, first_update`` (-1: never). With a weight vector of its own, a chain tempers
    down to beta_min only once its own weights have filled log Z's range over the ladder (spec, section 3:
    about 2600 updates measured on the 784-500-1000 model); this is when each chain's did.
    """
    first = np.asarray(records["first_reached_min"], dtype=np.int64)
    return pd.DataFrame({"repeat": int(repeat), "chain": np.arange(first.size), "first_update": first})


def _late_shares(occ: pd.DataFrame) -> tuple[int, pd.DataFrame, pd.Series]:
    """One run's last update, its windows after half of it, and each level's share of their visits."""
    end = int(occ["window_end"].max())
    late = occ[occ["window_end"] > end / 2]
    visits = late.groupby("level")["visits"].sum()
    return end, late, visits / max(int(visits.sum()), 1)


def swap_comparison(with_swaps: pd.DataFrame, without_swaps: pd.DataFrame) -> pd.DataFrame:
    """CAST's fast chains with and without swapping, per seed trained both ways and level.

    Both arguments are :func:`occupancy_table` rows (CAST, CAST-noswap); a seed in only one is left out.
    Columns ``repeat, level, beta``, ``share_swapping`` / ``share_noswap`` (the level's share of the fast
    chains' visits over the second half of training), ``log_weight_swapping`` / ``log_weight_noswap``
    (log g_k - log g_1 at the end of training) and ``log_weight_difference`` (with minus without: negative
    where the swaps' placements at beta = 1 pull the weights away from beta = 1; spec, section 3).
    """
    cols = {}
    for rep in sorted(set(with_swaps["repeat"]) & set(without_swaps["repeat"])):
        for name, occ in (("swapping", with_swaps), ("noswap", without_swaps)):
            occ = occ[occ["repeat"] == rep]
            end, _, share = _late_shares(occ)
            last = occ[occ["window_end"] == end].set_index("level")
            cols.setdefault(rep, {"beta": last["beta"]})
            cols[rep][f"share_{name}"] = share
            cols[rep][f"log_weight_{name}"] = last["log_weight"]
    tables = [pd.DataFrame(c).rename_axis("level").reset_index().assign(repeat=int(rep)) for rep, c in cols.items()]
    out = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame(columns=["repeat", "level", "beta"])
    out["log_weight_difference"] = out.get("log_weight_swapping", np.nan) - out.get("log_weight_noswap", np.nan)
    order = ["repeat", "level", "beta", "share_swapping", "share_noswap", "log_weight_swapping", "log_weight_noswap",
             "log_weight_difference"]  # fmt: skip
    return out.reindex(columns=order)


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
        end, late, share = _late_shares(occ)
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
