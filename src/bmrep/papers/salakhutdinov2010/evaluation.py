"""Evaluation of Salakhutdinov (2010): AIS log Z and the variational bound of eq. (3).

AIS runs over {v, h2} with h1 summed out (or over h1 with v and h2 summed
out); the base distribution is a product of Bernoullis matching the data's
pixel means and the mean-field means of h1 and h2. The bound is computed on
a training subset at every snapshot (Figure 4, right) and on the test set
for the final model (Table 1). A stage reads the config's ``evaluation``
section once, into :class:`EvaluationSettings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from bmrep.estimators.ais import ais_log_partition, effective_sample_size, log_mean_exp
from bmrep.estimators.dbm_ais import AISSettings, batch_rows_exact, data_base_biases
from bmrep.learning.checkpoint import resume
from bmrep.models.dbm import DBM, mean_field, variational_bound
from bmrep.models.exact import dbm as exact_dbm
from bmrep.sampling.ladders import adaptive_betas, fixed_betas
from bmrep.sampling.streams import ChainStreams

from ...progress import track
from .common import chain_streams, paper_rng

# An AIS run with a smaller Kish effective sample size reports no delta-method error (spec, section 3,
# Evaluation): its replicate spread is the error.
MIN_ESS_STDERR = 30.0
# A DBM with at most this many units in h1 is enumerated, so its AIS is checked against the exact log Z.
EXACT_MAX_HIDDEN1 = 16


@dataclass(frozen=True)
class EvaluationSettings:
    """The config's ``evaluation`` section as the stages read it: Table 1 and Figure 4 (right); spec, section 3.

    Built once by each stage from the validated section (:meth:`from_config`; its schema fills ``ais_state`` and
    the AIS blocks' defaults).

    Attributes
    ----------
    curve_ais : AISSettings
        The AIS of every snapshot's log Z on the bound curve (Figure 4, right).
    final_ais : AISSettings
        The AIS of each replicate of the final model's log Z (Table 1; the instrument the calibration judges).
    final_replicates : int
        Independent AIS replicates whose runs are pooled into Table 1's log Z.
    n_mean_field : int
        Mean-field updates (tol 1e-6) of the eq. (3) bound.
    curve_train_subset : int
        Training images of the bound curve and of every AIS base (:func:`train_subset`).
    """

    curve_ais: AISSettings
    final_ais: AISSettings
    final_replicates: int
    n_mean_field: int
    curve_train_subset: int

    @classmethod
    def from_config(cls, ev: Mapping) -> EvaluationSettings:
        """The settings of the validated ``evaluation`` section (both AIS blocks anneal ``ev["ais_state"]``)."""
        state = ev["ais_state"]
        return cls(
            curve_ais=AISSettings.from_config(ev["curve_ais"], state),
            final_ais=AISSettings.from_config(ev["final_ais"], state),
            final_replicates=int(ev["final_replicates"]),
            n_mean_field=int(ev["n_mean_field"]),
            curve_train_subset=int(ev["curve_train_subset"]),
        )


def snapshot_model(snapshots: dict, i: int) -> DBM:
    """The DBM of checkpoint ``i`` of the snapshots :func:`.train.train` returns."""
    return DBM(*(snapshots[k][i] for k in ("W1", "W2", "b", "c1", "c2")))


def estimate_log_z(dbm: DBM, ais: AISSettings, base_bias, seed: int, *keys, record_partial: bool = False):
    """AIS estimate of log Z (float64 log weights) of a DBM, annealed as ``ais`` says (:class:`AISSettings`).

    Over {v, h2} with h1 summed out (``ais.state="v_h2"``, Salakhutdinov & Hinton
    2009) or over h1 with v and h2 summed out (``ais.state="h1"``).

    ``ais.schedule``: ``piecewise`` anneals along the Salakhutdinov &
    Murray (2008) ladder (:func:`bmrep.sampling.ladders.piecewise_betas`),
    ``linear`` along betas uniform in [0, 1]; ``adaptive`` first runs a pilot
    along the ``ais.pilot`` ladder of ``ais.n_pilot_betas`` betas (same number
    of runs, its own streams) and then anneals along the constant-speed ladder of
    :func:`bmrep.sampling.ladders.adaptive_betas` built from the pilot's
    increment spread. The returned run's ``betas`` is the ladder used.
    """
    return ais_replicates(dbm, ais, base_bias, seed, [keys], record_partial=record_partial)[0]


def ais_replicates(dbm: DBM, ais: AISSettings, base_bias, seed: int, key_sets, *, record_partial: bool = False) -> list:
    """One AIS estimate of log Z per key tuple of ``key_sets`` (:func:`estimate_log_z`), annealed together.

    Replicate ``g`` runs on the streams ``chain_streams(seed, n_runs, "ais",
    *key_sets[g], ...)`` as block ``g`` of ``len(key_sets) * n_runs`` chains:
    the blocks share the matrix products, each has its own pilot and ladder
    and its own statistics (:func:`bmrep.estimators.ais.ais_log_weights` with
    a matrix of ladders; Neal 2001, Salakhutdinov & Murray 2008). A block's
    run is bit for bit the run of its own where
    :func:`bmrep.estimators.dbm_ais.batch_rows_exact` holds.
    """
    n_runs, n_rep = ais.n_runs, len(key_sets)
    d64 = dbm.astype(np.float64)

    def run(ladders, *more_keys, partial=False):
        streams = [chain_streams(seed, n_runs, "ais", *k, *more_keys) for k in key_sets]
        # the replicates' streams in block order: every chain keeps the stream of its own run
        joined = ChainStreams.concatenate(*streams)
        return ais_log_partition(
            d64, n_rep * n_runs, ladders, joined, base_bias, dtype=ais.chain_dtype, state=ais.state,
            record_partial=partial,
        )  # fmt: skip

    def shared(ladder):  # the same ladder for every block
        return np.repeat(ladder[:, None], n_rep, axis=1)

    if ais.schedule == "adaptive":
        pilots = run(shared(fixed_betas(ais.pilot, ais.n_pilot_betas)), "pilot")
        # each replicate's ladder from its own pilot; all have n_betas values, so they stack into columns
        ladders = [adaptive_betas(p.betas, p.step_sd, ais.n_betas, ais.uniform_mix) for p in pilots]
        return run(np.stack(ladders, axis=1), "adaptive", partial=record_partial)
    return run(shared(fixed_betas(ais.schedule, ais.n_betas)), partial=record_partial)


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


def replicate_groups(dbm: DBM, ais: AISSettings, n_replicates: int, *keys) -> list[list[tuple]]:
    """The key sets of ``n_replicates`` AIS replicates, grouped as they anneal (:func:`independent_replicates`).

    Replicate ``j`` draws on the keys ``*keys, "replicate", j``. One group of
    all of them where a batch gives the bits of separate runs
    (:func:`bmrep.estimators.dbm_ais.batch_rows_exact`), else one group each.
    """
    key_sets = [(*keys, "replicate", j) for j in range(int(n_replicates))]
    if batch_rows_exact(dbm, ais.n_runs, len(key_sets), ais.chain_dtype):
        # one batch: BLAS packs the weights once for all the replicates' chains, not once per replicate
        return [key_sets]
    # the BLAS sums a batch's rows otherwise than a replicate's: one after the other, same numbers
    return [[k] for k in key_sets]


def independent_replicates(dbm: DBM, ais: AISSettings, base_bias, n_replicates: int, seed: int, *keys):
    """``n_replicates`` independent AIS estimates of log Z (:func:`estimate_log_z`), each on its own streams.

    They anneal as one batch (:func:`ais_replicates`) where the BLAS gives
    that the same bits, else one after the other (:func:`replicate_groups`).
    """
    groups = replicate_groups(dbm, ais, n_replicates, *keys)
    return [r for g in groups for r in ais_replicates(dbm, ais, base_bias, seed, g)]


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


def replicated_log_z(dbm: DBM, ais: AISSettings, base_bias, n_replicates: int, seed: int, *keys) -> dict:
    """The final log Z of a model from ``n_replicates`` :func:`independent_replicates` (:func:`pooled_log_z`)."""
    reps = independent_replicates(dbm, ais, base_bias, n_replicates, seed, *keys)
    return pooled_log_z([replicate_summary(r) for r in reps])


def train_subset(X_train: np.ndarray, n_images: int, seed: int) -> np.ndarray:
    """The ``n_images`` (``curve_train_subset``) training images of the bound curve and of every AIS base.

    Drawn without replacement from a stream keyed by the seed alone, in the order of ``X_train``.
    """
    r = paper_rng(seed, "eval-subset")
    n = min(int(n_images), X_train.shape[0])
    return X_train[np.sort(r.choice(X_train.shape[0], n, replace=False))]


def evaluate(
    algorithm: str,
    snapshots: dict,
    X_train: np.ndarray,
    X_test: np.ndarray,
    ev: Mapping,
    seed: int,
    repeat: int = 0,
    log=None,
    checkpoint=None,
):
    """Bound curve (training subset, every snapshot, cheap AIS) and final test bound (replicated final AIS).

    ``ev`` is the config's validated ``evaluation`` (:class:`EvaluationSettings`); ``repeat`` the seed index:
    :func:`curve_point` of every snapshot, then the final AIS replicates (:func:`replicate_groups`) and
    :func:`final_entry` of the last one.

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
    s = EvaluationSettings.from_config(ev)
    n = len(snapshots["updates"])
    dbm = snapshot_model(snapshots, n - 1)
    groups = replicate_groups(dbm, s.final_ais, s.final_replicates, "final", repeat)
    sub, base = train_subset(X_train, s.curve_train_subset, seed), []

    def run(unit: int):
        if unit < n:
            return curve_point(algorithm, snapshots, unit, sub, s, seed, repeat, log)
        if not base:  # the final model's base, once (its mean field on the subset takes seconds)
            base.append(data_base_biases(dbm, sub))
        reps = ais_replicates(dbm, s.final_ais, base[0], seed, groups[unit - n])
        return [replicate_summary(r) for r in reps]

    done: list = []
    resume(checkpoint, lambda saved: done.extend(saved["units"]), what="evaluation unit")
    n_units = n + len(groups)
    for unit in track(range(len(done), n_units), "evaluation units (snapshots' AIS + bound, final replicates)"):
        done.append(run(unit))
        if checkpoint is not None and checkpoint.due(unit + 1, n_units):
            checkpoint.save(unit + 1, {"units": done}, what="evaluation unit")
    replicates = [r for g in done[n:] for r in g]
    return pd.DataFrame(done[:n]), final_entry(algorithm, dbm, X_train, X_test, s, seed, repeat, replicates)


def curve_point(
    algorithm: str, snapshots: dict, i: int, sub: np.ndarray, s: EvaluationSettings, seed: int, repeat: int, log=None
):
    """Figure 4 (right), snapshot ``i``: the eq. (3) bound on the training subset ``sub``, log Z by ``s.curve_ais``.

    The AIS streams are keyed by the seed index and the snapshot's update number, not by the algorithm, so the
    algorithms of one seed are compared with common random numbers. Returns the curve's row (a dict).
    """
    upd = int(snapshots["updates"][i])
    dbm = snapshot_model(snapshots, i)
    base = data_base_biases(dbm, sub)
    z = estimate_log_z(dbm, s.curve_ais, base, seed, "curve", repeat, upd)
    b = mean_bound(dbm, sub, z.estimate, s.n_mean_field)
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
    algorithm: str, dbm: DBM, X_train: np.ndarray, X_test: np.ndarray, ev: Mapping, seed: int, repeat: int = 0
) -> dict:
    """Table 1's entry of a trained DBM (:func:`final_entry`) under the config's validated ``evaluation``."""
    return final_entry(algorithm, dbm, X_train, X_test, EvaluationSettings.from_config(ev), seed, repeat)


