"""Fig. 1 of Carlson et al. (2016): the RTS initial iterations of sec. 2.4, with and without Rao-Blackwellization.

One repeat is one seed: the initial iterations run twice from the same
chains and random streams, once Rao-Blackwellized (eq. 9, ``RB``) and once
with bin counts + 0.1 (``TS``), so the two variants are paired per seed
(shared spec section 4, fig1). The RB chains then continue (x, k kept,
``Zhat`` frozen at the iterations' estimate) for a main run whose RTS
estimate (eq. 12) is read at nested checkpoints: the initial iterations alone
restart every iteration at fresh uniform temperatures and leave log Z_K biased
low (spec section 4, "Decided after measurement"); the main run is the
estimate the method reports. The exact log Z_k (by enumeration of the hidden
states) does not depend on the seed and is computed once per job.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...estimators.rts import uniform_log_prior
from ...estimators.rts_run import RTSRun
from ...models.exact import rbm as exact
from ...models.rbm import RBM
from ...sampling.ladders import linear_betas
from ...sampling.simulated_tempering import rbm_step
from ...sampling.streams import ChainStreams
from ...sampling.tempered_rbm import TemperedRBMChains
from ...seeds import rng as make_rng

VARIANTS = {"RB": True, "TS": False}
MAIN_FRACTIONS = (0.1, 0.2, 0.5, 1.0)  # the main run is read after these fractions of its sweeps (nested)


def main_checkpoints(main_sweeps: int) -> list[int]:
    """The sweep counts at which the main run is read: nested fractions of ``main_sweeps``, the last all of it."""
    return sorted({max(1, round(f * int(main_sweeps))) for f in MAIN_FRACTIONS})


def fig1_exact_log_z(rbm: RBM, base_bias: np.ndarray, K: int) -> np.ndarray:
    """Exact ``log Z_k`` on the ladder of ``K`` betas uniform in [0, 1], by enumeration (sec. 2.4, Fig. 1)."""
    return np.array([exact.log_partition(rbm, float(b), base_bias) for b in linear_betas(int(K))])


def fig1_seed(
    rbm: RBM, base_bias: np.ndarray, settings: dict, seed: int, repeat: int, exact_lz: np.ndarray
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Sec. 2.4 / Fig. 1, one seed: log Zhat_k and c_k over the initial iterations, with and without RB.

    ``n_iterations`` iterations run in full (no early stop), from ``Zhat_k =
    Z_1``; each is ``sweeps_per_iteration`` sweeps of simulated tempering on
    ``n_chains`` chains that keep their states, with temperatures redrawn
    uniformly. Both variants start from the same chains and use the same
    random streams (keyed by ``repeat``). The RB chains then continue for
    ``main_sweeps`` sweeps (sec. 2.4's main run, as in Fig. 3:
    :meth:`~bmrep.estimators.rts_run.RTSRun.run`), read at
    :func:`main_checkpoints`.

    Parameters
    ----------
    rbm, base_bias : RBM, ndarray
        An RBM whose log Z_k can be enumerated, and the logits of its base p1.
    settings : dict
        ``K``, ``n_chains``, ``sweeps_per_iteration``, ``n_iterations``.
    seed, repeat : int
        Root seed and the seed's index (its random streams).
    exact_lz : (K,) ndarray
        Exact log Z_k (:func:`fig1_exact_log_z`).

    Returns
    -------
    DataFrame
        ``seed`` (= ``repeat``), ``variant`` (RB or TS), ``iteration``, ``k``,
        ``beta``, ``log_zhat`` (after the iteration), ``c`` (estimated in it),
        ``exact``, ``converged_at`` (first iteration meeting ``max|r - c| <
        0.1/K``, -1 if none).
    DataFrame
        The main run, one row per checkpoint: ``seed``, ``main_sweeps`` (of
        the main run), ``sweeps`` (per chain, the initial iterations
        included), ``log_z`` (RTS estimate of log Z_K), ``stderr`` (eq. 16),
        ``init_log_z`` (log Zhat_K after the initial iterations), ``exact``.
    """
    K = int(settings["K"])
    betas = linear_betas(K)
    log_prior = uniform_log_prior(K)
    n_chains, sweeps, n_it = (
        int(settings["n_chains"]),
        int(settings["sweeps_per_iteration"]),
        int(settings["n_iterations"]),
    )
    frames, main = [], None
    for variant, rb in VARIANTS.items():
        key = ("carlson2016", "fig1", int(repeat))  # no variant: RB and TS draw alike (paired)
        streams = ChainStreams.from_seed(seed, *key, n_chains=n_chains)
        rng = make_rng(seed, *key, "temperatures")
        state = TemperedRBMChains.from_base(rbm, n_chains, streams, base_bias)
        rts = RTSRun(state, rbm_step, betas, log_prior, n_chains, rng, np.full(K, exact_lz[0]))
        init = rts.initial_iterations(sweeps, n_it, rao_blackwell=rb, stop=False)
        if rb:
            main = _main_run(rts, int(settings["main_sweeps"]), int(repeat), n_it * sweeps, exact_lz[-1])
        frames.append(
            pd.DataFrame(
                {
                    "seed": int(repeat),
                    "variant": variant,
                    "iteration": np.repeat(np.arange(1, n_it + 1), K),
                    "k": np.tile(np.arange(1, K + 1), n_it),
                    "beta": np.tile(betas, n_it),
                    "log_zhat": np.concatenate(init.log_zhat),
                    "c": np.concatenate(init.c),
                    "exact": np.tile(exact_lz, n_it),
                    "converged_at": -1 if init.converged_at is None else int(init.converged_at),
                }
            )
        )
    return pd.concat(frames, ignore_index=True), main


def _main_run(rts: RTSRun, main_sweeps: int, repeat: int, init_sweeps: int, exact: float) -> pd.DataFrame:
    """The RTS main run continuing ``rts`` (its x, k and frozen ``Zhat``), read at :func:`main_checkpoints`."""
    init_log_z = float(rts.log_zhat[-1])
    checkpoints, _, _ = rts.run(main_checkpoints(main_sweeps))
    return pd.DataFrame(
        {
            "seed": repeat,
            "main_sweeps": [c[0] for c in checkpoints],
            "sweeps": [init_sweeps + c[0] for c in checkpoints],
            "log_z": [c[1].estimate for c in checkpoints],
            "stderr": [c[1].stderr for c in checkpoints],
            "init_log_z": init_log_z,
            "exact": float(exact),
        }
    )
