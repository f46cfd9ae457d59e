"""Fig. 2 of Carlson et al. (2016), sec. 4.1: RTS, MBAR and TI on a Gaussian mixture with tempered HMC.

A repeat runs simulated tempering with the jittered, per-temperature HMC of
:mod:`bmrep.sampling.hmc` and estimates log Z from nested prefixes of its
samples. A reference run is the same protocol ``reference_factor`` (10)
times longer than the largest judged prefix: TI on ``K`` temperatures
converges to its quadrature rule's value, not to log Z, and the reference
runs give that value (shared spec section 4, fig2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...estimators.mbar import MBARConvergenceError, mbar_log_z
from ...estimators.rts import rts_log_z, rts_stderr, uniform_log_prior
from ...estimators.rts_run import RTSRun
from ...estimators.ti import ti_log_z
from ...models.gaussian_mixture import GaussianMixture
from ...sampling.hmc import TemperedHMC
from ...sampling.ladders import linear_betas
from ...sampling.simulated_tempering import temperature_conditional
from ...seeds import rng as make_rng

# The TI estimators by the names of the estimates table.
TI_NAMES = {
    "TI-riemann": "TI Riemann",
    "TI-trapezoid": "TI trap",
    "TI-trapezoid-corrected": "TI trap corrected",
    "TI-RB": "TI-RB",
}


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


@dataclass
class TemperedSamples:
    """A recorded tempered run: ``delta`` and ``k`` are (n_sweeps, n_chains), sweep-major."""

    betas: np.ndarray
    log_prior: np.ndarray
    log_zhat: np.ndarray  # the Zhat the recorded sweeps ran with
    delta: np.ndarray
    k: np.ndarray

    def prefix(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The first ``n`` samples (whole sweeps first): Delta, k and each sample's chain."""
        n_chains = self.delta.shape[1]
        chain = np.tile(np.arange(n_chains), self.delta.shape[0])[:n]
        return self.delta.ravel()[:n], self.k.ravel()[:n], chain


