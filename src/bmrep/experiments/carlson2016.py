"""Carlson, Stinson, Pakman & Paninski (2016): the experiments behind Figs. 1-5.

Pure functions from settings (plain dicts, the config section's entries),
arrays and a root seed to result tables (pandas DataFrames). Random streams
are keyed by (target, repeat, chain) through :mod:`bmrep.seeds`, so results do
not depend on how repeats are sharded or on thread counts.

- :func:`train_mnist_rbm`: the 784-H MNIST models (PCD/CD, recipe in the sidecar).
- :func:`fig1_initial_iterations`: RTS initial iterations with and without RB (sec. 2.4).
- :func:`fig2_gaussian_mixture_repeat`: RTS/MBAR/TI/TI-RB on a Gaussian mixture with HMC (sec. 4.1).
- :func:`fig3_repeat`, :func:`fig3_truth`: RTS vs AIS vs RAISE at matched sweeps (sec. 4.2).
- :func:`fig4_temperatures`: estimator RMSE vs the number of temperatures (sec. 4.3).
- :func:`fig5_track_training`: tempered PCD training on dna with a running RTS estimate (sec. 4.4).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..estimators.ais import ais_log_partition
from ..estimators.base import base_log_partition, data_marginal_base_bias, uniform_base_bias
from ..estimators.ladders import linear_betas, piecewise_betas
from ..estimators.mbar import MBARConvergenceError, mbar_log_z
from ..estimators.reverse_ais import raise_log_partition
from ..estimators.rts import (
    TemperingStats,
    exponential_log_prior,
    initial_iterations,
    partial_update,
    rts_log_z,
    run_simulated_tempering,
    ts_log_z,
    uniform_log_prior,
)
from ..estimators.ti import ti_log_z
from ..models.exact import rbm as exact
from ..models.gaussian_mixture import GaussianMixture
from ..models.rbm import RBM
from ..seeds import rng as make_rng
from ..sampling.hmc import TemperedHMC
from ..sampling.operators import Gibbs
from ..sampling.simulated_tempering import RBMTemperingState, log_temperature_conditional, rbm_step, temperature_conditional
from ..sampling.streams import ChainStreams

PAPER = "carlson2016"
MBAR_MAX_SAMPLES = 20000
_DTYPES = {"float32": np.float32, "float64": np.float64}

__all__ = [
    "base_bias_for",
    "train_mnist_rbm",
    "rbm_tempered_run",
    "exact_model_check",
    "fig1_initial_iterations",
    "fig2_gaussian_mixture_repeat",
    "fig3_repeat",
    "fig3_truth",
    "fig4_temperatures",
    "fig5_track_training",
    "rmse_table",
]


# --------------------------------------------------------------------------- shared pieces


def base_bias_for(kind: str, X: np.ndarray, pseudo_count: float = 1.0) -> np.ndarray:
    """Logits of p1: ``"data"`` (marginals of X, Salakhutdinov & Murray 2008) or ``"uniform"``."""
    if kind == "data":
        return data_marginal_base_bias(X, pseudo_count)
    if kind == "uniform":
        return uniform_base_bias(X.shape[1])
    raise ValueError(f"base must be 'data' or 'uniform', got {kind!r}")


def train_mnist_rbm(X: np.ndarray, n_hidden: int, settings: dict, seed: int) -> tuple[RBM, dict]:
    """Train a 784-H RBM on binarised MNIST by PCD-k or CD-k with Adam (the recipe is returned).

    ``settings``: ``rule`` (``pcd``/``cd``), ``k``, ``batch_size``,
    ``n_updates``, ``learning_rate``, ``weight_decay``, ``n_chains`` (PCD),
    ``init_scale``. Visible biases start at the data's log-odds (Hinton 2010).
    """
    from ..learning.cd import train_rbm
    from ..learning.optimizers import Adam

    key = ("carlson2016", "train", f"mnist_784x{n_hidden}")
    rng = make_rng(seed, *key)
    X = np.ascontiguousarray(X, dtype=np.float64)
    rbm0 = RBM.random(X.shape[1], n_hidden, rng, scale=float(settings["init_scale"]))
    rbm0 = RBM(rbm0.W, data_marginal_base_bias(X, 1.0), rbm0.c)
    persistent = settings["rule"] == "pcd"
    n_chains = int(settings["n_chains"]) if persistent else int(settings["batch_size"])
    streams = ChainStreams.from_seed(seed, *key, n_chains=max(n_chains, int(settings["batch_size"])))
    t0 = time.time()
    model, _ = train_rbm(
        rbm0,
        X,
        operator=Gibbs(),
        k=int(settings["k"]),
        persistent=persistent,
        batch_size=int(settings["batch_size"]),
        n_updates=int(settings["n_updates"]),
        optimizer=Adam(float(settings["learning_rate"])),
        streams=streams,
        rng=rng,
        n_chains=n_chains if persistent else None,
        weight_decay=float(settings["weight_decay"]),
    )
    recipe = {
        "paper": PAPER,
        "n_visible": int(X.shape[1]),
        "n_hidden": int(n_hidden),
        "n_train": int(X.shape[0]),
        "optimizer": "Adam",
        "seed": int(seed),
        "seed_key": list(key),
        "training_seconds": time.time() - t0,
        **{k: settings[k] for k in sorted(settings)},
    }
    return model, recipe


@dataclass
class TemperedRun:
    """Result of :func:`rbm_tempered_run`."""

    init: object  # InitialIterations
    log_zhat: np.ndarray  # Zhat used in the main run
    checkpoints: list  # (sweeps_total, log_z_rts (K,), log_z_ts (K,), stderr_rts (K,))
    stats: TemperingStats
    record: object  # STRecord or None
    betas: np.ndarray
    log_prior: np.ndarray


def init_sweeps_of(settings: dict, K: int) -> int:
    """Sweeps spent before the main RTS run: the optional AIS pass plus the initial iterations."""
    ais = K - 2 if settings.get("init", "flat") == "ais" else 0
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
) -> TemperedRun:
    """Simulated tempering on an RBM with RTS: initial iterations (sec. 2.4), then one long run.

    ``main_checkpoints`` are the main-run sweep counts at which the RTS and
    TS estimates are taken (nested prefixes of one run). Chains start from the
    base; every initial iteration starts from the previous x with fresh
    uniform temperatures (sec. 2.4). The starting log Zhat is ``log_zhat0``
    if given, else ``init = "flat"`` (Zhat_k = Z_1, the paper's default) or
    ``init = "ais"`` ("a better estimate, if known": the partial AIS weights
    of one AIS pass along the ladder on the same chains' streams, K - 2
    sweeps; see :func:`init_sweeps_of`). ``burn_in`` sweeps after the
    initial iterations are discarded (Fig. 4).
    """
    K = betas.size
    streams = ChainStreams.from_seed(seed, *key, n_chains=n_chains)
    rng = make_rng(seed, *key, "temperatures")
    log_z1 = base_log_partition(base_bias, rbm.n_hidden)
    if log_zhat0 is not None:
        lz0 = np.asarray(log_zhat0, np.float64).copy()
    elif init == "ais":
        lz0 = ais_log_partition(rbm, n_chains, betas, ChainStreams.from_seed(seed, *key, "ais_init", n_chains=n_chains), base_bias,
                                dtype=dtype, record_partial=True).partial_log_z
    elif init == "flat":
        lz0 = np.full(K, log_z1)
    else:
        raise ValueError(f"init must be 'flat' or 'ais', got {init!r}")
    state = RBMTemperingState.from_base(rbm, n_chains, streams, base_bias, dtype=dtype)

    def one_iteration(lz):
        s, _, _ = run_simulated_tempering(
            state, rng.integers(0, K, n_chains), step=rbm_step, betas=betas, log_prior=log_prior, log_zhat=lz, n_sweeps=init_sweeps, rng=rng
        )
        return s.q_sum.sum(axis=0), s.counts.sum(axis=0)

    init_hist = initial_iterations(one_iteration, log_prior, lz0, init_iterations, stop=stop_init)
    lz = init_hist.final_log_zhat
    k = rng.integers(0, K, n_chains)
    if burn_in > 0:  # discarded: lets x settle at its temperature before anything is recorded
        _, k, _ = run_simulated_tempering(state, k, step=rbm_step, betas=betas, log_prior=log_prior, log_zhat=lz, n_sweeps=int(burn_in), rng=rng)
    stats = TemperingStats(K, n_chains)
    checkpoints, records, done = [], [], 0
    for target in sorted(int(c) for c in main_checkpoints):
        stats, k, rec = run_simulated_tempering(
            state, k, step=rbm_step, betas=betas, log_prior=log_prior, log_zhat=lz, n_sweeps=target - done, rng=rng, stats=stats, record=record
        )
        done = target
        if rec is not None:
            records.append(rec)
        checkpoints.append((done, stats.rts(log_prior, lz), stats.ts(log_prior, lz), stats.stderr()))
    rec_all = None
    if record and records:
        from ..sampling.simulated_tempering import STRecord

        rec_all = STRecord(np.concatenate([r.delta for r in records]), np.concatenate([r.k for r in records]))
    return TemperedRun(init_hist, lz, checkpoints, stats, rec_all, betas, log_prior)


# --------------------------------------------------------------------------- exact check


def exact_model_check(settings: dict, seed: int) -> pd.DataFrame:
    """Every estimator against the exact log Z of small enumerable RBMs (the Fig. 3 claim on exact models).

    For each weight scale s: W, b, c ~ N(0, s^2) on an ``n_visible`` x
    ``n_hidden`` RBM; base p1 = marginals of 1000 exact samples. AIS and
    RAISE (``sweeps + 1`` linear betas, RAISE from exact samples), RTS/TS
    (K linear betas, 10 initial iterations of ``sweeps // 20`` sweeps, then
    ``sweeps``), and MBAR / TI / TI-RB on the same tempered samples (MBAR on
    sweeps thinned to at most ``MBAR_MAX_SAMPLES`` samples). Rows:
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
        ais = ais_log_partition(rbm, n_chains, betas_ais, ChainStreams.from_seed(seed, *key, "AIS", n_chains=n_chains), base_bias)
        rows.append({"method": "AIS", "estimate": ais.log_z, "stderr": ais.stderr})
        res, _ = raise_log_partition(rbm, V[:n_chains].astype(np.float64), betas_ais, ChainStreams.from_seed(seed, *key, "RAISE", n_chains=n_chains), base_bias)
        rows.append({"method": "RAISE", "estimate": res.estimate, "stderr": res.stderr})
        betas = linear_betas(K)
        log_prior = uniform_log_prior(K)
        run = rbm_tempered_run(
            rbm, base_bias, betas=betas, log_prior=log_prior, n_chains=n_chains, init_iterations=10, init_sweeps=max(sweeps // 20, 1),
            main_checkpoints=[sweeps], seed=seed, key=key + ("ST",), record=True,
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


# --------------------------------------------------------------------------- Fig. 1


def fig1_initial_iterations(rbm: RBM, base_bias: np.ndarray, settings: dict, seed: int) -> pd.DataFrame:
    """Sec. 2.4 / Fig. 1: log Zhat_k and c_k over the initial iterations, with and without RB.

    ``n_iterations`` iterations are run for the figure (no early stop). The
    final estimate follows the paper's procedure: from the Zhat of the first
    iteration that met the stopping rule (the last one if none did), one long
    run of ``final_sweeps`` sweeps gives eq. 12's estimate (``stage`` =
    ``final``, ``iteration`` = n_iterations + 1).

    Rows: ``variant`` (RB or TS), ``stage`` (initial / final), ``iteration``,
    ``k``, ``beta``, ``log_zhat`` (after the iteration), ``c`` (estimated in
    it), ``exact`` (exact log Z_k by enumeration), ``converged_at`` (first
    iteration meeting ``max|r - c| < 0.1/K``, -1 if none).
    """
    K = int(settings["K"])
    betas = linear_betas(K)
    log_prior = uniform_log_prior(K)
    exact_lz = np.array([exact.log_partition(rbm, float(b), base_bias) for b in betas])
    n_chains, sweeps, n_it = int(settings["n_chains"]), int(settings["sweeps_per_iteration"]), int(settings["n_iterations"])
    rows = []
    for variant, rb in (("RB", True), ("TS", False)):
        key = ("carlson2016", "fig1", variant)
        streams = ChainStreams.from_seed(seed, *key, n_chains=n_chains)
        rng = make_rng(seed, *key, "temperatures")
        state = RBMTemperingState.from_base(rbm, n_chains, streams, base_bias)

        def one_iteration(lz):
            s, _, _ = run_simulated_tempering(
                state, rng.integers(0, K, n_chains), step=rbm_step, betas=betas, log_prior=log_prior, log_zhat=lz, n_sweeps=sweeps, rng=rng
            )
            return s.q_sum.sum(axis=0), s.counts.sum(axis=0)

        init = initial_iterations(one_iteration, log_prior, np.full(K, exact_lz[0]), n_it, rao_blackwell=rb, stop=False)
        conv = -1 if init.converged_at is None else init.converged_at
        for it, (lz, c) in enumerate(zip(init.log_zhat, init.c), start=1):
            for kk in range(K):
                rows.append({"variant": variant, "stage": "initial", "iteration": it, "k": kk + 1, "beta": betas[kk], "log_zhat": lz[kk],
                             "c": c[kk], "exact": exact_lz[kk], "converged_at": conv})
        lz_start = init.log_zhat[(conv if conv > 0 else n_it) - 1]
        stats, _, _ = run_simulated_tempering(
            state, rng.integers(0, K, n_chains), step=rbm_step, betas=betas, log_prior=log_prior, log_zhat=lz_start,
            n_sweeps=int(settings["final_sweeps"]), rng=rng,
        )
        lz_final = stats.rts(log_prior, lz_start) if rb else stats.ts(log_prior, lz_start)
        c_final = stats.c if rb else (stats.counts.sum(0) + 0.1) / (stats.counts.sum() + 0.1 * K)
        for kk in range(K):
            rows.append({"variant": variant, "stage": "final", "iteration": n_it + 1, "k": kk + 1, "beta": betas[kk], "log_zhat": lz_final[kk],
                         "c": c_final[kk], "exact": exact_lz[kk], "converged_at": conv})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- Fig. 2


def gaussian_mixture_from(settings: dict) -> GaussianMixture:
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
    names = {"TI-riemann": "TI Riemann", "TI-trapezoid": "TI trap", "TI-trapezoid-corrected": "TI trap corrected", "TI-RB": "TI-RB"}
    out.update({names[n]: r.estimate for n, r in ti.items()})
    return out


def fig2_gaussian_mixture_repeat(settings: dict, repeat: int, seed: int) -> pd.DataFrame:
    """Sec. 4.1 / Fig. 2, one repeat: tempered HMC on the mixture, estimates at each sample count.

    After ``warmup`` adaptive HMC sweeps and ``init_iterations`` RTS initial
    iterations, one run collects ``max(samples)`` samples over ``n_chains``
    chains; the estimates at each count use the first samples (nested).
    """
    gm = gaussian_mixture_from(settings)
    K = int(settings["K"])
    betas = linear_betas(K) ** float(settings["beta_power"])
    log_prior = uniform_log_prior(K)
    rng = make_rng(seed, "carlson2016", "fig2", int(repeat))
    n_chains = int(settings["n_chains"])
    hmc = TemperedHMC(gm.log_f_tempered, gm.grad_log_f_tempered, betas, float(settings["step_size"]), int(settings["n_leapfrog"]))
    x = rng.normal(0.0, gm.base_scale, size=(n_chains, gm.dim))

    def step(state, cb):
        hmc.step(state, cb, rng)
        return gm.delta(state)

    lz = np.zeros(K)  # log Z_1 = 0: the base is normalised
    stats, k, _ = run_simulated_tempering(x, rng.integers(0, K, n_chains), step=step, betas=betas, log_prior=log_prior, log_zhat=lz, n_sweeps=int(settings["warmup"]), rng=rng)
    hmc.freeze()

    def one_iteration(lz_):
        s, _, _ = run_simulated_tempering(x, rng.integers(0, K, n_chains), step=step, betas=betas, log_prior=log_prior, log_zhat=lz_, n_sweeps=int(settings["init_sweeps"]), rng=rng)
        return s.q_sum.sum(axis=0), s.counts.sum(axis=0)

    init = initial_iterations(one_iteration, log_prior, lz, int(settings["init_iterations"]), stop=False)
    lz = init.final_log_zhat
    counts = sorted(int(s) for s in settings["samples"])
    n_sweeps = -(-counts[-1] // n_chains)
    _, _, rec = run_simulated_tempering(x, rng.integers(0, K, n_chains), step=step, betas=betas, log_prior=log_prior, log_zhat=lz, n_sweeps=n_sweeps, rng=rng, record=True)
    delta, kk = rec.delta.ravel(), rec.k.ravel()  # sweep-major: a prefix is the first sweeps
    rows = []
    for n in counts:
        for method, est in _gmm_estimates(delta[:n], kk[:n], betas, log_prior, lz, n).items():
            rows.append({"repeat": int(repeat), "n_samples": n, "method": method, "estimate": est, "exact": gm.log_z})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- Fig. 3


def fig3_repeat(rbm: RBM, base_bias: np.ndarray, V_test: np.ndarray, settings: dict, method: str, repeat: int, seed: int, model_name: str) -> pd.DataFrame:
    """Sec. 4.2 / Fig. 3, one repeat of one method at every sweep budget.

    RTS: K temperatures, the optional AIS pass for the starting log Zhat
    (``init = "ais"``) and ``init_iterations`` x ``init_sweeps`` initial sweeps
    (all counted in the budget), then one run read at each budget (nested).
    AIS / RAISE: ``budget + 1`` inverse temperatures on the piecewise
    schedule of Salakhutdinov & Murray (2008), one run per chain; RAISE
    starts from ``n_chains`` test points (the same points in every repeat).
    """
    n_chains = int(settings["n_chains"])
    budgets = sorted(int(b) for b in settings["sweeps"])
    dtype = _DTYPES[settings["dtype"]]
    key = ("carlson2016", "fig3", model_name, method, int(repeat))
    rows = []
    if method in ("RTS", "TS"):
        K = int(settings["K"])
        init_cost = init_sweeps_of(settings, K)
        main = [b - init_cost for b in budgets]
        if min(main) < 1:
            raise ValueError(f"smallest budget {budgets[0]} does not exceed the {init_cost} initial sweeps")
        run = rbm_tempered_run(
            rbm, base_bias, betas=linear_betas(K), log_prior=uniform_log_prior(K), n_chains=n_chains,
            init_iterations=int(settings["init_iterations"]), init_sweeps=int(settings["init_sweeps"]),
            main_checkpoints=main, seed=seed, key=key, dtype=dtype, init=settings["init"],
        )
        for b, (_, lz_rts, lz_ts, se) in zip(budgets, run.checkpoints):
            rows.append({"method": "RTS", "sweeps": b, "estimate": lz_rts[-1], "stderr": se[-1]})
    elif method in ("AIS", "RAISE"):
        for b in budgets:
            betas = piecewise_betas(b + 1)
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


def fig3_truth(rbm: RBM, base_bias: np.ndarray, settings: dict, seed: int, model_name: str) -> tuple[pd.DataFrame, np.ndarray]:
    """The reference log Z: average of one long AIS and one long RTS run (paper: 10^6 samples each).

    Returns the table (rows RTS, AIS, truth) and the long run's RTS curve
    ``log Z_k`` on its K linear betas (a starting point for Fig. 4).
    """
    n_chains = int(settings["n_chains"])
    dtype = _DTYPES[settings["dtype"]]
    sweeps = int(settings["truth_sweeps"])
    K = int(settings["K"])
    key = ("carlson2016", "fig3_truth", model_name)
    run = rbm_tempered_run(
        rbm, base_bias, betas=linear_betas(K), log_prior=uniform_log_prior(K), n_chains=n_chains,
        init_iterations=int(settings["init_iterations"]), init_sweeps=int(settings["init_sweeps"]),
        main_checkpoints=[sweeps], seed=seed, key=key + ("RTS",), dtype=dtype, init=settings["init"],
    )
    _, lz_rts, _, se_rts = run.checkpoints[-1]
    ais = ais_log_partition(rbm, n_chains, piecewise_betas(sweeps + 1), ChainStreams.from_seed(seed, *key, "AIS", n_chains=n_chains), base_bias, dtype=dtype)
    truth = 0.5 * (lz_rts[-1] + ais.log_z)
    return pd.DataFrame(
        [
            {"model": model_name, "method": "RTS", "estimate": lz_rts[-1], "stderr": se_rts[-1], "sweeps": sweeps},
            {"model": model_name, "method": "AIS", "estimate": ais.log_z, "stderr": ais.stderr, "sweeps": sweeps},
            {"model": model_name, "method": "truth", "estimate": truth, "stderr": 0.5 * np.hypot(se_rts[-1], ais.stderr), "sweeps": 2 * sweeps},
        ]
    ), np.asarray(lz_rts)


# --------------------------------------------------------------------------- Fig. 4


def fig4_temperatures(rbm: RBM, base_bias: np.ndarray, K: int, settings: dict, seed: int, log_z_curve: tuple | None = None) -> pd.DataFrame:
    """Sec. 4.3 / Fig. 4 for one K: one long tempered run, bootstrap subsets, estimates per method.

    ``log_z_curve`` = (betas, log Z(beta)) from a previous run initialises
    log Zhat by interpolation ("or a better estimate, if known", sec. 2.4),
    followed by ``init_iterations`` RTS iterations (0: none) and ``burn_in``
    discarded sweeps; the next ``n_sweeps`` sweeps are recorded. MBAR runs on the first
    ``n_bootstrap_mbar`` subsets and only for ``K <= mbar_max_K`` (pymbar's
    cost grows fast with K, as the paper notes in sec. 4.3). Rows: ``K``,
    ``bootstrap``, ``method``, ``estimate``.
    """
    n_chains = int(settings["n_chains"])
    dtype = _DTYPES[settings["dtype"]]
    betas = linear_betas(int(K))
    log_prior = uniform_log_prior(int(K))
    lz0 = None if log_z_curve is None else np.interp(betas, log_z_curve[0], log_z_curve[1])
    key = ("carlson2016", "fig4", int(K))
    run = rbm_tempered_run(
        rbm, base_bias, betas=betas, log_prior=log_prior, n_chains=n_chains,
        init_iterations=int(settings["init_iterations"]), init_sweeps=int(settings["init_sweeps"]),
        main_checkpoints=[int(settings["n_sweeps"])], seed=seed, key=key, dtype=dtype, log_zhat0=lz0, record=True,
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


# --------------------------------------------------------------------------- Fig. 5


def fig5_track_training(X_train: np.ndarray, X_valid: np.ndarray, settings: dict, seed: int, log=None) -> tuple[RBM, pd.DataFrame, dict]:
    """Sec. 4.4 / Fig. 5: RBM training with tempered persistent chains and a running RTS log Z.

    1. CD-1 pretraining (Adam).
    2. RTS initial iterations (K temperatures, prior ``r_k ∝ exp(rate beta_k)``).
    3. Each update: ``sweeps_per_update`` ST sweeps of the persistent chains;
       the model term of the gradient from the last sweep's states weighted
       by ``q(beta_K | x)`` (the Rao-Blackwellized probability of being at
       beta = 1, self-normalised); the data term from a minibatch; an Adam
       step (substitute for RMSspectral, which our copy does not describe);
       then the partial update (alpha) of log Zhat from the sweeps' ``c_k``.
    4. Every ``ais_every`` updates: AIS log Z (``ais_runs`` runs,
       ``ais_betas`` betas) for comparison.
    Mean log-likelihoods are ``-mean F(v) - log Z``.
    """
    from ..learning.cd import train_rbm
    from ..learning.optimizers import Adam

    key = ("carlson2016", "fig5")
    rng = make_rng(seed, *key)
    X = np.ascontiguousarray(X_train, np.float64)
    Xv = np.ascontiguousarray(X_valid, np.float64)
    base_bias = data_marginal_base_bias(X, 1.0)
    n_hidden = int(settings["n_hidden"])
    rbm0 = RBM.random(X.shape[1], n_hidden, rng, scale=0.01)
    rbm0 = RBM(rbm0.W, base_bias.copy(), rbm0.c)
    bs = int(settings["batch_size"])
    t0 = time.time()
    rbm, _ = train_rbm(
        rbm0, X, operator=Gibbs(), k=1, persistent=False, batch_size=bs, n_updates=int(settings["pretrain_updates"]),
        optimizer=Adam(float(settings["pretrain_learning_rate"])), streams=ChainStreams.from_seed(seed, *key, "pretrain", n_chains=bs), rng=rng,
    )
    rbm = rbm.copy()
    K = int(settings["K"])
    betas = linear_betas(K)
    log_prior = exponential_log_prior(betas, float(settings["prior_rate"]))
    n_chains = int(settings["n_chains"])
    streams = ChainStreams.from_seed(seed, *key, "chains", n_chains=n_chains)
    trng = make_rng(seed, *key, "temperatures")
    state = RBMTemperingState.from_base(rbm, n_chains, streams, base_bias)
    log_z1 = base_log_partition(base_bias, n_hidden)

    def one_iteration(lz):
        s, _, _ = run_simulated_tempering(
            state, trng.integers(0, K, n_chains), step=rbm_step, betas=betas, log_prior=log_prior, log_zhat=lz, n_sweeps=int(settings["init_sweeps"]), rng=trng
        )
        return s.q_sum.sum(axis=0), s.counts.sum(axis=0)

    init = initial_iterations(one_iteration, log_prior, np.full(K, log_z1), int(settings["init_iterations"]), stop=True)
    lz = init.final_log_zhat
    k = trng.integers(0, K, n_chains)
    opt = Adam(float(settings["learning_rate"]))
    params = rbm.params()
    alpha = float(settings["alpha"])
    n_updates = int(settings["n_updates"])
    ais_every = int(settings["ais_every"])
    rows = []

    def mean_ll(log_z):
        return float(-np.mean(rbm.free_energy_v(X)) - log_z), float(-np.mean(rbm.free_energy_v(Xv)) - log_z)

    def record(t, lz_now):
        tr, va = mean_ll(lz_now[-1])
        row = {"iteration": t, "train_rts": tr, "valid_rts": va, "log_z_rts": lz_now[-1]}
        if t % ais_every == 0 or t == n_updates:
            ais = ais_log_partition(
                rbm, int(settings["ais_runs"]), linear_betas(int(settings["ais_betas"])),
                ChainStreams.from_seed(seed, *key, "ais", t, n_chains=int(settings["ais_runs"])), base_bias,
            )
            tr_a, va_a = mean_ll(ais.log_z)
            row.update({"train_ais": tr_a, "valid_ais": va_a, "log_z_ais": ais.log_z, "ais_stderr": ais.stderr})
            if log is not None:
                log.info("update %d: log Z RTS %.3f AIS %.3f (+-%.3f)", t, lz_now[-1], ais.log_z, ais.stderr)
        rows.append(row)

    record(0, lz)
    for t in range(1, n_updates + 1):
        state.set_rbm(rbm)
        stats, k, _ = run_simulated_tempering(
            state, k, step=rbm_step, betas=betas, log_prior=log_prior, log_zhat=lz, n_sweeps=int(settings["sweeps_per_update"]), rng=trng
        )
        # model term: states of the last sweep weighted by q(beta_K | x)
        dlt = state.delta()
        w = np.exp(log_temperature_conditional(dlt, betas, log_prior, lz)[:, -1])
        w = w / w.sum()
        vm = np.asarray(state.v, np.float64)
        hm = rbm.prob_h_given_v(vm)
        vd = X[rng.integers(0, X.shape[0], bs)]
        hd = rbm.prob_h_given_v(vd)
        grads = {
            "W": vd.T @ hd / bs - (vm * w[:, None]).T @ hm,
            "b": vd.mean(axis=0) - w @ vm,
            "c": hd.mean(axis=0) - w @ hm,
        }
        opt.step(params, grads)
        if not all(np.all(np.isfinite(p)) for p in params.values()):
            raise FloatingPointError(f"fig5: parameters became non-finite at update {t}")
        lz = partial_update(lz, stats.log_c, log_prior, alpha)
        if t % int(settings["record_every"]) == 0 or t % ais_every == 0 or t == n_updates:
            record(t, lz)
    meta = {
        "paper": PAPER,
        "n_visible": int(X.shape[1]),
        "n_hidden": n_hidden,
        "n_train": int(X.shape[0]),
        "n_valid": int(Xv.shape[0]),
        "optimizer": "Adam (substitute for RMSspectral)",
        "init_converged_at": init.converged_at,
        "seed": int(seed),
        "training_seconds": time.time() - t0,
        **{k_: settings[k_] for k_ in sorted(settings)},
    }
    return rbm, pd.DataFrame(rows), meta


# --------------------------------------------------------------------------- summaries


def rmse_table(df: pd.DataFrame, by: list[str], truth) -> pd.DataFrame:
    """Mean, bias and RMSE of ``estimate`` against ``truth`` (a column name or a number) per group."""
    d = df.copy()
    d["truth"] = d[truth] if isinstance(truth, str) else float(truth)
    d["err"] = d["estimate"] - d["truth"]
    g = d.groupby(by)
    out = g.agg(mean=("estimate", "mean"), truth=("truth", "first"), bias=("err", "mean"), n=("err", "size"))
    out["rmse"] = g["err"].apply(lambda e: float(np.sqrt(np.mean(np.square(e)))))
    return out.reset_index()


def save_frame(path, df: pd.DataFrame) -> None:
    """A shard table as npz (one array per column; text columns as fixed-width unicode)."""
    from ..io import save_npz

    def column(c):
        if pd.api.types.is_numeric_dtype(df[c]) or pd.api.types.is_bool_dtype(df[c]):
            return df[c].to_numpy()
        return np.array([str(x) for x in df[c]], dtype=str)

    arrays = {c: column(c) for c in df.columns}
    save_npz(path, **arrays)


def load_frames(paths) -> pd.DataFrame:
    """Concatenate tables written by :func:`save_frame`."""
    from ..io import load_npz

    return pd.concat([pd.DataFrame(load_npz(p)) for p in paths], ignore_index=True)


def fig2_rmse(estimates: pd.DataFrame) -> pd.DataFrame:
    """RMSE over repeats per (n_samples, method) against the exact log Z."""
    return rmse_table(estimates, ["n_samples", "method"], "exact")


def fig3_summary(estimates: pd.DataFrame, truth: pd.DataFrame) -> pd.DataFrame:
    """Mean, sd, bias and RMSE per (model, method, sweeps) against each model's reference value."""
    ref = truth[truth["method"] == "truth"].set_index("model")["estimate"]
    d = estimates.copy()
    d["truth"] = d["model"].map(ref)
    out = rmse_table(d, ["model", "method", "sweeps"], "truth")
    out["sd"] = d.groupby(["model", "method", "sweeps"])["estimate"].std(ddof=1).to_numpy()
    return out


def fig4_rmse(estimates: pd.DataFrame, truth: float) -> pd.DataFrame:
    """Bootstrap RMSE per (K, method) against the reference log Z."""
    return rmse_table(estimates.dropna(subset=["estimate"]), ["K", "method"], float(truth))


def evaluate_claims(exact_check, fig1, fig2, fig3, fig4, fig5, settings: dict, profile: str) -> list:
    """The claims of shared spec section 4, evaluated from this run's tables (see the spec for wording)."""
    from ..claims import Claim, check_less, fmt

    def claim(target, text, paper_value, value, test, passed, details=""):
        return Claim(PAPER, target, text, paper_value, value, test, profile, passed, details)

    out = []
    # exact models: every estimator with a stated error is within z_max of exact
    z_max = float(settings["exact_check"]["z_max"])
    with_err = exact_check.dropna(subset=["z"])
    worst = with_err.loc[with_err["z"].abs().idxmax()]
    ti = exact_check[exact_check["z"].isna()]
    ti_err = (ti["estimate"] - ti["exact"]).abs()
    out.append(
        claim(
            "fig3", "on enumerable RBMs every estimator is within its stated error of the exact log Z", "within error",
            f"max |z| = {fmt(abs(worst['z']))} ({worst['method']}, weight scale {fmt(worst['weight_scale'], 2)})",
            f"|estimate - exact| / stderr <= {z_max} for AIS, RAISE, RTS, TS, MBAR", bool(with_err["z"].abs().max() <= z_max),
            "z per method: " + ", ".join(f"{r.method}@{r.weight_scale:g}: {r.z:+.2f}" for r in with_err.itertuples())
            + f"; TI variants state no error (max |error| {ti_err.max():.3f} nats)",
        )
    )
    # Fig. 1
    rb = fig1[fig1["variant"] == "RB"]
    conv = int(rb["converged_at"].iloc[0])
    out.append(
        claim("fig1", "with Rao-Blackwellization the stopping rule max|r_k - c_k| < 0.1/K is met within 10 iterations", "<= 10 iterations",
              "never" if conv < 0 else f"iteration {conv}", "1 <= iteration <= 10", 1 <= conv <= 10,
              f"{int(rb['iteration'].max())} iterations run")
    )
    kmax = rb["k"].max()
    final = rb[(rb["stage"] == "final") & (rb["k"] == kmax)].iloc[0]
    init_rows = rb[(rb["stage"] == "initial") & (rb["k"] == kmax)].sort_values("iteration")
    err = abs(final["log_zhat"] - final["exact"])
    out.append(
        claim("fig1", "final log Z_K within 0.05 nats of exact", "< 0.05 nats", f"{fmt(err)} nats", "|log Z_K(RTS, final run) - exact| < 0.05",
              check_less(err, 0.05),
              f"final long run: {final['log_zhat']:.4f}, exact {final['exact']:.4f}; errors after the initial iterations "
              + ", ".join(f"{e:+.3f}" for e in (init_rows["log_zhat"] - init_rows["exact"])))
    )
    # Fig. 2
    smin, smax = fig2["n_samples"].min(), fig2["n_samples"].max()
    r_lo = fig2[fig2["n_samples"] == smin].set_index("method")["rmse"]
    r_hi = fig2[fig2["n_samples"] == smax].set_index("method")["rmse"]
    dec = {m: bool(r_hi[m] < r_lo[m]) for m in r_lo.index}
    out.append(
        claim("fig2", "all estimators converge (RMSE decreasing in samples)", "all decrease",
              f"{sum(dec.values())}/{len(dec)} decrease", f"RMSE at {smax} < RMSE at {smin} samples for every method", all(dec.values()),
              ", ".join(f"{m}: {r_lo[m]:.3f} -> {r_hi[m]:.3f}" for m in r_lo.index))
    )
    ratio = r_hi["RTS"] / r_hi["MBAR"]
    out.append(
        claim("fig2", "RTS RMSE within a factor 2 of MBAR at the largest sample count", "ratio <= 2", fmt(ratio), "RMSE_RTS / RMSE_MBAR <= 2",
              bool(ratio <= 2.0), f"RTS {r_hi['RTS']:.4f}, MBAR {r_hi['MBAR']:.4f} at {smax} samples")
    )
    # Fig. 3
    for model, sub in fig3.groupby("model", sort=False):
        b0 = sub["sweeps"].min()
        s0 = sub[sub["sweeps"] == b0].set_index("method")
        out.append(
            claim("fig3", f"RBM {model}: RTS RMSE < AIS RMSE at the smallest matched budget", "RTS < AIS",
                  f"RTS {fmt(s0.loc['RTS', 'rmse'])}, AIS {fmt(s0.loc['AIS', 'rmse'])}", f"RMSE_RTS < RMSE_AIS at {b0} sweeps",
                  check_less(s0.loc["RTS", "rmse"], s0.loc["AIS", "rmse"]), f"{int(s0.loc['RTS', 'n'])} repeats; truth {s0['truth'].iloc[0]:.3f}")
        )
        a = sub[sub["method"] == "AIS"].set_index("sweeps")
        r = sub[sub["method"] == "RAISE"].set_index("sweeps")
        ok = bool(np.all(a["bias"] < 0) and np.all(r["bias"] > 0))
        out.append(
            claim("fig3", f"RBM {model}: mean AIS below truth and mean RAISE above truth (the sandwich)", "AIS < truth < RAISE",
                  "AIS bias " + fmt(list(a["bias"])) + "; RAISE bias " + fmt(list(r["bias"])), "at every budget", ok,
                  f"budgets {list(a.index)}; the truth is itself an estimate (long AIS + long RTS)")
        )
    # Fig. 4
    rts = fig4[fig4["method"] == "RTS"].set_index("K")["rmse"]
    ratio4 = rts.loc[rts.index.max()] / rts.min()
    out.append(
        claim("fig4", "RTS RMSE at the largest K within 1.5x of its value at the best K", "<= 1.5", fmt(ratio4),
              "RMSE(K_max) / min_K RMSE <= 1.5", bool(ratio4 <= 1.5), "RTS RMSE by K: " + ", ".join(f"{k}: {v:.3f}" for k, v in rts.items()))
    )
    tif = fig4[fig4["method"] == "TI"].set_index("K")["rmse"]
    out.append(
        claim("fig4", "TI error grows as K shrinks", "grows", f"K={tif.index.min()}: {fmt(tif.loc[tif.index.min()])}, K={tif.index.max()}: {fmt(tif.loc[tif.index.max()])}",
              "RMSE_TI(K_min) > RMSE_TI(K_max)", bool(tif.loc[tif.index.min()] > tif.loc[tif.index.max()]),
              "TI RMSE by K: " + ", ".join(f"{k}: {v:.3f}" for k, v in tif.items()))
    )
    # Fig. 5
    ck = fig5.dropna(subset=["train_ais"])
    gap = np.abs(ck["train_rts"] - ck["train_ais"])
    out.append(
        claim("fig5", "RTS-tracked log-likelihood within 1 nat of the AIS checkpoint at every checkpoint", "< 1 nat",
              f"max gap {fmt(gap.max())} nats", "max over checkpoints |LL_RTS - LL_AIS| < 1", bool(gap.max() < 1.0),
              f"{len(ck)} checkpoints; train and validation gaps are equal (both are log Z_AIS - log Z_RTS)")
    )
    return out
