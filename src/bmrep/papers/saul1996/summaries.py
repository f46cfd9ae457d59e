"""Figure 5 of Saul, Jaakkola & Jordan (1996): the shards merged and summarised (section 3)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .paper_numbers import PAPER_FIG5


def merge_fig5_shards(parts: list[dict[str, np.ndarray]], n_networks: int | None = None) -> dict[str, np.ndarray]:
    """The per-network arrays of all shards, in network order.

    Raises ``ValueError`` unless the shards cover networks ``0..n_networks-1``
    exactly once (``n_networks`` defaults to the number of networks found).
    """
    res = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    order = np.argsort(res["index"], kind="stable")
    res = {k: v[order] for k, v in res.items()}
    n = len(res["index"]) if n_networks is None else int(n_networks)
    if not np.array_equal(res["index"], np.arange(n)):
        raise ValueError(f"fig5 shards do not cover networks 0..{n - 1} exactly once")
    return res


def fig5_summary(res: dict[str, np.ndarray]) -> pd.DataFrame:
    """Summary statistics of the two relative-error distributions of Figure 5."""
    mf, un = res["mf_relative_error"], res["uniform_relative_error"]
    gap = res["bound"] - res["exact"]
    rows = [
        ("n_networks", len(mf), np.nan),
        ("mean_mf_relative_error", mf.mean(), PAPER_FIG5["mean_mf_relative_error"]),
        ("median_mf_relative_error", np.median(mf), np.nan),
        ("rms_mf_relative_error", np.sqrt(np.mean(mf**2)), np.nan),
        ("max_mf_relative_error", mf.max(), np.nan),
        ("mean_uniform_relative_error", un.mean(), np.nan),
        ("rms_uniform_relative_error", np.sqrt(np.mean(un**2)), PAPER_FIG5["rms_uniform_relative_error"]),
        ("max_bound_minus_exact", gap.max(), np.nan),
        ("mean_sweeps", res["n_sweeps"].mean(), np.nan),
    ]
    return pd.DataFrame(rows, columns=["statistic", "value", "paper_value"])
