"""Time of one DBM parameter update (Salakhutdinov 2010, section 8) against its matrix products alone.

784-500-1000 DBM, minibatch 100, 5 mean-field updates, 100 particles, one
sweep per update. Reports, per update: the mean-field fixed point, the
particle moves, the gradient, the whole update of :func:`train_dbm` for
SAP, FPCD, CAST (50 slow + 50 fast chains on adaptive simulated tempering)
and Trans-SAP (10 and 20 levels, against its own products: the update's
and those of the transition's 2 x levels sweeps), and the time of exactly the same dense products done by
numpy alone (the floor for any implementation with this algorithm). Also
the cost of one AIS step (h1 summed out) per 100 runs.

Run: ``.venv/bin/python benchmarks/bench_dbm_update.py [--quick] [--dtype float32]``
Writes ``benchmarks/out/dbm_update.csv``. Single BLAS thread, thread CPU
time (wall time on a shared machine counts the waits for a core). Numbers
still vary with the machine's load; compare rows taken in the same run.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from bmrep.estimators.ais import ais_log_partition
from bmrep.learning.dbm_samplers import SamplerSettings, make_sampler
from bmrep.learning.dbm_training import train_dbm
from bmrep.models.dbm import DBM, mean_field
from bmrep.pipeline.runtime import keep_freed_memory
from bmrep.sampling import ChainStreams
from bmrep.sampling.dbm_gibbs import gibbs_sweep, random_chains

# Measure under the malloc settings every pipeline job runs with (bmrep.pipeline.runtime.setup_job):
# without them each fresh 0.1-1 MB numpy temporary faults its pages in again, which
# made a float64 AIS step look 1.6x its products instead of the jobs' 1.3x.
keep_freed_memory()

OUT = Path(__file__).resolve().parent / "out" / "dbm_update.csv"
# Trans-SAP's levels: the default profile's 10 and the paper profile's 20 (config/paper.yaml)
TT_LEVELS = (10, 20)


def timed(fn, n):
    fn()
    t0 = time.thread_time()
    for _ in range(n):
        fn()
    return (time.thread_time() - t0) / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--dtype", default="float32", choices=["float32", "float64"])
    args = ap.parse_args()
    dt = np.dtype(args.dtype)
    n = 5 if args.quick else 20
    threadpool_limits(1)
    rng = np.random.default_rng(0)
    D, F1, F2, B, M = 784, 500, 1000, 100, 100
    dbm = DBM.random(D, F1, F2, rng, 0.05).astype(dt)
    X = (rng.random((5000, D)) < 0.13).astype(dt)
    V = X[:B]
    ch = random_chains(dbm, M, rng)
    streams = ChainStreams.from_seed(0, "bench-dbm", n_chains=M)
    W1, W2 = dbm.W1, dbm.W2
    A1, A2 = np.zeros((B, F1), dt), np.zeros((B, F2), dt)
    rows = []

    def add(what, s):
        rows.append({"what": what, "dtype": dt.name, "ms_per_update": 1e3 * s})
        print(f"{what:55s} {1e3 * s:8.2f} ms")

    def products_only():
        # the dense products of one update: mean field (bottom-up init + 5 iterations),
        # one sweep (3 fields), the gradient (data and model statistics)
        V @ W1
        A2 @ W2.T
        for _ in range(5):
            A2 @ W2.T
            A1 @ W2
        ch.v @ W1 + ch.h2 @ W2.T
        ch.h1 @ W1.T
        ch.h1 @ W2
        V.T @ A1
        A1.T @ A2
        ch.v.T @ ch.h1
        ch.h1.T @ ch.h2

    add("matrix products of one update (numpy alone)", timed(products_only, n))

    def sweep_products():
        # one tempered sweep's products (forward or reverse): h1's field (two), v's and h2's
        ch.v @ W1 + ch.h2 @ W2.T
        ch.h1 @ W1.T
        ch.h1 @ W2

    # A Trans-SAP update with a tempered transition over L levels walks 2L sweeps (L up, L down) before
    # the SAP update: its own products are the update's plus 2L sweeps' (issue 42: the paper's L = 20).
    sweep_mm = timed(sweep_products, 4 * n)
    for levels in TT_LEVELS:
        tt_mm = rows[0]["ms_per_update"] * 1e-3 + 2 * levels * sweep_mm
        add(f"matrix products of one update: Trans-SAP (TT {levels} levels every 1)", tt_mm)
    add("mean field, 5 updates", timed(lambda: mean_field(dbm, V, n_iter=5), n))
    add("one Gibbs sweep of 100 chains (update_layer)", timed(lambda: gibbs_sweep(dbm, ch, streams), n))
    mu1, mu2 = mean_field(dbm, V)
    add(
        "gradient (data and model statistics)",
        timed(lambda: (V.T @ mu1, mu1.T @ mu2, ch.v.T @ ch.h1, ch.h1.T @ ch.h2), n),
    )
    for alg, kw, k in (
        ("SAP", {}, n),
        ("FPCD", {}, n),
        ("CAST", {}, n),
        *(("Trans-SAP", {"tt_levels": levels, "tt_every": 1}, max(2, n // 5)) for levels in TT_LEVELS),
        ("Trans-SAP", {"tt_levels": 10, "tt_every": 5}, n),
    ):
        d = dbm.copy()
        settings = SamplerSettings(n_chains=M, **kw)
        s = make_sampler(alg, d, ChainStreams.from_seed(0, "bench", alg, n_chains=M), rng, settings)
        t0 = time.thread_time()
        train_dbm(d, X, s, n_updates=k, rng=rng, lr=1e-4)
        label = alg + (f" (TT {kw['tt_levels']} levels every {kw['tt_every']})" if kw else "")
        add(f"whole update: {label}", (time.thread_time() - t0) / k)
    betas = np.linspace(0, 1, 52 if args.quick else 202)
    t0 = time.thread_time()
    ais_log_partition(
        dbm.astype(np.float64), 100, betas, ChainStreams.from_seed(0, "bench-ais", n_chains=100), dtype=dt
    )
    add("one AIS step, 100 runs (per beta)", (time.thread_time() - t0) / (betas.size - 1))
    df = pd.DataFrame(rows)
    OUT.parent.mkdir(exist_ok=True)
    df.to_csv(OUT, index=False)
    sap = df.loc[df.what == "whole update: SAP", "ms_per_update"].item()
    cast = df.loc[df.what == "whole update: CAST", "ms_per_update"].item()
    print(f"CAST / SAP cost per update: {cast / sap:.2f} (the paper: 'only twice as slow')")
    print(f"SAP update / its matrix products: {sap / df.ms_per_update.iloc[0]:.2f}")
    for levels in TT_LEVELS:
        label = f"Trans-SAP (TT {levels} levels every 1)"
        tt = df.loc[df.what == f"whole update: {label}", "ms_per_update"].item()
        mm = df.loc[df.what == f"matrix products of one update: {label}", "ms_per_update"].item()
        print(f"{label} update / its matrix products (2 x {levels} sweeps + the update): {tt / mm:.2f}")


if __name__ == "__main__":
    main()
