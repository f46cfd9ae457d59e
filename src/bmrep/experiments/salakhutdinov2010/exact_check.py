"""The AIS check of Salakhutdinov (2010): AIS and the eq. (3) bound against exact enumeration.

A DBM small enough to enumerate is pretrained and trained with SAP on the
same data as the large models, and the AIS of :mod:`.evaluation` (the same
code, the same settings) is compared with its exact log Z.
"""

from __future__ import annotations

import numpy as np

from bmrep.estimators.ais import effective_sample_size, log_mean_exp, log_mean_exp_stderr
from bmrep.estimators.dbm_ais import data_base_biases
from bmrep.learning.dbm_samplers import make_sampler
from bmrep.learning.dbm_training import train_dbm
from bmrep.learning.optimizers import inverse_time
from bmrep.models.dbm import variational_bound
from bmrep.models.exact import dbm as exact_dbm

from .common import chain_streams, paper_rng
from .evaluation import estimate_log_z
from .train import pretrain


def exact_check(X_train: np.ndarray, X_test: np.ndarray, cfg: dict, seed: int) -> dict:
    """AIS and the eq. (3) bound on a small enumerable DBM against their exact values.

    The DBM (``cfg["exact_check"]``) is pretrained and trained on the data with
    SAP; AIS (the same code as for the large models) is compared with the
    exact log Z, and the eq. (3) bound with the exact test log-likelihood.

    ``cfg`` keys: ``exact_check``, ``batch_size``, ``pretrain``, ``train``
    (its learning-rate schedule) and ``evaluation`` (``ais_state``,
    ``n_mean_field``).

    Besides the claim's AIS run (``exact_check.ais``), three diagnostics say why
    and where an estimate is off:

    * ``beta_profile``: the claim run's running estimate of every intermediate
      ``log Z_k`` against its exact value at ``n_profile`` points of the ladder
      (where along beta the bias accumulates);
    * ``ladder``: independent AIS runs with each ``n_betas`` in
      ``exact_check.ais_ladder`` and each schedule in
      ``exact_check.ais_ladder_schedules`` (does the error shrink as the
      annealing slows, as it must for a correct AIS whose only fault is too
      fast annealing; which schedule gets there with fewer betas);
    * ``replicates``: ``exact_check.ais_replicates`` more runs of the claim's
      estimator with the claim's settings and independent streams, and
      ``replicates_pooled``, the estimate from all their runs together. The
      spread of the replicates' errors is the estimator's own sampling
      spread at this scale (no delta-method approximation), and the pooled
      error says whether the estimator is off on average or only noisy.
    """
    e = cfg["exact_check"]
    sub_cfg = {
        "n_visible": X_train.shape[1],
        "n_hidden1": e["n_hidden1"],
        "n_hidden2": e["n_hidden2"],
        "batch_size": cfg["batch_size"],
        "dtype": "float64",
        "pretrain": cfg["pretrain"],
    }
    dbm = pretrain(X_train, sub_cfg, seed + 1)
    s = make_sampler("SAP", dbm, chain_streams(seed, 100, "exact-check"), paper_rng(seed, "exact-check"), n_chains=100)
    train_dbm(
        dbm,
        X_train,
        s,
        n_updates=int(e["n_updates"]),
        batch_size=int(cfg["batch_size"]),
        lr=inverse_time(cfg["train"]["lr_numerator"], cfg["train"]["lr_offset"]),
        rng=paper_rng(seed, "exact-mb"),
    )
    base = data_base_biases(dbm, X_train)
    state = cfg["evaluation"].get("ais_state", "v_h2")
    z = estimate_log_z(dbm, e["ais"], base, seed, "exact-check", state=state, record_partial=True)
    exact = exact_dbm.log_partition(dbm)
    betas = z.betas
    # evenly spaced in beta (the piecewise ladder crowds its betas near 1)
    idx = np.unique(
        np.clip(np.searchsorted(betas, np.linspace(0.0, 1.0, int(e.get("n_profile", 25)))), 0, betas.size - 1)
    )
    profile = [
        {
            "beta": float(betas[k]),
            "error": float(z.partial_log_z[k] - exact_dbm.log_partition(dbm, beta=float(betas[k]), base_bias=base)),
        }
        for k in idx
    ]
    ladder = []
    for schedule in e.get("ais_ladder_schedules", [e["ais"].get("schedule", "piecewise")]):
        for nb in e.get("ais_ladder", []):
            zl = estimate_log_z(
                dbm,
                {**e["ais"], "n_betas": int(nb), "schedule": schedule},
                base,
                seed,
                "exact-check",
                "ladder",
                int(nb),
                state=state,
            )
            ladder.append(
                {
                    "schedule": schedule,
                    "n_betas": int(nb),
                    "log_z": zl.log_z,
                    "stderr": zl.stderr,
                    "error": zl.log_z - exact,
                }
            )
    replicates, pooled_w = [], []
    for r in range(int(e.get("ais_replicates", 0))):
        zr = estimate_log_z(dbm, e["ais"], base, seed, "exact-check", "replicate", r, state=state)
        replicates.append({"log_z": zr.log_z, "stderr": zr.stderr, "ess": zr.ess, "error": zr.log_z - exact})
        pooled_w.append(zr.log_weights)
    pooled = None
    if pooled_w:
        w = np.concatenate(pooled_w)
        pooled = {
            "n_replicates": len(pooled_w),
            "n_runs": int(w.size),
            "error": log_mean_exp(w) - exact,
            "stderr": log_mean_exp_stderr(w),
            "ess": effective_sample_size(w),
        }
    Xt = X_test[: int(e["n_test"])].astype(np.float64)
    ll = exact_dbm.log_prob_v(dbm, Xt, exact)
    bound = variational_bound(dbm, Xt, exact, n_iter=int(cfg["evaluation"]["n_mean_field"]), tol=1e-6)
    return {
        "shape": list(dbm.shape),
        "log_z_exact": exact,
        "log_z_ais": z.log_z,
        "log_z_ais_stderr": z.stderr,
        "abs_error": abs(z.log_z - exact),
        "ais_ess": z.ess,
        "mean_exact_test_ll": float(ll.mean()),
        "mean_test_bound": float(bound.mean()),
        "max_bound_minus_ll": float(np.max(bound - ll)),
        "ais_betas": int(e["ais"]["n_betas"]),
        "ais_runs": int(e["ais"]["n_runs"]),
        "ais_state": state,
        "ais_schedule": e["ais"].get("schedule", "piecewise"),
        "beta_profile": profile,
        "ladder": ladder,
        "replicates": replicates,
        "replicates_pooled": pooled,
    }
