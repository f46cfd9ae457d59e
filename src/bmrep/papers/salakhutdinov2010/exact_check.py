"""The AIS calibration of Salakhutdinov (2010): AIS and the eq. (3) bound against exact enumeration.

A DBM small enough to enumerate is pretrained and trained with SAP on the
same data as the large models (:func:`exact_model`); the AIS of
:mod:`.evaluation` (the same code, the profile's final-evaluation settings)
is repeated R times with independent streams (:func:`ais_replicates`, one
shard of replicates per job) and compared with the exact log Z
(:func:`combine`). :func:`diagnostics` says where along beta and at which
annealing length an estimate goes wrong.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from bmrep.estimators.ais import effective_sample_size, grouped_log_mean_exp, log_mean_exp, log_mean_exp_stderr
from bmrep.estimators.dbm_ais import AISSettings, data_base_biases
from bmrep.learning.dbm_samplers import SamplerSettings, make_sampler
from bmrep.learning.dbm_training import train_dbm
from bmrep.learning.optimizers import inverse_time
from bmrep.models.dbm import DBM, variational_bound
from bmrep.models.exact import dbm as exact_dbm

from ...progress import track
from .common import chain_streams, paper_rng
from .evaluation import estimate_log_z, reported_stderr
from .train import pretrain

BASE_KEYS = ("base_v", "base_h1", "base_h2")
PER_REPLICATE = ("replicate", "log_z", "ess", "stderr", "delta_stderr")


def exact_model(X_train: np.ndarray, X_test: np.ndarray, cfg: dict, seed: int):
    """The enumerable DBM trained like the large ones, its AIS base and its exact values.

    The DBM (``cfg["exact_check"]``: ``n_hidden1``, ``n_hidden2``,
    ``n_updates``, ``n_test``) is pretrained as in Salakhutdinov & Hinton
    (2009) and trained with SAP (100 chains, the paper's learning-rate
    schedule ``cfg["train"]``) in float64.

    Returns
    -------
    dbm : DBM
    base : tuple of arrays
        The AIS base logits (v, h1, h2) from the training data
        (:func:`bmrep.estimators.dbm_ais.data_base_biases`).
    exact : dict
        ``n_updates`` and the :func:`exact_values` on the first ``n_test``
        test images.
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
    sap = SamplerSettings(n_chains=100)
    s = make_sampler("SAP", dbm, chain_streams(seed, sap.n_chains, "exact-check"), paper_rng(seed, "exact-check"), sap)
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
    exact = {
        "n_updates": int(e["n_updates"]),
        **exact_values(dbm, X_test[: int(e["n_test"])], int(cfg["n_mean_field"])),
    }
    return dbm, base, exact


def exact_values(dbm: DBM, X_test: np.ndarray, n_mean_field: int) -> dict:
    """Exact log Z (enumeration over h1, float64), exact test log-likelihood and the eq. (3) bound.

    Returns ``shape``, ``log_z_exact``, ``n_test``, ``mean_exact_test_ll``,
    ``mean_test_bound`` (mean field of up to ``n_mean_field`` updates, tol
    1e-6, with the exact log Z) and ``max_bound_minus_ll`` (must be <= 0).
    """
    log_z = exact_dbm.log_partition(dbm)
    Xt = np.asarray(X_test, dtype=np.float64)
    ll = exact_dbm.log_prob_v(dbm, Xt, log_z)
    bound = variational_bound(dbm, Xt, log_z, n_iter=n_mean_field, tol=1e-6)
    return {
        "shape": list(dbm.shape),
        "log_z_exact": log_z,
        "n_test": int(Xt.shape[0]),
        "mean_exact_test_ll": float(ll.mean()),
        "mean_test_bound": float(bound.mean()),
        "max_bound_minus_ll": float(np.max(bound - ll)),
    }


def model_arrays(dbm: DBM, base) -> dict:
    """The DBM's parameters and its AIS base logits as one dict of arrays (the cached model)."""
    return {**dbm.params(), **dict(zip(BASE_KEYS, base, strict=True))}


def model_from_arrays(arrays: dict):
    """Inverse of :func:`model_arrays`: ``(dbm, base)``."""
    return DBM.from_params(arrays), tuple(np.asarray(arrays[k]) for k in BASE_KEYS)


def ais_replicates(dbm: DBM, base, cfg_ais: dict, seed: int, replicates, state: str) -> dict:
    """Independent AIS estimates of log Z, one per replicate index (Salakhutdinov & Hinton 2009).

    ``cfg_ais`` is the validated final AIS block, annealing ``state`` (:class:`AISSettings`). Replicate ``r``
    draws from streams keyed by ``r`` alone, so how the replicates are split into jobs does not change any number.

    Returns
    -------
    dict of arrays over the replicates
        ``replicate``, ``log_z``, ``ess`` (Kish, of ``n_runs``),
        ``stderr`` (the reported delta-method error: NaN where the ESS is
        below :data:`.evaluation.MIN_ESS_STDERR`), ``delta_stderr`` (the
        delta-method value whatever the ESS, kept only to compare it with
        the replicates' spread) and ``log_weights`` (replicates x runs).
    """
    ais = AISSettings.from_config(cfg_ais, state)
    runs = [
        estimate_log_z(dbm, ais, base, seed, "exact-check", "replicate", int(r))
        for r in track(replicates, "AIS replicates")
    ]
    n = ais.n_runs
    return {
        "replicate": np.array([int(r) for r in replicates], dtype=np.int64),
        "log_z": np.array([z.estimate for z in runs], dtype=np.float64),
        "ess": np.array([z.ess for z in runs], dtype=np.float64),
        "stderr": np.array([reported_stderr(z.stderr, z.ess) for z in runs], dtype=np.float64),
        "delta_stderr": np.array([z.stderr for z in runs], dtype=np.float64),
        "log_weights": np.array([z.log_weights for z in runs], dtype=np.float64).reshape(len(runs), n),
    }


