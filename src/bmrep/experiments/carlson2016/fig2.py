"""Fig. 2 of Carlson et al. (2016), sec. 4.1: RTS, MBAR and TI on a Gaussian mixture with tempered HMC."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...estimators.ladders import linear_betas
from ...estimators.mbar import MBARConvergenceError, mbar_log_z
from ...estimators.rts import initial_iterations, rts_log_z, run_simulated_tempering, uniform_log_prior
from ...estimators.ti import ti_log_z
from ...models.gaussian_mixture import GaussianMixture
from ...sampling.hmc import TemperedHMC
from ...sampling.simulated_tempering import log_temperature_conditional
from ...seeds import rng as make_rng


def gaussian_mixture_from(settings: dict) -> GaussianMixture:
    """The two-component mixture of sec. 4.1.

    Built from the settings ``dim``, ``separation``, ``scale``, ``weight``,
    ``log_z`` and ``base_scale``.
    """
    return GaussianMixture.two_components(
        dim=int(settings["dim"]),
        separation=float(settings["separation"]),
        scale=float(settings["scale"]),
        weight=float(settings["weight"]),
        log_z=float(settings["log_z"]),
        base_scale=float(settings["base_scale"]),
    )


def _gmm_estimates(delta, k, betas, log_prior, log_zhat, n_samples) -> dict:
    lpq = log_temperature_conditional(delta, betas, log_prior, log_zhat)
    c = np.exp(lpq).mean(axis=0)
    out = {"RTS": rts_log_z(np.log(c), log_prior, log_zhat)[-1]}
    try:
        out["MBAR"] = mbar_log_z(delta, k, betas, 0.0, uncertainty=False).estimate
    except MBARConvergenceError:
        out["MBAR"] = np.nan
    ti = ti_log_z(delta, k, betas, 0.0, log_prior=log_prior, log_zhat=log_zhat)
    names = {
        "TI-riemann": "TI Riemann",
        "TI-trapezoid": "TI trap",
        "TI-trapezoid-corrected": "TI trap corrected",
        "TI-RB": "TI-RB",
    }
    out.update({names[n]: r.estimate for n, r in ti.items()})
    return out


def fig2_gaussian_mixture_repeat(settings: dict, repeat: int, seed: int) -> pd.DataFrame:
    """Sec. 4.1 / Fig. 2, one repeat: tempered HMC on the mixture, estimates at each sample count.

    After ``warmup`` adaptive HMC sweeps and ``init_iterations`` RTS initial
    iterations, one run collects ``max(samples)`` samples over ``n_chains``
    chains; the estimates at each count use the first samples (nested).

    Parameters
    ----------
    settings : dict
        The mixture (see :func:`gaussian_mixture_from`), ``K``, ``beta_power``,
        ``n_chains``, ``step_size``, ``n_leapfrog``, ``warmup``,
        ``init_iterations``, ``init_sweeps``, ``samples``.
    repeat, seed : int
        The repeat's index (its random stream) and the root seed.

    Returns
    -------
    DataFrame
        ``repeat``, ``n_samples``, ``method`` (RTS, MBAR, the TI rules,
        TI-RB), ``estimate``, ``exact``.
    """
    gm = gaussian_mixture_from(settings)
    K = int(settings["K"])
    betas = linear_betas(K) ** float(settings["beta_power"])
    log_prior = uniform_log_prior(K)
    rng = make_rng(seed, "carlson2016", "fig2", int(repeat))
    n_chains = int(settings["n_chains"])
    hmc = TemperedHMC(
        gm.log_f_tempered, gm.grad_log_f_tempered, betas, float(settings["step_size"]), int(settings["n_leapfrog"])
    )
    x = rng.normal(0.0, gm.base_scale, size=(n_chains, gm.dim))

    def step(state, cb):
        hmc.step(state, cb, rng)
        return gm.delta(state)

    lz = np.zeros(K)  # log Z_1 = 0: the base is normalised
    stats, k, _ = run_simulated_tempering(
        x,
        rng.integers(0, K, n_chains),
        step=step,
        betas=betas,
        log_prior=log_prior,
        log_zhat=lz,
        n_sweeps=int(settings["warmup"]),
        rng=rng,
    )
    hmc.freeze()

    def one_iteration(lz_):
        s, _, _ = run_simulated_tempering(
            x,
            rng.integers(0, K, n_chains),
            step=step,
            betas=betas,
            log_prior=log_prior,
            log_zhat=lz_,
            n_sweeps=int(settings["init_sweeps"]),
            rng=rng,
        )
        return s.q_sum.sum(axis=0), s.counts.sum(axis=0)

    init = initial_iterations(one_iteration, log_prior, lz, int(settings["init_iterations"]), stop=False)
    lz = init.final_log_zhat
    counts = sorted(int(s) for s in settings["samples"])
    n_sweeps = -(-counts[-1] // n_chains)
    _, _, rec = run_simulated_tempering(
        x,
        rng.integers(0, K, n_chains),
        step=step,
        betas=betas,
        log_prior=log_prior,
        log_zhat=lz,
        n_sweeps=n_sweeps,
        rng=rng,
        record=True,
    )
    delta, kk = rec.delta.ravel(), rec.k.ravel()  # sweep-major: a prefix is the first sweeps
    rows = []
    for n in counts:
        for method, est in _gmm_estimates(delta[:n], kk[:n], betas, log_prior, lz, n).items():
            rows.append({"repeat": int(repeat), "n_samples": n, "method": method, "estimate": est, "exact": gm.log_z})
    return pd.DataFrame(rows)
