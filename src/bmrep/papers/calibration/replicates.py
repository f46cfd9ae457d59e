"""A shard of the calibration study: independent replicates of one estimator group on one model.

Each replicate of each budget is its own run with its own random streams,
keyed by (model, group, budget, replicate) through :mod:`bmrep.seeds`, so the
replicates are independent and do not depend on how they are sharded. Every
row is compared with the model's exact log Z: ``error`` = estimate - exact,
``covered`` = whether the reported interval estimate +- 2 stderr holds the
exact value (NaN where the method reports no error).
"""

from __future__ import annotations

import pandas as pd

from ...models.rbm import RBM
from ...progress import track
from . import GROUPS, SECTION
from .estimators import run_group
from .summary import against_exact

COLUMNS = ["model", "group", "method", "sweeps", "replicate", "estimate", "stderr", "exact", "error", "covered",
           "cpu_seconds"]  # fmt: skip


def replicate_shard(
    model: str,
    arrays: dict,
    log_z: float,
    group: str,
    budgets,
    replicates,
    settings: dict,
    seed: int,
) -> pd.DataFrame:
    """Replicates ``replicates`` of estimator group ``group`` on ``model`` at every budget.

    Parameters
    ----------
    model : str
        The model's name (keys the random streams).
    arrays : dict
        The model's saved arrays: ``W``, ``b``, ``c``, ``base_bias``, ``raise_data``.
    log_z : float
        Its exact log Z.
    group : {"AIS", "RAISE", "tempered"}
    budgets : iterable of int
        Sweeps per chain.
    replicates : iterable of int
        This shard's replicate indices.
    settings, seed
        See :func:`bmrep.papers.calibration.estimators.run_group`.

    Returns
    -------
    DataFrame
        Columns :data:`COLUMNS`, one row per (budget, replicate, method of the group).
    """
    if group not in GROUPS:
        raise ValueError(f"group must be one of {sorted(GROUPS)}, got {group!r}")
    rbm = RBM(arrays["W"], arrays["b"], arrays["c"])
    jobs = [(int(b), int(r)) for b in sorted(int(x) for x in budgets) for r in replicates]
    rows = []
    for b, rep in track(jobs, f"{model} {group} runs"):
        key = (SECTION, model, group, b, rep)
        for row in run_group(rbm, arrays["base_bias"], arrays["raise_data"], group, b, settings, seed, key):
            rows.append({"model": model, "group": group, "sweeps": b, "replicate": rep, **row})
    df = pd.DataFrame(rows)
    df["exact"] = float(log_z)
    return against_exact(df)[COLUMNS]
