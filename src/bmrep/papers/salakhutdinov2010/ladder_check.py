"""Does Table 1 survive a longer AIS ladder? One replicate at the profile's ladder against one 5x longer.

The AIS calibration (:mod:`.exact_check`) judges the final AIS on a small
enumerable DBM; on the 784-500-1000 models nothing is exact. The spec
(section 3, ``ais_calibration``) asks Table 1's details to show, for one seed
per algorithm, one replicate of the final model's log Z at the profile's
ladder (``evaluation.final_ais``) against one at a ladder of
``LONG_FACTOR`` times as many betas (same schedule, runs and dtype, the same
AIS base as the evaluation): if the longer ladder moves every algorithm's
log Z alike, the gaps between algorithms stand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy as np

from bmrep.estimators.dbm_ais import data_base_biases

from .evaluation import EvaluationSettings, estimate_log_z, reported_stderr, snapshot_model, train_subset

LONG_FACTOR = 5  # the longer ladder's number of betas, in units of the profile's


def ladder_check(algorithm: str, snapshots: dict, X_train: np.ndarray, ev: Mapping, seed: int, repeat: int = 0) -> dict:
    """One AIS replicate of the final model's log Z at ``ev["final_ais"]`` and one at ``LONG_FACTOR`` x its betas.

    ``ev`` is the config's validated ``evaluation`` section (:class:`.evaluation.EvaluationSettings`).

    The base is the evaluation's (:func:`.evaluation.train_subset`); the two
    replicates draw from their own streams (keys ``"ladder-check", repeat,
    "profile" | "long"``), apart from the evaluation's replicates.

    Returns
    -------
    dict
        ``algorithm``, ``repeat``, ``n_betas``, ``n_betas_long``, ``log_z``,
        ``log_z_long``, ``long_minus_profile``, their ESS and stated errors.
    """
    s = EvaluationSettings.from_config(ev)
    dbm = snapshot_model(snapshots, len(snapshots["updates"]) - 1)
    base = data_base_biases(dbm, train_subset(X_train, s.curve_train_subset, seed))
    profile_ais = s.final_ais
    long_ais = replace(profile_ais, n_betas=LONG_FACTOR * profile_ais.n_betas)
    short, long = (
        estimate_log_z(dbm, ais, base, seed, "ladder-check", int(repeat), which)
        for ais, which in ((profile_ais, "profile"), (long_ais, "long"))
    )
    return {
        "algorithm": algorithm,
        "repeat": int(repeat),
        "n_betas": profile_ais.n_betas,
        "n_betas_long": long_ais.n_betas,
        "n_runs": profile_ais.n_runs,
        "log_z": short.estimate,
        "log_z_long": long.estimate,
        "long_minus_profile": long.estimate - short.estimate,
        "ess": short.ess,
        "ess_long": long.ess,
        "stderr": reported_stderr(short.stderr, short.ess),
        "stderr_long": reported_stderr(long.stderr, long.ess),
        # the runs behind each replicate (issue 64: a long ladder below the short one is a heavy tail or not)
        "log_weights": [float(x) for x in short.log_weights],
        "log_weights_long": [float(x) for x in long.log_weights],
    }


__all__ = ["LONG_FACTOR", "ladder_check"]