def diagnostics(dbm: DBM, base, cfg_ais: dict, e: dict, seed: int, state: str) -> dict:
    """Where along beta, and at which annealing length, the AIS estimate departs from the exact one.

    ``cfg_ais`` is the validated final AIS block, annealing ``state`` (:class:`AISSettings`).

    * ``beta_profile``: one run with the calibration's settings (its own
      streams) records its running estimate of every intermediate
      ``log Z_k``, compared with the exact value at ``e["n_profile"]``
      points evenly spaced in beta;
    * ``ladder``: one independent run for each ``n_betas`` in
      ``e["ais_ladder"]`` and each schedule in ``e["ais_ladder_schedules"]``
      (the calibration's ``n_runs``; the final AIS's schedule where that list
      is empty): does the error shrink as the annealing slows, as it must
      when too fast annealing is its only cause.
    """
    ais = AISSettings.from_config(cfg_ais, state)
    z = estimate_log_z(dbm, ais, base, seed, "exact-check", "profile", record_partial=True)
    betas = z.betas
    # evenly spaced in beta (the piecewise ladder crowds its betas near 1)
    idx = np.unique(np.clip(np.searchsorted(betas, np.linspace(0.0, 1.0, int(e["n_profile"]))), 0, betas.size - 1))
    profile = [
        {
            "beta": float(betas[k]),
            "error": float(z.partial_log_z[k] - exact_dbm.log_partition(dbm, beta=float(betas[k]), base_bias=base)),
        }
        for k in idx
    ]
    exact = exact_dbm.log_partition(dbm)
    ladder = []
    for schedule in e["ais_ladder_schedules"] or [ais.schedule]:
        for nb in e["ais_ladder"]:
            rung = replace(ais, n_betas=int(nb), schedule=schedule)
            zl = estimate_log_z(dbm, rung, base, seed, "exact-check", "ladder", schedule, int(nb))
            ladder.append(
                {
                    "schedule": schedule,
                    "n_betas": int(nb),
                    "error": zl.estimate - exact,
                    "stderr": reported_stderr(zl.stderr, zl.ess),
                    "ess": zl.ess,
                }
            )
    return {"beta_profile": profile, "ladder": ladder}


def combine(
    exact: dict, shards: list[dict], cfg_ais: dict, state: str, diag: dict | None = None, pool: int | None = None
) -> dict:
    """The calibration's result: every replicate's error against the exact log Z, and their summary.

    ``shards`` are :func:`ais_replicates` outputs. ``replicates_pooled`` is
    the estimate from all the replicates' runs together (one AIS of
    R x n_runs runs): whether the estimator is off on average or only noisy.
    ``cfg_ais`` and ``state`` are the final AIS the replicates ran (:func:`ais_replicates`), recorded beside them.
    With ``pool`` (the evaluation's ``final_replicates``), ``replicates_grouped``
    is the error of the estimate Table 1 makes, which pools ``pool``
    replicates' runs: the replicates in order, in disjoint groups of ``pool``.
    """
    cat = {k: np.concatenate([np.atleast_1d(s[k]) for s in shards]) for k in PER_REPLICATE}
    order = np.argsort(cat["replicate"])
    w = np.concatenate([np.asarray(s["log_weights"]).ravel() for s in shards])
    rows = np.concatenate([np.atleast_2d(s["log_weights"]) for s in shards])[order]
    pooled_ess = effective_sample_size(w)
    log_z_exact, ais = float(exact["log_z_exact"]), AISSettings.from_config(cfg_ais, state)
    replicates = [
        {
            "replicate": int(cat["replicate"][i]),
            "log_z": float(cat["log_z"][i]),
            "error": float(cat["log_z"][i] - log_z_exact),
            "ess": float(cat["ess"][i]),
            "stderr": float(cat["stderr"][i]),
            "delta_stderr": float(cat["delta_stderr"][i]),
        }
        for i in order
    ]
    return {
        **exact,
        "ais_betas": ais.n_betas,
        "ais_runs": ais.n_runs,
        "ais_dtype": ais.dtype,
        "ais_schedule": ais.schedule,
        "ais_state": ais.state,
        "ais_settings": ais.record(),
        "replicates": replicates,
        "replicates_pooled": {
            "n_replicates": len(replicates),
            "n_runs": int(w.size),
            "error": log_mean_exp(w) - log_z_exact,
            "stderr": reported_stderr(log_mean_exp_stderr(w), pooled_ess),
            "ess": pooled_ess,
        },
        **({} if pool is None else {"replicates_grouped": grouped_errors(rows, int(pool), log_z_exact)}),
        **(diag or {"beta_profile": [], "ladder": []}),
    }


def grouped_errors(rows: np.ndarray, pool: int, log_z_exact: float) -> dict:
    """Errors of the estimates that pool ``pool`` replicates' runs (:func:`grouped_log_mean_exp`): mean, s.e., n."""
    err = grouped_log_mean_exp(rows, pool) - log_z_exact
    return {
        "pool": int(pool),
        "n_runs": int(pool) * int(rows.shape[1]),
        "n_groups": int(err.size),
        "errors": [float(e) for e in err],
        "error": float(err.mean()) if err.size else float("nan"),
        "stderr": float(err.std(ddof=1) / np.sqrt(err.size)) if err.size > 1 else float("nan"),
    }
