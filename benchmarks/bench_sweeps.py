"""Time per RBM sweep of the compiled operators against their matrix products and scikit-learn's.

The reference is ``BernoulliRBM.gibbs`` on the same model, in the same run.

Run: ``.venv/bin/python benchmarks/bench_sweeps.py [--quick]``
Writes ``benchmarks/out/sweeps.csv`` and prints a table. Single thread (BLAS
and kernel), thread CPU time; the candidates are timed in interleaved blocks
and each ratio is the median of the per-block ratios.
See ``benchmarks/README.md`` for the targets and the last recorded numbers.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.neural_network import BernoulliRBM
from threadpoolctl import threadpool_limits

from bmrep.models.rbm import RBM
from bmrep.pipeline.runtime import keep_freed_memory
from bmrep.sampling import ChainStreams, FlipTheState, Gibbs, _kernels

# Measure under the malloc settings every pipeline job runs with (bmrep.pipeline.runtime.setup_job):
# without them each fresh 0.1-1 MB numpy temporary faults its pages in again, which
# made a float64 AIS step look 1.6x its products instead of the jobs' 1.3x.
keep_freed_memory()

SIZES = [(784, 500, 100), (784, 10, 100), (16, 16, 30)]
DTYPES = [np.float64, np.float32]
OUT = Path(__file__).resolve().parent / "out" / "sweeps.csv"


def interleaved(fns: dict, target_block_s: float, repeats: int) -> dict:
    """Per-call times of several functions, timed in alternating blocks.

    Each repeat times one block (about ``target_block_s``) of every function
    in turn, so all of them see the same machine state; returns, per name,
    the array of per-call times over the repeats.
    """
    number = {}
    for name, fn in fns.items():
        fn()
        t0 = time.thread_time()
        fn()
        one = max(time.thread_time() - t0, 1e-7)
        number[name] = max(1, int(target_block_s / one))
    times = {name: [] for name in fns}
    for _ in range(repeats):
        for name, fn in fns.items():
            n = number[name]
            t0 = time.thread_time()
            for _ in range(n):
                fn()
            times[name].append((time.thread_time() - t0) / n)
    return {k: np.array(v) for k, v in times.items()}


def bench_size(n_visible, n_hidden, n_chains, dtype, block_s, repeats):
    rng = np.random.default_rng(0)
    rbm = RBM(rng.normal(0, 0.1, (n_visible, n_hidden)), rng.normal(0, 0.1, n_visible), rng.normal(0, 0.1, n_hidden))
    r = rbm.astype(dtype)
    streams = ChainStreams.from_seed(0, "bench", n_chains=n_chains)
    v0 = streams.bernoulli(0.5, n_visible, dtype)
    h0 = np.zeros((n_chains, n_hidden), dtype)
    fh, fv = np.empty_like(h0), np.empty_like(v0)
    v, h = v0.copy(), h0.copy()
    Gibbs().sweep(r, v, h, streams)
    WT = r.W.T
    vg, hg, vt, ht = v.copy(), h.copy(), v.copy(), h.copy()
    G, T = Gibbs(), FlipTheState()

    def numpy_products():
        np.matmul(v, r.W, out=fh)
        np.matmul(h, WT, out=fv)

    sk = BernoulliRBM(n_components=n_hidden, random_state=0)
    sk.components_ = np.ascontiguousarray(r.W.T)
    sk.intercept_hidden_ = r.c.copy()
    sk.intercept_visible_ = r.b.copy()
    sk.random_state_ = np.random.RandomState(0)
    vs = v0.copy()

    fns = {
        # (a) the two products alone: numpy @ and the kernel's own ?gemm calls (scipy's OpenBLAS)
        "products_numpy": numpy_products,
        "products_cython_blas": lambda: _kernels.rbm_products(r.W, v, h, fh, fv, 1),
        # ours: one sweep per Python call
        "G_sweep": lambda: G.sweep(r, vg, hg, streams),
        "T_sweep": lambda: T.sweep(r, vt, ht, streams),
        # (b) scikit-learn's BernoulliRBM.gibbs on the same model
        "sklearn_gibbs": lambda: sk.gibbs(vs),
    }
    t = interleaved(fns, block_s, repeats)
    # 100 sweeps per call (Python overhead amortised), also interleaved
    t100 = interleaved(
        {
            "G_sweep_x100": lambda: G.sweep(r, vg, hg, streams, n_sweeps=100),
            "T_sweep_x100": lambda: T.sweep(r, vt, ht, streams, n_sweeps=100),
        },
        block_s,
        max(5, repeats // 3),
    )
    row = dict(size=f"{n_visible}x{n_hidden}", chains=n_chains, dtype=np.dtype(dtype).name)
    row.update({k: float(np.median(x)) for k, x in t.items()})
    row.update({k: float(np.median(x)) / 100 for k, x in t100.items()})
    # ratios: median over repeats of the per-repeat ratio (paired blocks)
    row["G/products"] = float(np.median(t["G_sweep"] / t["products_numpy"]))
    row["G/products_cython_blas"] = float(np.median(t["G_sweep"] / t["products_cython_blas"]))
    row["sklearn/G"] = float(np.median(t["sklearn_gibbs"] / t["G_sweep"]))
    row["sklearn/products"] = float(np.median(t["sklearn_gibbs"] / t["products_numpy"]))
    row["T/G"] = float(np.median(t["T_sweep"] / t["G_sweep"]))
    row["T/G_x100"] = float(np.median(t100["T_sweep_x100"] / t100["G_sweep_x100"]))
    row["G/products_q25"], row["G/products_q75"] = (
        float(q) for q in np.quantile(t["G_sweep"] / t["products_numpy"], [0.25, 0.75])
    )
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats (noisier)")
    args = ap.parse_args()
    block_s, repeats = (0.02, 7) if args.quick else (0.05, 31)
    rows = []
    with threadpool_limits(limits=1):
        for n_visible, n_hidden, n_chains in SIZES:
            for dtype in DTYPES:
                rows.append(bench_size(n_visible, n_hidden, n_chains, dtype, block_s, repeats))
    wide = pd.DataFrame(rows)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    tmp = OUT.with_suffix(".csv.tmp")
    wide.to_csv(tmp, index=False)
    tmp.replace(OUT)

    us = lambda s: f"{s * 1e6:9.1f}"  # noqa: E731
    print(
        f"# {platform.node()} {platform.processor() or platform.machine()}, single thread, thread CPU time, "
        f"median of {repeats} interleaved blocks; ratios are medians of per-block ratios"
    )
    print(
        f"{'size':>8} {'ch':>4} {'dtype':>7} | {'prod_np':>9} {'prod_cb':>9} {'G':>9} {'T':>9} "
        f"{'G_x100':>9} {'T_x100':>9} {'sklearn':>9} | "
        f"{'G/prod':>6} {'skl/G':>6} {'T/G':>5} {'T/G100':>6}   (times in us per sweep)"
    )
    for _, w in wide.iterrows():
        print(
            f"{w['size']:>8} {w['chains']:>4} {w['dtype']:>7} | "
            f"{us(w['products_numpy'])} {us(w['products_cython_blas'])} "
            f"{us(w['G_sweep'])} {us(w['T_sweep'])} {us(w['G_sweep_x100'])} {us(w['T_sweep_x100'])} "
            f"{us(w['sklearn_gibbs'])} | "
            f"{w['G/products']:6.3f} {w['sklearn/G']:6.2f} {w['T/G']:5.3f} {w['T/G_x100']:6.3f}"
        )
    big = wide[(wide["size"] == "784x500") & (wide["dtype"] == "float64")].iloc[0]
    small = wide[wide["size"] != "784x500"]
    print(
        "targets (issue 21): 784x500 float64 G/products <= 1.05:",
        f"{big['G/products']:.3f}",
        f"(quartiles {big['G/products_q25']:.3f}-{big['G/products_q75']:.3f})",
        "| small sizes sklearn/G >= 5 (784x10 required):",
        ", ".join(f"{r['size']} {r['dtype']} {r['sklearn/G']:.1f}" for _, r in small.iterrows()),
        "| T/G <= 1.05: max",
        f"{wide['T/G'].max():.3f}",
    )
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
