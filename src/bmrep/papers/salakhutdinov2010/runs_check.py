"""Does Table 1 survive more AIS runs? Many more independent replicates of seed 0's final log Z, pooled.

Table 1's log Z pools the runs of ``evaluation.final_replicates`` AIS
replicates (:func:`.evaluation.replicated_log_z`). The log of a mean of
importance weights is low on average (Jensen: ``E[log mean w] <= log Z``), and
the more so the heavier the weights' tail: on the enumerable calibration DBM
trained with the paper's 100 pretraining epochs, one 50-run replicate errs by
about -2 nats and a pool of five by about -0.4 (:mod:`.exact_check`,
``replicates_grouped``). Nothing is exact on the 784-500-1000 models, so this
check measures the same thing there: ``n_replicates`` further replicates of
the final AIS (own streams), their runs pooled all together and in disjoint
pools of Table 1's size. If the pools of Table 1's size sit below the big
pool, Table 1's log Z is low by about as much (its bounds high).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from bmrep.estimators.ais import effective_sample_size, grouped_log_mean_exp, log_mean_exp
from bmrep.estimators.dbm_ais import data_base_biases

from .evaluation import EvaluationSettings, independent_replicates, snapshot_model, train_subset


def runs_check(
    algorithm: str, snapshots: dict, X_train: np.ndarray, ev: Mapping, n_replicates: int, seed: int, repeat: int = 0
) -> dict:
    """``n_replicates`` replicates of the final AIS (``ev["final_ais"]``) of the final model, pooled.

    ``ev`` is the config's validated ``evaluation`` section (:class:`.evaluation.EvaluationSettings`).
    The base is the evaluation's (:func:`.evaluation.train_subset`); the
    replicates draw from their own streams (keys ``"runs-check", repeat,
    "replicate", j``), apart from the evaluation's.

    Returns
    -------
    dict
        ``algorithm``, ``repeat``, ``n_runs`` (per replicate), ``n_replicates``,
        ``pool`` (``ev["final_replicates"]``), ``log_z_pooled`` and ``ess_pooled``
        (all runs), ``log_z_replicates``, ``log_z_pools`` (disjoint pools of
        ``pool`` replicates: Table 1's estimate, repeated) and
        ``pools_minus_pooled`` (their mean minus the big pool).
    """
    s = EvaluationSettings.from_config(ev)
    dbm = snapshot_model(snapshots, len(snapshots["updates"]) - 1)
    base = data_base_biases(dbm, train_subset(X_train, s.curve_train_subset, seed))
    ais = s.final_ais
    reps = independent_replicates(dbm, ais, base, int(n_replicates), seed, "runs-check", int(repeat))
    rows = np.stack([np.asarray(r.log_weights, dtype=np.float64) for r in reps])
    pool = s.final_replicates
    pooled = log_mean_exp(rows.ravel())
    pools = grouped_log_mean_exp(rows, pool)
    return {
        "algorithm": algorithm,
        "repeat": int(repeat),
        "n_runs": ais.n_runs,
        "n_betas": ais.n_betas,
        "n_replicates": int(rows.shape[0]),
        "pool": pool,
        "log_z_pooled": pooled,
        "ess_pooled": effective_sample_size(rows.ravel()),
        "log_z_replicates": [float(r.estimate) for r in reps],
        "log_z_pools": [float(z) for z in pools],
        "replicates_minus_pooled": float(np.mean([r.estimate for r in reps]) - pooled),
        "pools_minus_pooled": float(pools.mean() - pooled) if pools.size else float("nan"),
    }


__all__ = ["runs_check"]
