"""Fig. 4 of Carlson et al. (2016), sec. 4.3: estimator error vs the number of temperatures K."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...estimators.base import base_log_partition
from ...estimators.ladders import linear_betas
from ...estimators.mbar import MBARConvergenceError, mbar_log_z
from ...estimators.rts import rts_log_z, ts_log_z, uniform_log_prior
from ...estimators.ti import ti_log_z
from ...models.rbm import RBM
from ...sampling.simulated_tempering import temperature_conditional
from ...seeds import rng as make_rng
from .tempered import DTYPES, rbm_tempered_run


def fig4_temperatures(
    rbm: RBM, base_bias: np.ndarray, K: int, settings: dict, seed: int, log_z_curve: tuple | None = None
) -> pd.DataFrame:
    """Sec. 4.3 / Fig. 4 for one K: one long tempered run, bootstrap subsets, estimates per method.

    ``log_z_curve`` = (betas, log Z(beta)) from a previous run initialises
    log Zhat by interpolation ("or a better estimate, if known", sec. 2.4),
    followed by ``init_iterations`` RTS iterations (0: none) and ``burn_in``
    discarded sweeps; the next ``n_sweeps`` sweeps are recorded. MBAR runs on the first
    ``n_bootstrap_mbar`` subsets and only for ``K <= mbar_max_K`` (pymbar's
    cost grows fast with K, as the paper notes in sec. 4.3).

    Parameters
    ----------
    rbm, base_bias : RBM, ndarray
        The trained model and the logits of its base p1.
    K : int
        Number of linear inverse temperatures.
    settings : dict
        ``n_chains``, ``dtype``, ``init_iterations``, ``init_sweeps``,
        ``n_sweeps``, ``burn_in``, ``subset_size``, ``n_bootstrap``,
        ``n_bootstrap_mbar``, ``mbar_max_K``.
    seed : int
        Root seed.
    log_z_curve : tuple of ndarray or None
        (betas, log Z(beta)) of a previous run.

    Returns
    -------
    DataFrame
        ``K``, ``bootstrap``, ``method``, ``estimate``, ``full_run_rts``,
        ``init_converged_at``.
    """
    n_chains = int(settings["n_chains"])
    dtype = DTYPES[settings["dtype"]]
    betas = linear_betas(int(K))
    log_prior = uniform_log_prior(int(K))
    lz0 = None if log_z_curve is None else np.interp(betas, log_z_curve[0], log_z_curve[1])
    key = ("carlson2016", "fig4", int(K))
    run = rbm_tempered_run(
        rbm,
        base_bias,
        betas=betas,
        log_prior=log_prior,
        n_chains=n_chains,
        init_iterations=int(settings["init_iterations"]),
        init_sweeps=int(settings["init_sweeps"]),
        main_checkpoints=[int(settings["n_sweeps"])],
        seed=seed,
        key=key,
        dtype=dtype,
        log_zhat0=lz0,
        record=True,
        burn_in=int(settings["burn_in"]),
    )
    delta, kk = run.record.delta.ravel(), run.record.k.ravel().astype(np.int64)
    lz = run.log_zhat
    log_z1 = base_log_partition(base_bias, rbm.n_hidden)
    rng = make_rng(seed, *key, "bootstrap")
    m = int(settings["subset_size"])
    rows = []
    for bidx in range(int(settings["n_bootstrap"])):
        idx = rng.integers(0, delta.size, m)
        d, k_ = delta[idx], kk[idx]
        q = temperature_conditional(d, betas, log_prior, lz)
        c = q.mean(axis=0)
        est = {
            "RTS": rts_log_z(np.log(c), log_prior, lz)[-1],
            "TS": ts_log_z(np.bincount(k_, minlength=betas.size), log_prior, lz)[-1],
        }
        ti = ti_log_z(d, k_, betas, log_z1, log_prior=log_prior, log_zhat=lz)
        est["TI"] = ti["TI-trapezoid"].estimate
        est["TI-RB"] = ti["TI-RB"].estimate
        if bidx < int(settings["n_bootstrap_mbar"]) and int(K) <= int(settings["mbar_max_K"]):
            try:
                est["MBAR"] = mbar_log_z(d, k_, betas, log_z1, uncertainty=False).estimate
            except MBARConvergenceError:
                est["MBAR"] = np.nan
        for method, e in est.items():
            rows.append({"K": int(K), "bootstrap": bidx, "method": method, "estimate": float(e)})
    df = pd.DataFrame(rows)
    df["full_run_rts"] = run.checkpoints[-1][1][-1]
    df["init_converged_at"] = -1 if run.init.converged_at is None else run.init.converged_at
    return df
