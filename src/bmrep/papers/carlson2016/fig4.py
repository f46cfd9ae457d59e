"""Fig. 4 of Carlson et al. (2016), sec. 4.3: estimator error vs the number of temperatures K."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...estimators.base import base_log_partition
from ...estimators.mbar import MBARConvergenceError, mbar_log_z
from ...estimators.rbm_rts import DTYPES, rbm_tempered_run
from ...estimators.rts import uniform_log_prior
from ...estimators.ti import binned_moments, integrate_trapezoid
from ...models.rbm import RBM
from ...sampling.ladders import linear_betas
from ...sampling.simulated_tempering import temperature_conditional

# Samples whose q(beta | x) are held at once for TI-RB (a (chunk, K) array).
RB_CHUNK = 20000


def rao_blackwell_ti(delta: np.ndarray, betas: np.ndarray, log_prior: np.ndarray, log_zhat: np.ndarray) -> float:
    """TI-RB (Carlson et al. 2016, eq. 21): trapezoid over the q-weighted means of Delta, in chunks.

    The same estimate as :func:`bmrep.estimators.ti.ti_log_z`'s ``TI-RB``
    (without ``log Z_1``), without holding the (N, K) matrix of q(beta | x):
    10^6 samples at K = 1000 would need 8 GB.
    """
    s0 = np.zeros(betas.size)
    s1 = np.zeros(betas.size)
    for i in range(0, delta.size, RB_CHUNK):
        d = delta[i : i + RB_CHUNK]
        q = temperature_conditional(d, betas, log_prior, log_zhat)
        s0 += q.sum(axis=0)
        s1 += d @ q
    return integrate_trapezoid(betas, s1 / s0)


def fig4_run(
    rbm: RBM, base_bias: np.ndarray, K: int, settings: dict, run: int, seed: int, model_name: str
) -> pd.DataFrame:
    """Sec. 4.3 / Fig. 4, one independent tempered run at K temperatures and its estimate per method.

    The run starts as Fig. 3's RTS does (the optional AIS pass along the
    ladder for the starting log Zhat, then ``init_iterations`` initial
    iterations), discards ``burn_in`` sweeps and records the next
    ``n_sweeps`` sweeps of every chain. From all recorded samples: RTS
    (eq. 12), TS (counts + 0.1), TI (trapezoid on the per-temperature means
    of Delta, empty bins interpolated) and TI-RB (eq. 21); MBAR (pymbar) only
    for ``K <= mbar_max_K``, on about ``mbar_samples`` samples thinned evenly
    over the run (its cost grows fast with the sample count and K, sec. 4.3).
    Every run has its own random streams and its own start, so the runs are
    independent: their spread, not a bootstrap over one run's correlated
    samples, is the error.

    Parameters
    ----------
    rbm, base_bias : RBM, ndarray
        The trained model and the logits of its base p1.
    K : int
        Number of linear inverse temperatures.
    settings : dict
        ``n_chains``, ``dtype``, ``init``, ``init_iterations``,
        ``init_sweeps``, ``burn_in``, ``n_sweeps``, ``mbar_max_K``,
        ``mbar_samples``.
    run, seed : int
        The run's index and the root seed.
    model_name : str
        Names the model in the rows.

    Returns
    -------
    DataFrame
        ``model``, ``K``, ``run``, ``method``, ``estimate``, ``stderr`` (the
        run's stated error: the delta method for RTS and TS, pymbar's is not
        computed, none for TI), ``init_converged_at``.
    """
    K = int(K)
    betas, log_prior = linear_betas(K), uniform_log_prior(K)
    n_sweeps = int(settings["n_sweeps"])
    result = rbm_tempered_run(
        rbm,
        base_bias,
        betas=betas,
        log_prior=log_prior,
        n_chains=int(settings["n_chains"]),
        init_iterations=int(settings["init_iterations"]),
        init_sweeps=int(settings["init_sweeps"]),
        main_checkpoints=[n_sweeps],
        seed=seed,
        key=("carlson2016", "fig4", model_name, K, int(run)),
        dtype=DTYPES[settings["dtype"]],
        init=settings["init"],
        record=True,
        burn_in=int(settings["burn_in"]),
    )
    _, rts, ts = result.checkpoints[-1]
    delta, kk = result.record.delta, result.record.k.astype(np.int64)  # (n_sweeps, n_chains)
    log_z1 = base_log_partition(base_bias, rbm.n_hidden)
    mean, _, _ = binned_moments(delta.ravel(), kk.ravel(), betas)
    est = {
        "RTS": (rts.estimate, rts.stderr),
        "TS": (ts.estimate, ts.stderr),
        "TI": (log_z1 + integrate_trapezoid(betas, mean), np.nan),
        "TI-RB": (log_z1 + rao_blackwell_ti(delta.ravel(), betas, log_prior, result.log_zhat), np.nan),
    }
    if K <= int(settings["mbar_max_K"]):
        every = max(1, round(delta.size / int(settings["mbar_samples"])))  # sweeps between kept ones
        try:
            mbar = mbar_log_z(delta[::every].ravel(), kk[::every].ravel(), betas, log_z1, uncertainty=False).estimate
        except MBARConvergenceError:
            mbar = np.nan
        est["MBAR"] = (mbar, np.nan)
    df = pd.DataFrame([{"method": m, "estimate": float(e), "stderr": float(s)} for m, (e, s) in est.items()])
    df.insert(0, "run", int(run))
    df.insert(0, "K", K)
    df.insert(0, "model", model_name)
    df["init_converged_at"] = -1 if result.init.converged_at is None else result.init.converged_at
    return df