def tempered_hmc_samples(settings: dict, rng: np.random.Generator, n_samples: int) -> TemperedSamples:
    """Sec. 4.1: simulated tempering with HMC on the mixture, ``n_samples`` samples after the set-up.

    ``warmup`` sweeps adapt the HMC step sizes per temperature (with
    ``log Zhat_k = 0``), then ``init_iterations`` RTS initial iterations of
    ``init_sweeps`` sweeps set Zhat (sec. 2.4); the recorded run continues
    the chains with the last Zhat for ``ceil(n_samples / n_chains)`` sweeps.
    Every transition's step size is jittered by U[1 - step_jitter, 1 + step_jitter].
    """
    gm = gaussian_mixture_from(settings)
    K = int(settings["K"])
    betas = linear_betas(K) ** float(settings["beta_power"])
    log_prior = uniform_log_prior(K)
    n_chains = int(settings["n_chains"])
    hmc = TemperedHMC(
        gm.log_f_tempered,
        gm.grad_log_f_tempered,
        betas,
        float(settings["step_size"]),
        int(settings["n_leapfrog"]),
        jitter=float(settings["step_jitter"]),
    )
    x = rng.normal(0.0, gm.base_scale, size=(n_chains, gm.dim))

    def step(state, cb):
        hmc.step(state, cb, rng)
        return gm.delta(state)

    rts = RTSRun(x, step, betas, log_prior, n_chains, rng, np.zeros(K))  # log Z_1 = 0: the base is normalised
    rts.sweeps(int(settings["warmup"]), restart=True)
    hmc.freeze()
    lz = rts.initial_iterations(
        int(settings["init_sweeps"]), int(settings["init_iterations"]), stop=False
    ).final_log_zhat
    _, rec = rts.sweeps(-(-int(n_samples) // n_chains), restart=True, record=True)
    return TemperedSamples(betas, log_prior, lz, rec.delta, rec.k)


def _estimates(run: TemperedSamples, n: int) -> list[tuple[str, float, float]]:
    """(method, estimate, stated standard error) of every estimator from the first ``n`` samples."""
    delta, k, chain = run.prefix(n)
    q = temperature_conditional(delta, run.betas, run.log_prior, run.log_zhat)
    c = q.mean(axis=0)
    rts = rts_log_z(np.log(c), run.log_prior, run.log_zhat)[-1]
    # eq. 16 from the between-chain spread of each chain's average q
    n_chains = run.delta.shape[1]
    per_chain = np.stack([np.bincount(chain, weights=q[:, j], minlength=n_chains) for j in range(q.shape[1])], 1)
    rts_se = rts_stderr(per_chain / np.bincount(chain, minlength=n_chains)[:, None])[-1]
    out = [("RTS", rts, rts_se)]
    try:
        m = mbar_log_z(delta, k, run.betas, 0.0)
        out.append(("MBAR", m.estimate, m.stderr))
    except MBARConvergenceError:
        out.append(("MBAR", np.nan, np.nan))
    ti = ti_log_z(delta, k, run.betas, 0.0, log_prior=run.log_prior, log_zhat=run.log_zhat)
    out += [(TI_NAMES[name], r.estimate, np.nan) for name, r in ti.items()]
    return out


def fig2_gaussian_mixture_repeat(settings: dict, repeat: int, seed: int) -> pd.DataFrame:
    """Sec. 4.1 / Fig. 2, one repeat: tempered HMC on the mixture, estimates at each sample count.

    One run (:func:`tempered_hmc_samples`) collects ``max(samples)`` samples;
    the estimates at each count use its first samples (nested).

    Parameters
    ----------
    settings : dict
        The mixture (see :func:`gaussian_mixture_from`), ``K``, ``beta_power``,
        ``n_chains``, ``step_size``, ``step_jitter``, ``n_leapfrog``,
        ``warmup``, ``init_iterations``, ``init_sweeps``, ``samples``.
    repeat, seed : int
        The repeat's index (its random stream) and the root seed.

    Returns
    -------
    DataFrame
        ``repeat``, ``n_samples``, ``method`` (RTS, MBAR, the TI rules,
        TI-RB), ``estimate``, ``stderr`` (the estimator's own: eq. 16 for
        RTS, pymbar's for MBAR, none for TI), ``exact``.
    """
    counts = sorted(int(s) for s in settings["samples"])
    run = tempered_hmc_samples(settings, make_rng(seed, "carlson2016", "fig2", int(repeat)), counts[-1])
    exact = gaussian_mixture_from(settings).log_z
    rows = [
        {"repeat": int(repeat), "n_samples": n, "method": m, "estimate": est, "stderr": se, "exact": exact}
        for n in counts
        for m, est, se in _estimates(run, n)
    ]
    return pd.DataFrame(rows)


def fig2_reference(settings: dict, seed: int, run: int) -> pd.DataFrame:
    """Fig. 2's TI reference, one run: each TI estimator on ``reference_factor`` x the largest judged count.

    The run is :func:`tempered_hmc_samples` (its own random stream, keyed by
    ``run``) with ``reference_factor * max(samples)`` samples; each TI
    estimator applied to all of them is its quadrature rule on the reference
    integrand (binned means for the rules, eq. 21's weighted means for
    TI-RB). Independent runs give the reference's standard error.

    Returns
    -------
    DataFrame
        ``run``, ``method`` (the TI names of the estimates table),
        ``rule_value``, ``n_samples``, ``exact`` (log Z of the mixture).
    """
    n = int(settings["reference_factor"]) * max(int(s) for s in settings["samples"])
    ref = tempered_hmc_samples(settings, make_rng(seed, "carlson2016", "fig2", "reference", int(run)), n)
    ti = ti_log_z(ref.delta.ravel(), ref.k.ravel(), ref.betas, 0.0, log_prior=ref.log_prior, log_zhat=ref.log_zhat)
    exact = gaussian_mixture_from(settings).log_z
    rows = [
        {"run": int(run), "method": TI_NAMES[m], "rule_value": r.estimate, "n_samples": ref.delta.size, "exact": exact}
        for m, r in ti.items()
    ]
    return pd.DataFrame(rows)
