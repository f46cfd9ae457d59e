"""Energy autocorrelation of single chains of trained RBMs under G and T.

Brügge et al. 2013, sec. 4.3/5.3; Table 2, Fig. 4.
"""

from __future__ import annotations

import numpy as np

from ...diagnostics.autocorr import (
    ar_autocorrelation_time,
    autocorrelation_function,
    integrated_autocorrelation_time,
)
from ...models.rbm import RBM
from ...progress import track
from ...sampling.streams import ChainStreams
from ...seeds import rng as keyed_rng
from .benchmarks import Benchmark
from .common import PAPER
from .models import stack_models
from .operators import OPERATORS


def energy_traces(rbm: RBM, op, v0: np.ndarray, n_steps: int, streams: ChainStreams, burn_in: int = 0) -> np.ndarray:
    """Energy E(v, h) after every sweep of ``n_chains`` chains, shape (n_steps, n_chains)."""
    v = np.array(v0, dtype=np.float64)
    h = np.zeros((len(v), rbm.n_hidden))
    if burn_in:
        op.sweep(rbm, v, h, streams, n_sweeps=int(burn_in))
    E = np.empty((int(n_steps), len(v)))
    for s in range(int(n_steps)):
        op.sweep(rbm, v, h, streams)
        E[s] = rbm.energy(v, h)
    return E


def autocorrelation_summary(E: np.ndarray, max_lag: int) -> dict:
    """Per chain: AR-fit tau (sec. 4.3, Thompson 2010), emcee's integrated tau, ACF up to ``max_lag``."""
    n_chains = E.shape[1]
    tau_ar = np.array([ar_autocorrelation_time(E[:, j]).tau for j in range(n_chains)])
    tau_int = np.array([integrated_autocorrelation_time(E[:, j]) for j in range(n_chains)])
    acf = np.array([autocorrelation_function(E[:, j], min(max_lag, len(E) - 1)) for j in range(n_chains)])
    return {"tau_ar": tau_ar, "tau_int": tau_int, "acf": acf}


def autocorrelation_runs(bench: Benchmark, models: list[RBM], repeats, seed: int, settings: dict) -> dict:
    """Sample each trained RBM (one per repeat) with G and with T (sec. 4.3).

    settings: ``n_steps`` (recorded sweeps per chain), ``burn_in``,
    ``n_chains`` (independent chains per RBM, started at training examples
    shared by G and T), ``max_lag`` (ACF length kept).

    Returns
    -------
    dict of arrays
        Per chain: repeat, chain, tau_ar_{G,T}, tau_int_{G,T}, acf_{G,T};
        per RBM: model_W, model_b, model_c.
    """
    out = {"repeat": [], "chain": []}
    for name in OPERATORS:
        out.update({f"tau_ar_{name}": [], f"tau_int_{name}": [], f"acf_{name}": []})
    for model, r in track(zip(models, repeats, strict=True), "RBMs sampled", total=len(models)):
        nc = int(settings["n_chains"])
        v0 = bench.X_train[
            keyed_rng(seed, PAPER, "autocorr_start", bench.name, int(r)).integers(0, len(bench.X_train), nc)
        ]
        for name, op in OPERATORS.items():
            streams = ChainStreams.from_seed(seed, PAPER, "autocorr_chains", bench.name, int(r), name, n_chains=nc)
            E = energy_traces(model, op, v0, settings["n_steps"], streams, settings["burn_in"])
            s = autocorrelation_summary(E, int(settings["max_lag"]))
            out[f"tau_ar_{name}"] += list(s["tau_ar"])
            out[f"tau_int_{name}"] += list(s["tau_int"])
            out[f"acf_{name}"] += list(s["acf"])
        out["repeat"] += [int(r)] * nc
        out["chain"] += list(range(nc))
    res = {k: np.asarray(v) for k, v in out.items()}
    res.update({f"model_{k}": v for k, v in stack_models(models, repeats).items() if k != "repeat"})
    return res
