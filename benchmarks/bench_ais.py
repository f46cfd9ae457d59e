"""AIS on a 784-500 RBM with 100 chains against the time of its matrix products alone.

One AIS step (Carlson et al. 2016 sec. 3.2; Salakhutdinov & Murray 2008) is one
Gibbs sweep at the step's beta plus the weight increment log f_{k}(v) -
log f_{k-1}(v); with the cached hidden field it needs exactly the two dense
products of a sweep (``v @ W`` and ``h @ W.T``). Rows: per-step time of
:func:`bmrep.estimators.ais.ais_log_partition`, of one simulated-tempering
sweep with the RTS statistics (``bmrep.estimators.rts.run_simulated_tempering``), and of
the two products alone, for float64 and float32, with their ratios.

Run: ``.venv/bin/python benchmarks/bench_ais.py [--quick]``
Writes ``benchmarks/out/ais.csv``. Single BLAS thread, thread CPU time.
Numbers on a shared machine still vary with its load (shared caches); compare
rows taken in the same run.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from _timing import best_of, write_table
from threadpoolctl import threadpool_limits

from bmrep.estimators.ais import ais_log_partition
from bmrep.estimators.rts import TemperingStats, run_simulated_tempering, uniform_log_prior
from bmrep.models.rbm import RBM
from bmrep.pipeline.runtime import keep_freed_memory
from bmrep.sampling.ladders import linear_betas
from bmrep.sampling.simulated_tempering import rbm_step
from bmrep.sampling.streams import ChainStreams
from bmrep.sampling.tempered_rbm import TemperedRBMChains

# Measure under the malloc settings every pipeline job runs with (bmrep.pipeline.runtime.setup_job):
# without them each fresh 0.1-1 MB numpy temporary faults its pages in again, which
# made a float64 AIS step look 1.6x its products instead of the jobs' 1.3x.
keep_freed_memory()

OUT = Path(__file__).resolve().parent / "out" / "ais.csv"


def step_times(dt, n_steps: int, repeats: int, rng: np.random.Generator) -> dict[str, float]:
    """Seconds per step of the two products, of an AIS step and of an ST sweep, at dtype ``dt``."""
    rbm = RBM.random(784, 500, rng, 0.05).astype(dt)
    n = 100
    betas = linear_betas(n_steps + 2)  # n_steps sweeps
    v = (rng.random((n, 784)) < 0.5).astype(dt)
    h = (rng.random((n, 500)) < 0.5).astype(dt)

    def products():  # the bare products are what is timed
        for _ in range(n_steps):
            v @ rbm.W
            h @ rbm.W.T

    def ais():
        ais_log_partition(rbm, n, betas, ChainStreams.from_seed(0, "bench-ais", n_chains=n), dtype=dt)

    K = 100
    st = TemperedRBMChains.from_base(rbm, n, ChainStreams.from_seed(0, "bench-st", n_chains=n), dtype=dt)
    trng = np.random.default_rng(1)
    lp = uniform_log_prior(K)
    lz = np.zeros(K)

    def st_sweeps():
        run_simulated_tempering(
            st,
            trng.integers(0, K, n),
            step=rbm_step,
            betas=linear_betas(K),
            log_prior=lp,
            log_zhat=lz,
            n_sweeps=n_steps,
            rng=trng,
            stats=TemperingStats(K, n),
        )

    return {
        "matrix products alone": best_of(products, repeats) / n_steps,
        "AIS step": best_of(ais, repeats) / n_steps,
        "simulated tempering sweep (RTS)": best_of(st_sweeps, repeats) / n_steps,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    threadpool_limits(1)
    n_steps = 50 if args.quick else 200
    repeats = 3 if args.quick else 5
    rng = np.random.default_rng(0)
    rows = []
    for dt in (np.float64, np.float32):
        times = step_times(dt, n_steps, repeats, rng)
        t_mm = times["matrix products alone"]
        rows += [
            {"dtype": np.dtype(dt).name, "what": what, "ms_per_step": 1e3 * t, "ratio_to_products": t / t_mm}
            for what, t in times.items()
        ]
    write_table(rows, OUT)


if __name__ == "__main__":
    main()
