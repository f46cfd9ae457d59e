"""Time per RBM sweep of the compiled operators against their matrix products
and scikit-learn's ``BernoulliRBM.gibbs`` on the same model, in the same run.

Run: ``.venv/bin/python benchmarks/bench_sweeps.py [--quick]``
Writes ``benchmarks/out/sweeps.csv`` and prints a table. Single thread (BLAS
and kernel); each number is the median over many repeats of a timed block.
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
from bmrep.sampling import ChainStreams, FlipTheState, Gibbs
from bmrep.sampling import _kernels

SIZES = [(784, 500, 100), (784, 10, 100), (16, 16, 30)]
DTYPES = [np.float64, np.float32]
OUT = Path(__file__).resolve().parent / "out" / "sweeps.csv"


def per_call(fn, target_block_s: float, repeats: int) -> float:
    """Median over ``repeats`` blocks of the mean time of one call of ``fn``."""
    fn()
    t0 = time.thread_time()
    fn()
    one = max(time.thread_time() - t0, 1e-7)
    number = max(1, int(target_block_s / one))
    times = []
    for _ in range(repeats):
        t0 = time.thread_time()
        for _ in range(number):
            fn()
        times.append((time.thread_time() - t0) / number)
    return float(np.median(times))


def bench_size(n_visible, n_hidden, n_chains, dtype, block_s, repeats):
    rng = np.random.default_rng(0)
    rbm = RBM(rng.normal(0, 0.1, (n_visible, n_hidden)), rng.normal(0, 0.1, n_visible), rng.normal(0, 0.1, n_hidden))
    r = rbm.astype(dtype)
    streams = ChainStreams.from_seed(0, "bench", n_chains=n_chains)
    v0 = streams.bernoulli(0.5, n_visible, dtype)
    h0 = np.zeros((n_chains, n_hidden), dtype)
    fh, fv = np.empty_like(h0), np.empty_like(v0)
    rows = []

    def add(what, seconds):
        rows.append(dict(size=f"{n_visible}x{n_hidden}", chains=n_chains, dtype=np.dtype(dtype).name, what=what, seconds=seconds))

    # (a) the two products alone: numpy @ (numpy's OpenBLAS) and the kernel's own ?gemm calls (scipy's OpenBLAS)
    v, h = v0.copy(), h0.copy()
    Gibbs().sweep(r, v, h, streams)
    WT = r.W.T

    def numpy_products():
        np.matmul(v, r.W, out=fh)
        np.matmul(h, WT, out=fv)

    add("products_numpy", per_call(numpy_products, block_s, repeats))
    add("products_cython_blas", per_call(lambda: _kernels.rbm_products(r.W, v, h, fh, fv, 1), block_s, repeats))

    # ours: one sweep per Python call, and 100 sweeps per call (amortised)
    for op in (Gibbs(), FlipTheState()):
        v, h = v0.copy(), h0.copy()
        add(f"{op.name}_sweep", per_call(lambda: op.sweep(r, v, h, streams), block_s, repeats))
        add(f"{op.name}_sweep_x100", per_call(lambda: op.sweep(r, v, h, streams, n_sweeps=100), block_s, max(5, repeats // 3)) / 100)

    # (b) scikit-learn's BernoulliRBM.gibbs on the same model
    sk = BernoulliRBM(n_components=n_hidden, random_state=0)
    sk.components_ = np.ascontiguousarray(r.W.T)
    sk.intercept_hidden_ = r.c.copy()
    sk.intercept_visible_ = r.b.copy()
    sk.random_state_ = np.random.RandomState(0)
    vs = v0.copy()
    add("sklearn_gibbs", per_call(lambda: sk.gibbs(vs), block_s, repeats))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repeats (noisier)")
    args = ap.parse_args()
    block_s, repeats = (0.02, 7) if args.quick else (0.05, 31)
    rows = []
    with threadpool_limits(limits=1):
        for n_visible, n_hidden, n_chains in SIZES:
            for dtype in DTYPES:
                rows += bench_size(n_visible, n_hidden, n_chains, dtype, block_s, repeats)
    long = pd.DataFrame(rows)
    wide = long.pivot_table(index=["size", "chains", "dtype"], columns="what", values="seconds", sort=False)
    wide = wide.reset_index()
    wide["G/products"] = wide["G_sweep"] / wide["products_numpy"]
    wide["G/products_cython_blas"] = wide["G_sweep"] / wide["products_cython_blas"]
    wide["sklearn/G"] = wide["sklearn_gibbs"] / wide["G_sweep"]
    wide["sklearn/products"] = wide["sklearn_gibbs"] / wide["products_numpy"]
    wide["T/G"] = wide["T_sweep"] / wide["G_sweep"]
    wide["T/G_x100"] = wide["T_sweep_x100"] / wide["G_sweep_x100"]
    OUT.parent.mkdir(parents=True, exist_ok=True)
    tmp = OUT.with_suffix(".csv.tmp")
    wide.to_csv(tmp, index=False)
    tmp.replace(OUT)

    us = lambda s: f"{s * 1e6:9.1f}"  # noqa: E731
    print(f"# {platform.node()} {platform.processor() or platform.machine()}, single thread, median of {repeats} blocks")
    print(f"{'size':>8} {'ch':>4} {'dtype':>7} | {'prod_np':>9} {'prod_cb':>9} {'G':>9} {'T':>9} {'G_x100':>9} {'T_x100':>9} {'sklearn':>9} | "
          f"{'G/prod':>6} {'skl/G':>6} {'T/G':>5} {'T/G100':>6}   (times in us per sweep)")
    for _, w in wide.iterrows():
        print(f"{w['size']:>8} {w['chains']:>4} {w['dtype']:>7} | {us(w['products_numpy'])} {us(w['products_cython_blas'])} "
              f"{us(w['G_sweep'])} {us(w['T_sweep'])} {us(w['G_sweep_x100'])} {us(w['T_sweep_x100'])} {us(w['sklearn_gibbs'])} | "
              f"{w['G/products']:6.3f} {w['sklearn/G']:6.2f} {w['T/G']:5.3f} {w['T/G_x100']:6.3f}")
    big = wide[(wide["size"] == "784x500") & (wide["dtype"] == "float64")].iloc[0]
    small = wide[wide["size"] != "784x500"]
    print("targets: 784x500 float64 G/products <= 1.15:", f"{big['G/products']:.3f}",
          "| small sizes sklearn/G >= 4:", ", ".join(f"{r['size']} {r['dtype']} {r['sklearn/G']:.1f}" for _, r in small.iterrows()),
          "| T/G <= 1.05: max", f"{wide['T/G'].max():.3f}")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
