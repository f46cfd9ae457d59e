"""Fig. 3 of Carlson et al. (2016), sec. 4.2: RTS vs AIS vs RAISE at matched Gibbs sweeps, and the reference log Z."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...estimators.ais import ais_log_partition
from ...estimators.ladders import linear_betas, piecewise_betas
from ...estimators.reverse_ais import raise_log_partition
from ...estimators.rts import uniform_log_prior
from ...models.rbm import RBM
from ...sampling.streams import ChainStreams
from .tempered import DTYPES, init_sweeps_of, rbm_tempered_run


def fig3_repeat(
    rbm: RBM,
    base_bias: np.ndarray,
    V_test: np.ndarray,
    settings: dict,
    method: str,
    repeat: int,
    seed: int,
    model_name: str,
) -> pd.DataFrame:
    """Sec. 4.2 / Fig. 3, one repeat of one method at every sweep budget.

    RTS: K temperatures, the optional AIS pass for the starting log Zhat
    (``init = "ais"``) and ``init_iterations`` x ``init_sweeps`` initial sweeps
    (all counted in the budget), then one run read at each budget (nested).
    AIS / RAISE: ``budget + 2`` / ``budget + 1`` inverse temperatures (exactly
    ``budget`` sweeps) on the piecewise schedule of Salakhutdinov & Murray (2008), one run per chain; RAISE
    starts from ``n_chains`` test points (the same points in every repeat).

    Parameters
    ----------
    rbm, base_bias : RBM, ndarray
        The trained model and the logits of its base p1.
    V_test : ndarray
        RAISE's starting points (the first ``n_chains`` rows are used).
    settings : dict
        ``n_chains``, ``sweeps`` (the budgets), ``dtype``, ``K``, ``init``,
        ``init_iterations``, ``init_sweeps``.
    method : {"RTS", "AIS", "RAISE"}
    repeat, seed : int
        The repeat's index and the root seed.
    model_name : str
        Names the model in the rows and in the random streams' key.

    Returns
    -------
    DataFrame
        ``model``, ``repeat``, ``method``, ``sweeps``, ``estimate``, ``stderr``.
    """
    n_chains = int(settings["n_chains"])
    budgets = sorted(int(b) for b in settings["sweeps"])
    dtype = DTYPES[settings["dtype"]]
    key = ("carlson2016", "fig3", model_name, method, int(repeat))
    rows = []
    if method in ("RTS", "TS"):
        K = int(settings["K"])
        init_cost = init_sweeps_of(settings, K)
        main = [b - init_cost for b in budgets]
        if min(main) < 1:
            raise ValueError(f"smallest budget {budgets[0]} does not exceed the {init_cost} initial sweeps")
        run = rbm_tempered_run(
            rbm,
            base_bias,
            betas=linear_betas(K),
            log_prior=uniform_log_prior(K),
            n_chains=n_chains,
            init_iterations=int(settings["init_iterations"]),
            init_sweeps=int(settings["init_sweeps"]),
            main_checkpoints=main,
            seed=seed,
            key=key,
            dtype=dtype,
            init=settings["init"],
        )
        for b, (_, lz_rts, _, se) in zip(budgets, run.checkpoints, strict=True):
            rows.append({"method": "RTS", "sweeps": b, "estimate": lz_rts[-1], "stderr": se[-1]})
    elif method in ("AIS", "RAISE"):
        for b in budgets:
            # AIS on n betas makes n - 2 transitions, RAISE n - 1: both spend exactly b sweeps
            betas = piecewise_betas(b + 2 if method == "AIS" else b + 1)
            streams = ChainStreams.from_seed(seed, *key, b, n_chains=n_chains)
            if method == "AIS":
                r = ais_log_partition(rbm, n_chains, betas, streams, base_bias, dtype=dtype)
                rows.append({"method": "AIS", "sweeps": b, "estimate": r.log_z, "stderr": r.stderr})
            else:
                res, _ = raise_log_partition(rbm, V_test[:n_chains], betas, streams, base_bias, dtype=dtype)
                rows.append({"method": "RAISE", "sweeps": b, "estimate": res.estimate, "stderr": res.stderr})
    else:
        raise ValueError(f"unknown method {method!r}")
    df = pd.DataFrame(rows)
    df.insert(0, "repeat", int(repeat))
    df.insert(0, "model", model_name)
    return df


def fig3_truth(
    rbm: RBM, base_bias: np.ndarray, settings: dict, seed: int, model_name: str
) -> tuple[pd.DataFrame, np.ndarray]:
    """The reference log Z: average of one long AIS and one long RTS run (paper: 10^6 samples each).

    Parameters
    ----------
    rbm, base_bias : RBM, ndarray
        The trained model and the logits of its base p1.
    settings : dict
        ``n_chains``, ``dtype``, ``truth_sweeps``, ``K``, ``init``,
        ``init_iterations``, ``init_sweeps``.
    seed : int
        Root seed.
    model_name : str
        Names the model in the rows and in the random streams' key.

    Returns
    -------
    table : DataFrame
        Rows RTS, AIS and truth: ``model``, ``method``, ``estimate``, ``stderr``, ``sweeps``.
    curve : ndarray, shape (K,)
        The long run's RTS ``log Z_k`` on its K linear betas (a starting point for Fig. 4).
    """
    n_chains = int(settings["n_chains"])
    dtype = DTYPES[settings["dtype"]]
    sweeps = int(settings["truth_sweeps"])
    K = int(settings["K"])
    key = ("carlson2016", "fig3_truth", model_name)
    run = rbm_tempered_run(
        rbm,
        base_bias,
        betas=linear_betas(K),
        log_prior=uniform_log_prior(K),
        n_chains=n_chains,
        init_iterations=int(settings["init_iterations"]),
        init_sweeps=int(settings["init_sweeps"]),
        main_checkpoints=[sweeps],
        seed=seed,
        key=key + ("RTS",),
        dtype=dtype,
        init=settings["init"],
    )
    _, lz_rts, _, se_rts = run.checkpoints[-1]
    ais = ais_log_partition(
        rbm,
        n_chains,
        piecewise_betas(sweeps + 1),
        ChainStreams.from_seed(seed, *key, "AIS", n_chains=n_chains),
        base_bias,
        dtype=dtype,
    )
    truth = 0.5 * (lz_rts[-1] + ais.log_z)
    return pd.DataFrame(
        [
            {"model": model_name, "method": "RTS", "estimate": lz_rts[-1], "stderr": se_rts[-1], "sweeps": sweeps},
            {"model": model_name, "method": "AIS", "estimate": ais.log_z, "stderr": ais.stderr, "sweeps": sweeps},
            {
                "model": model_name,
                "method": "truth",
                "estimate": truth,
                "stderr": 0.5 * np.hypot(se_rts[-1], ais.stderr),
                "sweeps": 2 * sweeps,
            },
        ]
    ), np.asarray(lz_rts)
