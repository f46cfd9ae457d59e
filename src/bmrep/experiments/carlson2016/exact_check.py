"""Every estimator of Carlson et al. (2016) against the exact log Z of small enumerable RBMs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...estimators.ais import ais_log_partition
from ...estimators.base import base_log_partition, data_marginal_base_bias
from ...estimators.ladders import linear_betas
from ...estimators.mbar import mbar_log_z
from ...estimators.reverse_ais import raise_log_partition
from ...estimators.rts import uniform_log_prior
from ...estimators.ti import ti_log_z
from ...models.exact import rbm as exact
from ...models.rbm import RBM
from ...sampling.streams import ChainStreams
from ...seeds import rng as make_rng
from .tempered import rbm_tempered_run

MBAR_MAX_SAMPLES = 20000


def exact_model_check(settings: dict, seed: int) -> pd.DataFrame:
    """Every estimator against the exact log Z of small enumerable RBMs (the spec's exact check).

    For each weight scale s: W, b, c ~ N(0, s^2) on an ``n_visible`` x
    ``n_hidden`` RBM; base p1 = marginals of 1000 exact samples. AIS and
    RAISE (``sweeps + 1`` linear betas, RAISE from exact samples), RTS/TS
    (eq. 12 and its non-Rao-Blackwellized form; K linear betas, 10 initial
    iterations of ``sweeps // 20`` sweeps, then ``sweeps``), and MBAR / TI /
    TI-RB (eq. 21) on the same tempered samples (MBAR on sweeps thinned to at
    most ``MBAR_MAX_SAMPLES`` samples).

    Parameters
    ----------
    settings : dict
        ``n_visible``, ``n_hidden``, ``weight_scales``, ``n_chains``, ``sweeps``, ``K``.
    seed : int
        Root seed.

    Returns
    -------
    DataFrame
        ``weight_scale``, ``method``, ``estimate``, ``stderr`` (NaN where the
        method states none), ``exact``, ``z``.
    """
    nv, nh = int(settings["n_visible"]), int(settings["n_hidden"])
    n_chains, sweeps, K = int(settings["n_chains"]), int(settings["sweeps"]), int(settings["K"])
    rows = []
    for i, scale in enumerate(settings["weight_scales"]):
        key = ("carlson2016", "exact_check", i)
        rng = make_rng(seed, *key)
        s = float(scale)
        rbm = RBM(rng.normal(0, s, (nv, nh)), rng.normal(0, s, nv), rng.normal(0, s, nh))
        V, _ = exact.sample_exact(rbm, 1000, rng)
        base_bias = data_marginal_base_bias(V, 1.0)
        lz = exact.log_partition(rbm)
        betas_ais = linear_betas(sweeps + 1)
        ais = ais_log_partition(
            rbm, n_chains, betas_ais, ChainStreams.from_seed(seed, *key, "AIS", n_chains=n_chains), base_bias
        )
        rows.append({"method": "AIS", "estimate": ais.log_z, "stderr": ais.stderr})
        res, _ = raise_log_partition(
            rbm,
            V[:n_chains].astype(np.float64),
            betas_ais,
            ChainStreams.from_seed(seed, *key, "RAISE", n_chains=n_chains),
            base_bias,
        )
        rows.append({"method": "RAISE", "estimate": res.estimate, "stderr": res.stderr})
        betas = linear_betas(K)
        log_prior = uniform_log_prior(K)
        run = rbm_tempered_run(
            rbm,
            base_bias,
            betas=betas,
            log_prior=log_prior,
            n_chains=n_chains,
            init_iterations=10,
            init_sweeps=max(sweeps // 20, 1),
            main_checkpoints=[sweeps],
            seed=seed,
            key=key + ("ST",),
            record=True,
        )
        _, lz_rts, lz_ts, se = run.checkpoints[-1]
        rows.append({"method": "RTS", "estimate": lz_rts[-1], "stderr": se[-1]})
        rows.append({"method": "TS", "estimate": lz_ts[-1], "stderr": float(run.stats.stderr(False)[-1])})
        d, kk = run.record.delta.ravel(), run.record.k.ravel().astype(np.int64)
        log_z1 = base_log_partition(base_bias, nh)
        thin = max(1, d.size // MBAR_MAX_SAMPLES)  # pymbar's cost grows with N K; use evenly thinned sweeps
        m = mbar_log_z(run.record.delta[::thin].ravel(), run.record.k[::thin].ravel().astype(np.int64), betas, log_z1)
        rows.append({"method": "MBAR", "estimate": m.estimate, "stderr": m.stderr})
        for name, r in ti_log_z(d, kk, betas, log_z1, log_prior=log_prior, log_zhat=run.log_zhat).items():
            rows.append({"method": name, "estimate": r.estimate, "stderr": np.nan})
        for r in rows:
            r.setdefault("weight_scale", s)
            r.setdefault("exact", lz)
    df = pd.DataFrame(rows)
    df["z"] = (df["estimate"] - df["exact"]) / df["stderr"]
    return df[["weight_scale", "method", "estimate", "stderr", "exact", "z"]]
