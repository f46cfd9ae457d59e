"""One simulated-tempering run on an RBM with RTS estimates (Carlson et al. 2016, sec. 2.3-2.4).

The initial iterations of sec. 2.4, then one long run that continues from
their last state (x, k) of every chain and is read at checkpoints: the RTS run
of carlson2016 (its exact check, Figs. 3 and 4) and of the calibration study. The initial
iterations' sweeps are part of the budget an RTS run is matched on
(:func:`init_sweeps_of`, :func:`budget_tempered_run`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..models.rbm import RBM
from ..sampling.ladders import linear_betas
from ..sampling.simulated_tempering import STRecord, rbm_step
from ..sampling.streams import ChainStreams
from ..sampling.tempered_rbm import TemperedRBMChains
from ..seeds import rng as make_rng
from .ais import ais_log_partition
from .base import base_log_partition
from .rts import InitialIterations, TemperingStats, uniform_log_prior
from .rts_run import RTSRun

DTYPES = {"float32": np.float32, "float64": np.float64}


@dataclass
class TemperedRun:
    """Result of :func:`rbm_tempered_run`."""

    init: InitialIterations
    log_zhat: np.ndarray  # Zhat used in the main run
    checkpoints: list  # (main-run sweeps, RTS record, TS record): EstimateResults, the ladder in their details
    stats: TemperingStats
    record: STRecord | None
    betas: np.ndarray
    log_prior: np.ndarray
    init_k: np.ndarray | None = None  # temperatures at the end of the initial iterations (the main run's start)
    n_sweeps: int = 0  # sweeps per chain in all: the AIS pass, the initial iterations, burn-in and the main run


def init_sweeps_of(settings: dict, K: int) -> int:
    """Sweeps spent before the main RTS run: the optional AIS pass plus the initial iterations.

    Parameters
    ----------
    settings : dict
        ``init`` (``flat``/``ais``), ``init_iterations``, ``init_sweeps``.
    K : int
        Number of inverse temperatures (an AIS pass along them costs K - 2 sweeps).
    """
    ais = K - 2 if settings["init"] == "ais" else 0
    return ais + int(settings["init_iterations"]) * int(settings["init_sweeps"])


def rbm_tempered_run(
    rbm: RBM,
    base_bias: np.ndarray,
    *,
    betas: np.ndarray,
    log_prior: np.ndarray,
    n_chains: int,
    init_iterations: int,
    init_sweeps: int,
    main_checkpoints: list[int],
    seed: int,
    key: tuple,
    dtype=np.float64,
    log_zhat0: np.ndarray | None = None,
    init: str = "flat",
    stop_init: bool = False,
    record: bool = False,
    burn_in: int = 0,
    step: Callable = rbm_step,
) -> TemperedRun:
    """Simulated tempering on an RBM with RTS: initial iterations (sec. 2.4), then one long run.

    Parameters
    ----------
    rbm, base_bias : RBM, ndarray
        The model and the logits of its base p1.
    betas, log_prior : ndarray, shape (K,)
        The ladder and the log prior r_k over it.
    main_checkpoints : list of int
        Main-run sweep counts at which the RTS (eq. 12) and TS estimates are
        taken (nested prefixes of one run).
    log_zhat0, init : ndarray or None, {"flat", "ais"}
        The starting log Zhat: ``log_zhat0`` if given, else ``"flat"``
        (Zhat_k = Z_1, the paper's default) or ``"ais"`` ("a better estimate,
        if known": the partial AIS weights of one AIS pass along the ladder
        on the same chains' streams, K - 2 sweeps; see :func:`init_sweeps_of`).
    burn_in : int
        Sweeps after the initial iterations that are discarded (Fig. 4).
    step : callable
        One sweep of the chains at per-chain betas, returning Delta
        (:func:`bmrep.sampling.simulated_tempering.rbm_step`).

    Notes
    -----
    Chains start from the base; every initial iteration starts from the
    previous x with fresh uniform temperatures (sec. 2.4). The main run (after
    the optional burn-in) continues from the state (x, k) of every chain at
    the end of the last initial iteration: a restart with fresh uniform
    temperatures would throw away the equilibrated temperatures and bias
    the early estimates. ``TemperedRun.n_sweeps`` counts every sweep per
    chain (the AIS pass, initial iterations, burn-in, main run).
    """
    K = betas.size
    streams = ChainStreams.from_seed(seed, *key, n_chains=n_chains)
    rng = make_rng(seed, *key, "temperatures")
    log_z1 = base_log_partition(base_bias, rbm.n_hidden)
    if log_zhat0 is not None:
        lz0 = np.asarray(log_zhat0, np.float64).copy()
    elif init == "ais":
        lz0 = ais_log_partition(
            rbm,
            n_chains,
            betas,
            ChainStreams.from_seed(seed, *key, "ais_init", n_chains=n_chains),
            base_bias,
            dtype=dtype,
            record_partial=True,
        ).partial_log_z
    elif init == "flat":
        lz0 = np.full(K, log_z1)
    else:
        raise ValueError(f"init must be 'flat' or 'ais', got {init!r}")
    state = TemperedRBMChains.from_base(rbm, n_chains, streams, base_bias, dtype=dtype)
    rts = RTSRun(state, step, betas, log_prior, n_chains, rng, lz0)
    init_hist = rts.initial_iterations(init_sweeps, init_iterations, stop=stop_init)
    n_sweeps = (K - 2 if log_zhat0 is None and init == "ais" else 0) + len(init_hist.c) * int(init_sweeps)
    init_k = None if rts.k is None else rts.k.copy()  # the main run continues (x, k); uniform k without iterations
    if burn_in > 0:  # discarded: lets x settle at its temperature before anything is recorded
        rts.sweeps(int(burn_in))
        n_sweeps += int(burn_in)
    checkpoints, stats, rec_all = rts.run(main_checkpoints, record=record)
    n_sweeps += checkpoints[-1][0] if checkpoints else 0
    return TemperedRun(init_hist, rts.log_zhat, checkpoints, stats, rec_all, betas, log_prior, init_k, n_sweeps)


def budget_tempered_run(
    rbm: RBM,
    base_bias: np.ndarray,
    settings: dict,
    budgets: list[int],
    *,
    seed: int,
    key: tuple,
    dtype=np.float64,
    record: bool = False,
) -> TemperedRun:
    """:func:`rbm_tempered_run` on K linear betas with a uniform prior, read at matched sweep budgets.

    A budget counts every sweep per chain (as AIS and RAISE are counted in
    Carlson et al. 2016, Fig. 3): the main run is read after each budget
    minus the sweeps of :func:`init_sweeps_of`.

    Parameters
    ----------
    settings : dict
        ``K``, ``n_chains``, ``init`` (``flat``/``ais``), ``init_iterations``,
        ``init_sweeps``.
    budgets : list of int
        Increasing sweeps per chain in all, one checkpoint each; the smallest
        must exceed the initial sweeps.
    seed, key, dtype, record
        As in :func:`rbm_tempered_run`.
    """
    K = int(settings["K"])
    init_cost = init_sweeps_of(settings, K)
    main = [int(b) - init_cost for b in budgets]
    if min(main) < 1:
        raise ValueError(f"budget {min(budgets)} does not exceed the {init_cost} initial sweeps")
    return rbm_tempered_run(
        rbm,
        base_bias,
        betas=linear_betas(K),
        log_prior=uniform_log_prior(K),
        n_chains=int(settings["n_chains"]),
        init_iterations=int(settings["init_iterations"]),
        init_sweeps=int(settings["init_sweeps"]),
        main_checkpoints=main,
        seed=seed,
        key=key,
        dtype=dtype,
        init=settings["init"],
        record=record,
    )


__all__ = [
    "TemperedRun",
    "init_sweeps_of",
    "rbm_tempered_run",
    "budget_tempered_run",
]
