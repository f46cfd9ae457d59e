"""Summaries of the shards of Figs. 2, 3 and 6 of Yokoyama et al. (2019).

Shards (from :mod:`.train_kld` and :mod:`.train_drbm`) are merged along
experiments; the figures' per-epoch tables hold the mean and standard error
over experiments, the final-epoch tables the per-experiment values the
claims are decided from (paired over experiments).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .s_values import s_label


def curve_table(arrays: dict, R: int, metric: str) -> pd.DataFrame:
    """Mean and standard error over experiments of ``metric`` per (s, epoch), long format."""
    vals = arrays[metric]
    n = vals.shape[0]
    rows = []
    for si, s in enumerate(arrays["s"]):
        mean = vals[:, si].mean(0)
        sem = vals[:, si].std(0, ddof=1) / math.sqrt(n) if n > 1 else np.full_like(mean, np.nan)
        rows.append(
            pd.DataFrame(
                {"R": R, "s": s_label(s), "epoch": arrays["epochs"], "mean": mean, "sem": sem, "n_experiments": n}
            )
        )
    return pd.concat(rows, ignore_index=True)


def merge_shards(shards: list[dict]) -> dict:
    """Concatenate shard outputs of :func:`.train_kld.kld_curves` or :func:`.train_drbm.drbm_curves` along experiments.

    ``s``, ``epochs`` and ``R`` are common to all shards and must agree.
    """
    common = ("s", "epochs", "R")
    for key in common:
        if key in shards[0] and any(not np.array_equal(sh[key], shards[0][key]) for sh in shards):
            raise ValueError(f"shards disagree on {key!r}")
    order = np.argsort(np.concatenate([sh["experiments"] for sh in shards]), kind="stable")
    return {k: (shards[0][k] if k in common else np.concatenate([sh[k] for sh in shards])[order]) for k in shards[0]}


def drbm_table(arrays: dict) -> pd.DataFrame:
    """Mean and standard error over experiments of the training and test errors per (s, epoch)."""
    rows = []
    n = arrays["train_error"].shape[0]
    for si, s in enumerate(arrays["s"]):
        for metric in ("train_error", "test_error"):
            v = arrays[metric][:, si]
            sem = v.std(0, ddof=1) / math.sqrt(n) if n > 1 else np.full(v.shape[1], np.nan)
            rows.append(
                pd.DataFrame(
                    {
                        "s": s_label(s),
                        "metric": metric,
                        "epoch": arrays["epochs"],
                        "mean": v.mean(0),
                        "sem": sem,
                        "n_experiments": n,
                    }
                )
            )
    return pd.concat(rows, ignore_index=True)


def final_epoch_table(arrays: dict, keys: tuple[str, ...], **columns) -> pd.DataFrame:
    """Per-experiment values of ``keys`` at the last recorded epoch, one row per (experiment, s)."""
    rows = []
    for si, s in enumerate(arrays["s"]):
        d = {**columns, "experiment": arrays["experiments"], "s": s_label(s), "epoch": int(arrays["epochs"][-1])}
        d.update({k: arrays[k][:, si, -1] for k in keys})
        rows.append(pd.DataFrame(d))
    return pd.concat(rows, ignore_index=True)
