"""Throughput of the mean-field bound solver (Saul et al. 1996) on an 8x24x64 network.

Patterns per second of the compiled solver (``bmrep.meanfield.sbn_bound.solve_bound``)
beside a plain numpy implementation of the same iteration
(``solve_bound(..., engine="numpy")``: same xi Newton steps and asynchronous eq. (25)
sweeps, vectorised over patterns), in one run, on the same patterns, with
the ratio. CPU time (``time.process_time``) is reported next to wall time
because the machine may be shared.

    .venv/bin/python benchmarks/bench_sbn_bound.py [--patterns 2000] [--numpy-patterns 200]
"""

import argparse
import time

import numpy as np

from bmrep.meanfield.sbn_bound import solve_bound
from bmrep.models.sbn import random_layered_network
from bmrep.pipeline.runtime import keep_freed_memory
from bmrep.seeds import rng

# Measure under the malloc settings every pipeline job runs with (bmrep.pipeline.runtime.setup_job):
# without them each fresh 0.1-1 MB numpy temporary faults its pages in again, which
# made a float64 AIS step look 1.6x its products instead of the jobs' 1.3x.
keep_freed_memory()


def _timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w, time.process_time() - c


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--patterns", type=int, default=2000)
    ap.add_argument("--numpy-patterns", type=int, default=200)
    ap.add_argument("--tol", type=float, default=1e-8)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()

    sizes = (8, 24, 64)
    net = random_layered_network(sizes, rng(0, "bench", "sbn"), -0.5, 0.5)
    vis = np.zeros(sum(sizes), dtype=bool)
    vis[-64:] = True
    X = net.sample(args.patterns, rng(0, "bench", "sbn-data"))[:, vis]
    m = min(args.numpy_patterns, args.patterns)

    comp, cw, cc = _timed(lambda: solve_bound(net, X, vis, tol=args.tol, n_threads=args.threads))
    ref, nw, nc = _timed(lambda: solve_bound(net, X[:m], vis, tol=args.tol, engine="numpy"))
    agree = np.max(np.abs(comp.bound[:m] - ref.bound))
    print(f"network 8x24x64 ({net.n_edges} edges), tol {args.tol:g}, mean sweeps {comp.n_sweeps.mean():.2f}")
    print(
        f"compiled ({args.threads} thread(s)): {args.patterns} patterns, {args.patterns / cw:9.1f} patterns/s wall, "
        f"{args.patterns / cc:9.1f} patterns/s CPU"
    )
    print(f"numpy reference      : {m} patterns, {m / nw:9.1f} patterns/s wall, {m / nc:9.1f} patterns/s CPU")
    print(
        f"ratio compiled/numpy : {(args.patterns / cw) / (m / nw):.1f}x wall, "
        f"{(args.patterns / cc) / (m / nc):.1f}x CPU"
    )
    print(f"max |L_V compiled - L_V numpy| on shared patterns: {agree:.2e}")


if __name__ == "__main__":
    main()
