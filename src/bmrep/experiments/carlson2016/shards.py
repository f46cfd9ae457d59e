"""A shard's result table as named arrays and back (the workflow scripts write them as npz)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd


def frame_arrays(df: pd.DataFrame) -> dict[str, np.ndarray]:
    """One array per column of ``df``; text columns as fixed-width unicode (npz stores no objects).

    Parameters
    ----------
    df : DataFrame
        A shard's table.

    Returns
    -------
    dict of str to ndarray
        Column name to values, in column order.
    """

    def column(c):
        if pd.api.types.is_numeric_dtype(df[c]) or pd.api.types.is_bool_dtype(df[c]):
            return df[c].to_numpy()
        return np.array([str(x) for x in df[c]], dtype=str)

    return {c: column(c) for c in df.columns}


def concat_frames(tables: Iterable[Mapping[str, np.ndarray]]) -> pd.DataFrame:
    """The shards' tables (from :func:`frame_arrays`) concatenated into one frame."""
    return pd.concat([pd.DataFrame(dict(t)) for t in tables], ignore_index=True)
