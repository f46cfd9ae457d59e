"""The DBM AIS step of salakhutdinov2010's evaluation against the time of its matrix products alone.

Most of the default profile's salakhutdinov2010 core-minutes are AIS steps
(Salakhutdinov & Hinton 2009; Salakhutdinov 2010, section 8: log Z of the
DBM over {v, h2} with h1 summed out). One step is a Gibbs sweep h1 | (v, h2),
then v, h2 | h1, plus the weight increment, which reuses the sweep's product
``v W1 + h2 W2^T``: four dense products in all. Two shapes, as the pipeline
runs them (:func:`bmrep.papers.salakhutdinov2010.evaluation.ais_replicates`,
float32 chains, float64 log weights, replicates annealed as blocks of one set
of chains):

- 784-500-1000, 5 replicates x 50 runs: a Table 1 model's final log Z
  (``salakhutdinov2010_evaluate``); its products bound the step from below.
- 784-12-12, 20 replicates x 50 runs: a shard of the AIS calibration
  (``salakhutdinov2010_exact_check_shard``); its products are small, so the
  rest of the step (the unit updates, ``log f`` per block) is what it costs.

Run: ``.venv/bin/python benchmarks/bench_dbm_ais.py [--quick]``
Writes ``benchmarks/out/dbm_ais.csv``. Single BLAS thread, thread CPU time.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from _timing import best_of, write_table
from threadpoolctl import threadpool_limits

from bmrep.estimators.dbm_ais import AISSettings
from bmrep.models.dbm import DBM
from bmrep.papers.salakhutdinov2010.evaluation import ais_replicates
from bmrep.pipeline.config_check import validated_part
from bmrep.pipeline.runtime import keep_freed_memory

keep_freed_memory()  # the malloc settings of every pipeline job (bmrep.pipeline.runtime.setup_job)

OUT = Path(__file__).resolve().parent / "out" / "dbm_ais.csv"
SCHEMA = Path(__file__).resolve().parents[1] / "workflow" / "schemas" / "salakhutdinov2010.schema.yaml"
# (hidden layers, replicates annealed together): the evaluation's and a calibration shard's
SHAPES = [((500, 1000), 5), ((12, 12), 20)]
N_RUNS = 50


def step_times(hidden, n_replicates: int, n_steps: int, repeats: int, rng) -> dict[str, float]:
    """Seconds per AIS step of the pipeline's AIS and of its four products alone."""
    F1, F2 = hidden
    dbm = DBM(
        rng.normal(0, 0.05, (784, F1)), rng.normal(0, 0.05, (F1, F2)), np.full(784, -1.0), np.zeros(F1), np.zeros(F2)
    )
    cfg = {"n_betas": n_steps + 1, "n_runs": N_RUNS, "dtype": "float32", "schedule": "linear"}
    settings = AISSettings.from_config(validated_part(cfg, SCHEMA, "$defs.ais"), "v_h2")  # the schema's defaults in
    keys = [("bench", j) for j in range(n_replicates)]
    base = np.full(784, -1.0)
    d = dbm.astype(np.float32)
    n = n_replicates * N_RUNS
    v, h1, h2 = ((rng.random((n, k)) < 0.5).astype(np.float32) for k in (784, F1, F2))

    def products():
        for _ in range(n_steps):
            v @ d.W1 + h2 @ d.W2.T + d.c1
            h1 @ d.W1.T + d.b
            h1 @ d.W2 + d.c2

    def ais():
        ais_replicates(dbm, settings, base, 0, keys)

    return {"matrix products alone": best_of(products, repeats) / n_steps, "AIS step": best_of(ais, repeats) / n_steps}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    threadpool_limits(1)
    n_steps = 50 if args.quick else 300
    repeats = 2 if args.quick else 3
    rng = np.random.default_rng(0)
    rows = []
    for hidden, n_rep in SHAPES:
        times = step_times(hidden, n_rep, n_steps, repeats, rng)
        size = f"784-{hidden[0]}-{hidden[1]}"
        chains = f"{n_rep} x {N_RUNS} chains"
        mm = times["matrix products alone"]
        rows += [
            {"size": size, "chains": chains, "what": w, "ms_per_step": 1e3 * t, "ratio_to_products": t / mm}
            for w, t in times.items()
        ]
    write_table(rows, OUT)


if __name__ == "__main__":
    main()
