"""Fig. 1 of Carlson et al. (2016): the RTS initial iterations of sec. 2.4, with and without Rao-Blackwellization."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...estimators.ladders import linear_betas
from ...estimators.rts import initial_iterations, run_simulated_tempering, uniform_log_prior
from ...models.exact import rbm as exact
from ...models.rbm import RBM
from ...sampling.simulated_tempering import RBMTemperingState, rbm_step
from ...sampling.streams import ChainStreams
from ...seeds import rng as make_rng


def fig1_initial_iterations(rbm: RBM, base_bias: np.ndarray, settings: dict, seed: int) -> pd.DataFrame:
    """Sec. 2.4 / Fig. 1: log Zhat_k and c_k over the initial iterations, with and without RB.

    ``n_iterations`` iterations are run for the figure (no early stop). The
    final estimate follows the paper's procedure: from the Zhat of the first
    iteration that met the stopping rule (the last one if none did), one long
    run of ``final_sweeps`` sweeps gives eq. 12's estimate (``stage`` =
    ``final``, ``iteration`` = n_iterations + 1).

    Parameters
    ----------
    rbm, base_bias : RBM, ndarray
        An RBM whose log Z_k can be enumerated, and the logits of its base p1.
    settings : dict
        ``K``, ``n_chains``, ``sweeps_per_iteration``, ``n_iterations``, ``final_sweeps``.
    seed : int
        Root seed.

    Returns
    -------
    DataFrame
        ``variant`` (RB or TS), ``stage`` (initial / final), ``iteration``,
        ``k``, ``beta``, ``log_zhat`` (after the iteration), ``c`` (estimated
        in it), ``exact`` (exact log Z_k by enumeration), ``converged_at``
        (first iteration meeting ``max|r - c| < 0.1/K``, -1 if none).
    """
    K = int(settings["K"])
    betas = linear_betas(K)
    log_prior = uniform_log_prior(K)
    exact_lz = np.array([exact.log_partition(rbm, float(b), base_bias) for b in betas])
    n_chains, sweeps, n_it = (
        int(settings["n_chains"]),
        int(settings["sweeps_per_iteration"]),
        int(settings["n_iterations"]),
    )
    rows = []
    for variant, rb in (("RB", True), ("TS", False)):
        key = ("carlson2016", "fig1", variant)
        streams = ChainStreams.from_seed(seed, *key, n_chains=n_chains)
        rng = make_rng(seed, *key, "temperatures")
        state = RBMTemperingState.from_base(rbm, n_chains, streams, base_bias)

        def one_iteration(lz, state=state, rng=rng):  # bound now: the loop rebinds both
            s, _, _ = run_simulated_tempering(
                state,
                rng.integers(0, K, n_chains),
                step=rbm_step,
                betas=betas,
                log_prior=log_prior,
                log_zhat=lz,
                n_sweeps=sweeps,
                rng=rng,
            )
            return s.q_sum.sum(axis=0), s.counts.sum(axis=0)

        init = initial_iterations(one_iteration, log_prior, np.full(K, exact_lz[0]), n_it, rao_blackwell=rb, stop=False)
        conv = -1 if init.converged_at is None else init.converged_at
        for it, (lz, c) in enumerate(zip(init.log_zhat, init.c, strict=True), start=1):
            for kk in range(K):
                rows.append(
                    {
                        "variant": variant,
                        "stage": "initial",
                        "iteration": it,
                        "k": kk + 1,
                        "beta": betas[kk],
                        "log_zhat": lz[kk],
                        "c": c[kk],
                        "exact": exact_lz[kk],
                        "converged_at": conv,
                    }
                )
        lz_start = init.log_zhat[(conv if conv > 0 else n_it) - 1]
        stats, _, _ = run_simulated_tempering(
            state,
            rng.integers(0, K, n_chains),
            step=rbm_step,
            betas=betas,
            log_prior=log_prior,
            log_zhat=lz_start,
            n_sweeps=int(settings["final_sweeps"]),
            rng=rng,
        )
        lz_final = stats.rts(log_prior, lz_start) if rb else stats.ts(log_prior, lz_start)
        c_final = stats.c if rb else (stats.counts.sum(0) + 0.1) / (stats.counts.sum() + 0.1 * K)
        for kk in range(K):
            rows.append(
                {
                    "variant": variant,
                    "stage": "final",
                    "iteration": n_it + 1,
                    "k": kk + 1,
                    "beta": betas[kk],
                    "log_zhat": lz_final[kk],
                    "c": c_final[kk],
                    "exact": exact_lz[kk],
                    "converged_at": conv,
                }
            )
    return pd.DataFrame(rows)
