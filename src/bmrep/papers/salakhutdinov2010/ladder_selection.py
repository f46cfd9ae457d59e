"""Choosing the AIS ladder of Salakhutdinov (2010) on a second enumerable DBM (spec, section 3, ``ais_calibration``).

The calibration claim judges the profile's final AIS on one enumerable DBM
(:mod:`.exact_check`, the config's seed). Its ladder is chosen here, on
another DBM of the same recipe (784-12-12, pretrained and trained with SAP
like the large ones) trained from another seed (``exact_check.selection_seed``),
so that the claim is not tuned to its own test: every candidate schedule at
every number of betas runs ``n_replicates`` independent AIS replicates
(the final AIS's runs and dtype) and is compared with the exact log Z.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from bmrep.estimators.dbm_ais import AISSettings
from bmrep.models.dbm import DBM

from ...progress import track
from .evaluation import ais_replicates


def candidate_settings(final: AISSettings, candidate: dict, n_betas: int) -> AISSettings:
    """The final AIS settings (dtype, ...) with a candidate's (``schedule``, ``pilot``, ``n_runs``, ...) and length."""
    ladder = {k: v for k, v in candidate.items() if k != "n_betas"}
    return replace(final, **ladder, n_betas=int(n_betas))


def candidate_name(ais: AISSettings) -> str:
    """A candidate's schedule as one word: ``linear``, ``piecewise`` or ``adaptive/<pilot>``."""
    return f"adaptive/{ais.pilot}" if ais.schedule == "adaptive" else ais.schedule


def selection_table(
    dbm: DBM, base, log_z_exact: float, final_ais: dict, sel: dict, seed: int, state: str
) -> pd.DataFrame:
    """Every candidate ladder's AIS error of log Z against the exact value, over independent replicates.

    ``final_ais`` is the validated final AIS block, annealing ``state``
    (:class:`~bmrep.estimators.dbm_ais.AISSettings`). ``sel`` holds
    ``candidates`` (a list of ladder settings: ``schedule`` and, for
    ``adaptive``, ``pilot``, ``pilot_fraction``, ``uniform_mix``; a
    candidate's ``n_runs`` replaces the final AIS's, its own ``n_betas`` list
    the common one), ``n_betas`` (the lengths tried) and ``n_replicates``. Replicate ``j`` of a
    candidate at a length runs on the streams keyed ``("selection", name,
    n_betas, "replicate", j)`` under ``seed`` (:func:`.evaluation.ais_replicates`,
    all replicates of a row annealed as one batch of chains): rows that differ
    in ``n_runs`` alone share the streams of their first runs.

    Returns
    -------
    DataFrame
        One row per (candidate, n_betas): ``schedule``, ``n_betas``,
        ``n_runs``, ``n_replicates``, ``mean_error`` (mean over replicates of
        log Z - exact), ``stderr`` (their sd / sqrt(R)), ``sd``, ``min_error``,
        ``max_error`` and ``median_ess``.
    """
    rows, final = [], AISSettings.from_config(final_ais, state)
    grid = [(c, int(nb)) for c in sel["candidates"] for nb in c.get("n_betas", sel["n_betas"])]
    n_rep = int(sel["n_replicates"])
    for cand, nb in track(grid, "candidate ladders"):
        ais = candidate_settings(final, cand, nb)
        name = candidate_name(ais)
        keys = [("selection", name, nb, "replicate", j) for j in range(n_rep)]
        reps = ais_replicates(dbm, ais, base, seed, keys)
        err = np.array([r.estimate for r in reps]) - float(log_z_exact)
        rows.append(
            {
                "schedule": name,
                "n_betas": nb,
                "n_runs": ais.n_runs,
                "n_replicates": n_rep,
                "mean_error": float(err.mean()),
                "stderr": float(err.std(ddof=1) / np.sqrt(n_rep)),
                "sd": float(err.std(ddof=1)),
                "min_error": float(err.min()),
                "max_error": float(err.max()),
                "median_ess": float(np.median([r.ess for r in reps])),
            }
        )
    return pd.DataFrame(rows)


__all__ = ["candidate_settings", "candidate_name", "selection_table"]
