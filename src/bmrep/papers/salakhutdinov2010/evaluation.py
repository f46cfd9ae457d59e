"""Evaluation of Salakhutdinov (2010): AIS log Z and the variational bound of eq. (3).

AIS runs over {v, h2} with h1 summed out (or over h1 with v and h2 summed
out); the base distribution is a product of Bernoullis matching the data's
pixel means and the mean-field means of h1 and h2. The bound is computed on
a training subset at every snapshot (Figure 4, right) and on the test set
for the final model (Table 1).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bmrep.estimators.ais import ais_log_partition, effective_sample_size, log_mean_exp
from bmrep.estimators.dbm_ais import batch_rows_exact, data_base_biases
from bmrep.learning.checkpoint import resume
from bmrep.models.dbm import DBM, mean_field, variational_bound
from bmrep.models.exact import dbm as exact_dbm
from bmrep.sampling.ladders import FIXED_SCHEDULES, adaptive_betas, fixed_betas
from bmrep.sampling.streams import ChainStreams

from ...progress import track
from .common import chain_streams, paper_rng

# An AIS run with a smaller Kish effective sample size reports no delta-method error (spec, section 3,
# Evaluation): its replicate spread is the error.
MIN_ESS_STDERR = 30.0
# A DBM with at most this many units in h1 is enumerated, so its AIS is checked against the exact log Z.
EXACT_MAX_HIDDEN1 = 16
# The AIS ladders of an AIS block's ``schedule``: fixed in advance, or built from a pilot run (``adaptive``).
AIS_SCHEDULES = (*FIXED_SCHEDULES, "adaptive")


def snapshot_model(snapshots: dict, i: int) -> DBM:
    """The DBM of checkpoint ``i`` of the snapshots :func:`.train.train` returns."""
    return DBM(*(snapshots[k][i] for k in ("W1", "W2", "b", "c1", "c2")))


def chain_dtype(cfg_ais: dict):
    """The dtype of the AIS chains (``cfg_ais["dtype"]``, float64 by default)."""
    return {"float32": np.float32, "float64": np.float64}[cfg_ais.get("dtype", "float64")]


def estimate_log_z(
    dbm: DBM, cfg_ais: dict, base_bias, seed: int, *keys, state: str = "v_h2", record_partial: bool = False
):
    """AIS estimate of log Z (float64 log weights) of a DBM.

    Over {v, h2} with h1 summed out (``state="v_h2"``, Salakhutdinov & Hinton
    2009) or over h1 with v and h2 summed out (``state="h1"``).

    ``cfg_ais["schedule"]``: ``piecewise`` anneals along the Salakhutdinov &
    Murray (2008) ladder (:func:`bmrep.sampling.ladders.piecewise_betas`),
    ``linear`` along betas uniform in [0, 1]; ``adaptive`` first runs a pilot
    along the ``cfg_ais["pilot"]`` ladder (``piecewise`` or ``linear``) of
    ``pilot_fraction * n_betas`` betas (same number of runs, its own streams)
    and then anneals along the constant-speed ladder of
    :func:`bmrep.sampling.ladders.adaptive_betas` built from the pilot's
    increment spread. The returned run's ``betas`` is the ladder used.
    """
    return ais_replicates(dbm, cfg_ais, base_bias, seed, [keys], state=state, record_partial=record_partial)[0]


def ais_replicates(
    dbm: DBM, cfg_ais: dict, base_bias, seed: int, key_sets, *, state: str = "v_h2", record_partial: bool = False
) -> list:
    """One AIS estimate of log Z per key tuple of ``key_sets`` (:func:`estimate_log_z`), annealed together.

    Replicate ``g`` runs on the streams ``chain_streams(seed, n_runs, "ais",
    *key_sets[g], ...)`` as block ``g`` of ``len(key_sets) * n_runs`` chains:
    the blocks share the matrix products, each has its own pilot and ladder
    and its own statistics (:func:`bmrep.estimators.ais.ais_log_weights` with
    a matrix of ladders; Neal 2001, Salakhutdinov & Murray 2008). A block's
    run is bit for bit the run of its own where
    :func:`bmrep.estimators.dbm_ais.batch_rows_exact` holds.
    """
    n_runs, dt = int(cfg_ais["n_runs"]), chain_dtype(cfg_ais)
    d64 = dbm.astype(np.float64)
    n_rep = len(key_sets)

    def run(ladders, *more_keys, partial=False):
        streams = [chain_streams(seed, n_runs, "ais", *k, *more_keys) for k in key_sets]
        # the replicates' streams in block order: every chain keeps the stream of its own run
        joined = ChainStreams.concatenate(*streams)
        return ais_log_partition(
            d64, n_rep * n_runs, ladders, joined, base_bias, dtype=dt, state=state, record_partial=partial
        )

    def shared(ladder):  # the same ladder for every block
        return np.repeat(ladder[:, None], n_rep, axis=1)

    n_betas = int(cfg_ais["n_betas"])
    schedule = cfg_ais.get("schedule", "piecewise")
    if schedule == "adaptive":
        n_pilot = max(10, int(round(float(cfg_ais.get("pilot_fraction", 0.1)) * n_betas)))
        pilots = run(shared(fixed_betas(cfg_ais.get("pilot", "piecewise"), n_pilot)), "pilot")
        mix = float(cfg_ais.get("uniform_mix", 0.1))
        # each replicate's ladder from its own pilot; all have n_betas values, so they stack into columns
        ladders = np.stack([adaptive_betas(p.betas, p.step_sd, n_betas, mix) for p in pilots], axis=1)
        return run(ladders, "adaptive", partial=record_partial)
    if schedule not in FIXED_SCHEDULES:
        raise ValueError(f"AIS schedule must be one of {', '.join(AIS_SCHEDULES)}, got {schedule!r}")
    return run(shared(fixed_betas(schedule, n_betas)), partial=record_partial)


def ais_settings(cfg_ais: dict, state: str) -> dict:
    """Everything that defines an AIS block's estimator, defaults filled in: what the calibration and Table 1 share.

    The calibration claim compares these records of its replicates and of the
    Table 1 evaluations, so the instrument it judges is the one Table 1 used.
    """
    out = {"n_betas": int(cfg_ais["n_betas"]), "n_runs": int(cfg_ais["n_runs"]), "state": state}
    out["dtype"] = cfg_ais.get("dtype", "float64")
    out["schedule"] = schedule = cfg_ais.get("schedule", "piecewise")
    if schedule == "adaptive":
        out["pilot"] = cfg_ais.get("pilot", "piecewise")
        out["pilot_fraction"] = float(cfg_ais.get("pilot_fraction", 0.1))
        out["uniform_mix"] = float(cfg_ais.get("uniform_mix", 0.1))
    return out


def reported_stderr(stderr: float, ess: float) -> float:
    """The delta-method standard error of an AIS estimate, or NaN when its ESS is below ``MIN_ESS_STDERR``.

    With few effective runs the delta method (``sd(w) / (sqrt(n) mean(w))``)
    is itself estimated from a handful of weights and says nothing about the
    error; only independent replicates do.
    """
    return float(stderr) if float(ess) >= MIN_ESS_STDERR else float("nan")


def case_bounds(dbm: DBM, X: np.ndarray, n_mean_field: int, batch: int = 2000) -> np.ndarray:
    """The eq. (3) bound of every row of X with log Z = 0 (the bound is linear in log Z: subtract it).

    Mean field (up to ``n_mean_field`` updates, tol 1e-6) runs in the model's
    dtype; the bound itself is evaluated in float64.
    """
    d64 = dbm.astype(np.float64)
    out = []
    for s in range(0, X.shape[0], batch):
        V = X[s : s + batch]
        mu1, mu2 = mean_field(dbm, V, n_iter=n_mean_field, tol=1e-6)
        out.append(np.asarray(variational_bound(d64, V, 0.0, mu1=mu1, mu2=mu2), dtype=np.float64))
    return np.concatenate(out)


def mean_bound(dbm: DBM, X: np.ndarray, log_z: float, n_mean_field: int, batch: int = 2000) -> float:
    """Average over rows of X of the eq. (3) bound."""
    return float(case_bounds(dbm, X, n_mean_field, batch).mean()) - float(log_z)


def replicate_groups(dbm: DBM, cfg_ais: dict, n_replicates: int, *keys) -> list[list[tuple]]:
    """The key sets of ``n_replicates`` AIS replicates, grouped as they anneal (:func:`independent_replicates`).

    Replicate ``j`` draws on the keys ``*keys, "replicate", j``. One group of
    all of them where a batch gives the bits of separate runs
    (:func:`bmrep.estimators.dbm_ais.batch_rows_exact`), else one group each.
    """
    key_sets = [(*keys, "replicate", j) for j in range(int(n_replicates))]
    if batch_rows_exact(dbm, int(cfg_ais["n_runs"]), len(key_sets), chain_dtype(cfg_ais)):
        # one batch: BLAS packs the weights once for all the replicates' chains, not once per replicate
        return [key_sets]
    # the BLAS sums a batch's rows otherwise than a replicate's: one after the other, same numbers
    return [[k] for k in key_sets]


def independent_replicates(dbm: DBM, cfg_ais: dict, base_bias, n_replicates: int, seed: int, *keys, state="v_h2"):
    """``n_replicates`` independent AIS estimates of log Z (:func:`estimate_log_z`), each on its own streams.

    They anneal as one batch (:func:`ais_replicates`) where the BLAS gives
    that the same bits, else one after the other (:func:`replicate_groups`).
    """
    groups = replicate_groups(dbm, cfg_ais, n_replicates, *keys)
    return [r for g in groups for r in ais_replicates(dbm, cfg_ais, base_bias, seed, g, state=state)]


def replicate_summary(run) -> dict:
    """What the pooled log Z needs of one AIS replicate (an :class:`~bmrep.estimators.ais.AISRun`), checkpointable."""
    return {"estimate": run.estimate, "stderr": run.stderr, "ess": run.ess, "log_weights": run.log_weights}


def pooled_log_z(reps: list[dict]) -> dict:
    """The final log Z from independent AIS replicates' :func:`replicate_summary` (spec, section 3, Evaluation).

    The combined estimate pools all the replicates' runs (``log mean exp`` of
    every importance weight); its standard error is the replicates' spread,
    ``sd(log Z_j) / sqrt(R)`` (NaN for R = 1). A replicate's delta-method
    error is kept only where its ESS is at least ``MIN_ESS_STDERR``
    (:func:`reported_stderr`).
    """
    zs = np.array([r["estimate"] for r in reps])
    pooled = np.concatenate([r["log_weights"] for r in reps])
    return {
        "log_z": log_mean_exp(pooled),
        "log_z_stderr": float(np.std(zs, ddof=1) / np.sqrt(zs.size)) if zs.size > 1 else float("nan"),
        "log_z_replicates": [float(z) for z in zs],
        "log_z_replicate_mean": float(zs.mean()),
        "replicate_ess": [float(r["ess"]) for r in reps],
        "replicate_stated_stderr": [reported_stderr(r["stderr"], r["ess"]) for r in reps],
        "ess": effective_sample_size(pooled),
        "n_replicates": int(zs.size),
        # every run's log weight, replicate by replicate: how heavy the tail behind the pooled estimate is
        "log_weights": [[float(x) for x in r["log_weights"]] for r in reps],
    }


def replicated_log_z(dbm: DBM, cfg_ais: dict, base_bias, n_replicates: int, seed: int, *keys, state="v_h2") -> dict:
    """The final log Z of a model from ``n_replicates`` :func:`independent_replicates` (:func:`pooled_log_z`)."""
    reps = independent_replicates(dbm, cfg_ais, base_bias, n_replicates, seed, *keys, state=state)
    return pooled_log_z([replicate_summary(r) for r in reps])


def train_subset(X_train: np.ndarray, ev: dict, seed: int) -> np.ndarray:
    """The ``ev["curve_train_subset"]`` training images of the bound curve and of every AIS base (keyed by seed)."""
    r = paper_rng(seed, "eval-subset")
    n = min(int(ev["curve_train_subset"]), X_train.shape[0])
    return X_train[np.sort(r.choice(X_train.shape[0], n, replace=False))]


def evaluate(
    algorithm: str,
    snapshots: dict,
    X_train: np.ndarray,
    X_test: np.ndarray,
    ev: dict,
    seed: int,
    repeat: int = 0,
    log=None,
    checkpoint=None,
):
    """Bound curve (training subset, every snapshot, cheap AIS) and final test bound (replicated final AIS).

    ``ev`` is the config's ``evaluation``; ``repeat`` the seed index: :func:`curve_point` of every snapshot,
    then the final AIS replicates (:func:`replicate_groups`) and :func:`final_evaluation` of the last one.

    The paper profile's evaluation takes hours (50 snapshots of 20000 betas x 100 runs): ``checkpoint`` (a
    :class:`bmrep.learning.checkpoint.Checkpoint`, its period in units) saves the results after every
    ``checkpoint.every`` units of work, a snapshot's curve point or a group of final replicates (a few minutes
    each at the paper's settings), and a rerun continues after the last unit saved. Each unit draws on its own
    keyed streams, so the result is that of an uninterrupted run.

    Returns
    -------
    curve : DataFrame (algorithm, repeat, update, log_z, log_z_stderr, train_bound)
    final : dict (test_bound, test_bound_stderr, train_bound, log_z, log_z_stderr, log_z_replicates, ess, ...)
    """
    n = len(snapshots["updates"])
    dbm = snapshot_model(snapshots, n - 1)
    groups = replicate_groups(dbm, ev["final_ais"], int(ev["final_replicates"]), "final", repeat)
    sub, state, base = train_subset(X_train, ev, seed), ev.get("ais_state", "v_h2"), []

    def run(unit: int):
        if unit < n:
            return curve_point(algorithm, snapshots, unit, sub, ev, seed, repeat, log)
        if not base:  # the final model's base, once (its mean field on the subset takes seconds)
            base.append(data_base_biases(dbm, sub))
        reps = ais_replicates(dbm, ev["final_ais"], base[0], seed, groups[unit - n], state=state)
        return [replicate_summary(r) for r in reps]

    done: list = []
    resume(checkpoint, lambda saved: done.extend(saved["units"]), what="evaluation unit")
    n_units = n + len(groups)
    for unit in track(range(len(done), n_units), "evaluation units (snapshots' AIS + bound, final replicates)"):
        done.append(run(unit))
        if checkpoint is not None and checkpoint.due(unit + 1, n_units):
            checkpoint.save(unit + 1, {"units": done}, what="evaluation unit")
    replicates = [r for g in done[n:] for r in g]
    return pd.DataFrame(done[:n]), final_evaluation(algorithm, dbm, X_train, X_test, ev, seed, repeat, replicates)


def curve_point(algorithm: str, snapshots: dict, i: int, sub: np.ndarray, ev: dict, seed: int, repeat: int, log=None):
    """Figure 4 (right), snapshot ``i``: the eq. (3) bound on the training subset ``sub``, log Z by ``ev["curve_ais"]``.

    The AIS streams are keyed by the seed index and the snapshot's update number, not by the algorithm, so the
    algorithms of one seed are compared with common random numbers. Returns the curve's row (a dict).
    """
    upd = int(snapshots["updates"][i])
    dbm = snapshot_model(snapshots, i)
    base = data_base_biases(dbm, sub)
    z = estimate_log_z(dbm, ev["curve_ais"], base, seed, "curve", repeat, upd, state=ev.get("ais_state", "v_h2"))
    b = mean_bound(dbm, sub, z.estimate, int(ev["n_mean_field"]))
    if log is not None:
        log(f"{algorithm}: update {upd}: log Z {z.estimate:.2f} (ESS {z.ess:.1f}), train bound {b:.2f}")
    return {
        "algorithm": algorithm,
        "repeat": int(repeat),
        "update": upd,
        "log_z": z.estimate,
        "log_z_stderr": reported_stderr(z.stderr, z.ess),
        "ess": z.ess,
        "train_bound": b,
    }


def final_evaluation(
    algorithm: str,
    dbm: DBM,
    X_train: np.ndarray,
    X_test: np.ndarray,
    ev: dict,
    seed: int,
    repeat: int = 0,
    replicates: list[dict] | None = None,
) -> dict:
    """Table 1's entry of a trained DBM: its final log Z and the mean eq. (3) bound on the test set.

    log Z pools ``ev["final_replicates"]`` replicates of ``ev["final_ais"]`` (:func:`replicated_log_z`), or the
    :func:`replicate_summary` of those replicates when :func:`evaluate` has run them. The test bound's standard
    error combines the replicates' spread with the test-set sampling error.
    """
    sub = train_subset(X_train, ev, seed)
    state = ev.get("ais_state", "v_h2")
    if replicates is None:
        base, n_rep = data_base_biases(dbm, sub), int(ev["final_replicates"])
        z = replicated_log_z(dbm, ev["final_ais"], base, n_rep, seed, "final", repeat, state=state)
    else:
        z = pooled_log_z(replicates)
    test = case_bounds(dbm, X_test, int(ev["n_mean_field"]))
    test_sampling = float(test.std(ddof=1) / np.sqrt(test.size))
    final = {
        "algorithm": algorithm,
        "repeat": int(repeat),
        **z,
        "test_bound": float(test.mean()) - z["log_z"],
        "test_sampling_stderr": test_sampling,
        "test_bound_stderr": float(np.hypot(z["log_z_stderr"], test_sampling)),
        "train_bound": mean_bound(dbm, sub, z["log_z"], int(ev["n_mean_field"])),
        "n_test": int(X_test.shape[0]),
        "ais_betas": int(ev["final_ais"]["n_betas"]),
        "ais_runs": int(ev["final_ais"]["n_runs"]),
        "ais_state": state,
        "ais_schedule": ev["final_ais"].get("schedule", "piecewise"),
        "ais_settings": ais_settings(ev["final_ais"], state),
    }
    if dbm.shape[1] <= EXACT_MAX_HIDDEN1:  # enumerable (smoke profile): check AIS against the exact value
        final["log_z_exact"] = exact_dbm.log_partition(dbm.astype(np.float64))
        final["test_bound_exact_log_z"] = final["test_bound"] + final["log_z"] - final["log_z_exact"]
    return final
