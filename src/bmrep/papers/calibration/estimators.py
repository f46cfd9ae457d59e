"""Every log Z estimator of Carlson et al. (2016) at one matched budget: one run of an estimator group.

A budget is the number of Gibbs sweeps per chain, on ``n_chains`` chains,
counting every sweep an estimator makes (as in the paper's Fig. 3):

- ``AIS`` (Neal 2001; Salakhutdinov & Murray 2008): ``budget + 2`` betas on
  the piecewise schedule (the base is sampled exactly, no transition follows
  the last weight: ``budget`` transitions); unbiased in Z, so its log Z is
  biased down by about var/2 (Jensen).
- ``RAISE`` (Burda et al. 2015): ``budget + 1`` betas, one reversed sweep at
  each but the lowest, from ``n_chains`` starting points; unbiased in 1/Z,
  so its log Z is biased up.
- ``tempered``: one simulated-tempering run (sec. 2.3-2.4) of ``budget``
  sweeps in all (the optional AIS pass and the initial iterations included,
  :func:`bmrep.estimators.rbm_rts.init_sweeps_of`), read as RTS
  (eq. 12), TS (its non-Rao-Blackwellized form), TI Riemann, trapezoid and
  trapezoid corrected (Friel et al. 2014), TI-RB (eq. 21) and MBAR (Shirts &
  Chodera 2008, on the main run's samples thinned to ``mbar_max_samples``).

Each method's row carries its own stated standard error (delta method for
AIS, RTS and TS; the spread over starting points for RAISE; pymbar's for
MBAR; none for TI) and the CPU seconds it cost: for the tempered methods, the
shared run plus the method's own post-processing.
"""

from __future__ import annotations

import time

import numpy as np

from ...estimators.ais import ais_log_partition
from ...estimators.base import base_log_partition
from ...estimators.mbar import mbar_log_z
from ...estimators.rbm_rts import DTYPES, budget_tempered_run
from ...estimators.reverse_ais import raise_log_partition
from ...estimators.ti import ti_log_z
from ...models.rbm import RBM
from ...sampling.ladders import piecewise_betas
from ...sampling.streams import ChainStreams
from . import GROUPS


def _row(method, estimate, stderr, cpu) -> dict:
    return {"method": method, "estimate": float(estimate), "stderr": float(stderr), "cpu_seconds": float(cpu)}


def run_group(
    rbm: RBM,
    base_bias: np.ndarray,
    raise_data: np.ndarray,
    group: str,
    budget: int,
    settings: dict,
    seed: int,
    key: tuple,
) -> list[dict]:
    """One run of ``group`` at ``budget`` sweeps per chain: one row per method.

    Parameters
    ----------
    rbm, base_bias : RBM, ndarray
        The model and the logits of its base p1.
    raise_data : ndarray, shape (>= n_chains, n_visible)
        RAISE's starting points (the first ``n_chains`` rows).
    group : {"AIS", "RAISE", "tempered"}
    budget : int
        Gibbs sweeps per chain.
    settings : dict
        ``n_chains``, ``dtype``; for ``tempered`` also ``K``, ``init``,
        ``init_iterations``, ``init_sweeps``, ``mbar_max_samples``.
    seed : int
        Root seed.
    key : tuple
        The run's random-stream key (model, group, budget, replicate).

    Returns
    -------
    list of dict
        ``method``, ``estimate`` (log Z), ``stderr`` (stated; NaN for TI),
        ``cpu_seconds``.
    """
    n_chains, budget = int(settings["n_chains"]), int(budget)
    dtype = DTYPES[settings["dtype"]]
    t0 = time.process_time()
    if group == "AIS":
        streams = ChainStreams.from_seed(seed, *key, n_chains=n_chains)
        r = ais_log_partition(rbm, n_chains, piecewise_betas(budget + 2), streams, base_bias, dtype=dtype)
        return [_row("AIS", r.estimate, r.stderr, time.process_time() - t0)]
    if group == "RAISE":
        streams = ChainStreams.from_seed(seed, *key, n_chains=n_chains)
        V = np.asarray(raise_data[:n_chains], np.float64)
        r = raise_log_partition(rbm, V, piecewise_betas(budget + 1), streams, base_bias, dtype=dtype)
        return [_row("RAISE", r.estimate, r.stderr, time.process_time() - t0)]
    if group != "tempered":
        raise ValueError(f"group must be one of {sorted(GROUPS)}, got {group!r}")
    return _tempered(rbm, base_bias, budget, settings, seed, key, dtype, t0)


def _tempered(rbm, base_bias, budget, settings, seed, key, dtype, t0) -> list[dict]:
    """RTS, TS, TI (three rules), TI-RB and MBAR from one tempered run of ``budget`` sweeps in all."""
    run = budget_tempered_run(rbm, base_bias, settings, [budget], seed=seed, key=key, dtype=dtype, record=True)
    betas, log_prior = run.betas, run.log_prior
    t_run = time.process_time() - t0
    _, rts, ts = run.checkpoints[-1]
    rows = [_row(r.method, r.estimate, r.stderr, t_run) for r in (rts, ts)]
    log_z1 = base_log_partition(base_bias, rbm.n_hidden)
    d, k = run.record.delta, run.record.k
    t1 = time.process_time()
    ti = ti_log_z(d.ravel(), k.ravel().astype(np.int64), betas, log_z1, log_prior=log_prior, log_zhat=run.log_zhat)
    t_ti = (time.process_time() - t1) / len(ti)  # the four rules share one pass over the samples
    rows += [_row(name, r.estimate, np.nan, t_run + t_ti) for name, r in ti.items()]
    t1 = time.process_time()
    thin = -(-d.size // int(settings["mbar_max_samples"]))  # ceil: at most that many samples (pymbar's cost)
    d_thin, k_thin = d[::thin].ravel(), k[::thin].ravel().astype(np.int64)
    m = mbar_log_z(d_thin, k_thin, betas, log_z1, initial_log_z=rts.details["log_z"])
    rows.append(_row("MBAR", m.estimate, m.stderr, t_run + time.process_time() - t1))
    return rows