def final_entry(
    algorithm: str,
    dbm: DBM,
    X_train: np.ndarray,
    X_test: np.ndarray,
    s: EvaluationSettings,
    seed: int,
    repeat: int = 0,
    replicates: list[dict] | None = None,
) -> dict:
    """Table 1's entry of a trained DBM: its final log Z and the mean eq. (3) bound on the test set.

    log Z pools ``s.final_replicates`` replicates of ``s.final_ais`` (:func:`replicated_log_z`), or the
    :func:`replicate_summary` of those replicates when :func:`evaluate` has run them. The test bound's standard
    error combines the replicates' spread with the test-set sampling error.
    """
    sub, ais = train_subset(X_train, s.curve_train_subset, seed), s.final_ais
    if replicates is None:
        z = replicated_log_z(dbm, ais, data_base_biases(dbm, sub), s.final_replicates, seed, "final", repeat)
    else:
        z = pooled_log_z(replicates)
    test = case_bounds(dbm, X_test, s.n_mean_field)
    test_sampling = float(test.std(ddof=1) / np.sqrt(test.size))
    final = {
        "algorithm": algorithm,
        "repeat": int(repeat),
        **z,
        "test_bound": float(test.mean()) - z["log_z"],
        "test_sampling_stderr": test_sampling,
        "test_bound_stderr": float(np.hypot(z["log_z_stderr"], test_sampling)),
        "train_bound": mean_bound(dbm, sub, z["log_z"], s.n_mean_field),
        "n_test": int(X_test.shape[0]),
        "ais_betas": ais.n_betas,
        "ais_runs": ais.n_runs,
        "ais_state": ais.state,
        "ais_schedule": ais.schedule,
        "ais_settings": ais.record(),
    }
    if dbm.shape[1] <= EXACT_MAX_HIDDEN1:  # enumerable (smoke profile): check AIS against the exact value
        final["log_z_exact"] = exact_dbm.log_partition(dbm.astype(np.float64))
        final["test_bound_exact_log_z"] = final["test_bound"] + final["log_z"] - final["log_z_exact"]
    return final
