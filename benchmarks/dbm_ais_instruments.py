"""Error and cost of candidate DBM log Z instruments on enumerable DBMs (issue 64, item 1).

The measurement behind ``salakhutdinov2010.evaluation.final_ais`` of each profile (config/README.md, "The AIS
instrument").

Not a ``bench_*`` script (``make bench`` does not run it). Each candidate is the final AIS of Table 1 as
``bmrep.papers.salakhutdinov2010.evaluation.independent_replicates`` runs it (the same code Table 1 and the
calibration use): ``R`` independent replicates of ``n_runs`` runs each, on the DBM's own AIS base. What Table 1
reports is the estimate that pools ``POOL`` replicates' runs (``log mean exp`` of all their weights), so the error
that decides is that of disjoint pools of ``POOL`` replicates against the exact log Z: mean +- s.e. over the
pools (independent repeats). One replicate's error, the ESS of a replicate and of a pool, and the process CPU
seconds of one Table 1 estimate (``POOL`` replicates; one BLAS thread) are printed beside it.

    python benchmarks/dbm_ais_instruments.py OUT.csv MODEL.npz:EXACT.json [MODEL.npz:EXACT.json ...] \
        [--candidates NAME,NAME] [--replicates R] [--pool P] [--batch B]

MODEL/EXACT are ``salakhutdinov2010_exact_check_model``'s (or ``_selection_model``'s) outputs of a profile, e.g.
``results/evidence/sala_schedule/models/salakhutdinov2010/exact_check.npz`` and
``results/evidence/sala_schedule/salakhutdinov2010/exact_check/exact.json``. Rows are appended to OUT.csv as
each (model, candidate) finishes, so an interrupted measurement keeps what it measured. ``--batch B`` (B >= 1)
draws another independent batch of replicates (streams keyed by B as well); each row keeps its pools' and
replicates' errors, so ``--summary OUT.csv`` combines the batches of a (model, candidate) into one line.
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from pathlib import Path

import numpy as np
import pandas as pd
from threadpoolctl import threadpool_limits

from bmrep.estimators.ais import effective_sample_size, log_mean_exp
from bmrep.estimators.dbm_ais import AISSettings
from bmrep.io import load_npz, read_json
from bmrep.papers.salakhutdinov2010.evaluation import independent_replicates
from bmrep.papers.salakhutdinov2010.exact_check import model_from_arrays
from bmrep.pipeline.config_check import validated_part

SEED = 20261204  # the benchmark's own streams: none of a profile's estimates is reused
SCHEMA = Path(__file__).resolve().parents[1] / "workflow" / "schemas" / "salakhutdinov2010.schema.yaml"
# name -> (state, schedule, n_betas, n_runs, dtype). "vh2": AIS over {v, h2} with h1 summed out; "h1": over h1
# with v and h2 summed out (Salakhutdinov & Hinton 2009). "lin": betas uniform in [0, 1]; "pw": the
# Salakhutdinov & Murray (2008) piecewise ladder scaled to n_betas.
CANDIDATES = {
    "vh2-lin-2k-50-f32": ("v_h2", "linear", 2000, 50, "float32"),
    "vh2-lin-5k-50-f32": ("v_h2", "linear", 5000, 50, "float32"),
    "vh2-lin-10k-50-f32": ("v_h2", "linear", 10000, 50, "float32"),  # the default's and the schedule run's
    "vh2-lin-15k-50-f32": ("v_h2", "linear", 15000, 50, "float32"),
    "vh2-lin-20k-50-f32": ("v_h2", "linear", 20000, 50, "float32"),
    "vh2-lin-50k-50-f32": ("v_h2", "linear", 50000, 50, "float32"),
    "vh2-lin-100k-50-f32": ("v_h2", "linear", 100000, 50, "float32"),
    "vh2-pw-20k-50-f32": ("v_h2", "piecewise", 20000, 50, "float32"),
    "vh2-lin-20k-50-f64": ("v_h2", "linear", 20000, 50, "float64"),
    "vh2-lin-10k-100-f32": ("v_h2", "linear", 10000, 100, "float32"),
    "h1-lin-10k-50-f32": ("h1", "linear", 10000, 50, "float32"),
    "h1-lin-20k-50-f32": ("h1", "linear", 20000, 50, "float32"),
    "h1-lin-50k-50-f32": ("h1", "linear", 50000, 50, "float32"),
    "h1-lin-100k-50-f32": ("h1", "linear", 100000, 50, "float32"),
    "h1-pw-20k-50-f32": ("h1", "piecewise", 20000, 50, "float32"),
    "h1-lin-20k-50-f64": ("h1", "linear", 20000, 50, "float64"),
    "h1-lin-10k-100-f32": ("h1", "linear", 10000, 100, "float32"),
}
COLUMNS = [
    "model", "log_z_exact", "candidate", "state", "schedule", "n_betas", "n_runs", "dtype", "n_replicates",
    "pool", "n_pools", "pool_error", "pool_error_stderr", "replicate_error", "replicate_error_stderr",
    "replicate_ess_median", "pool_ess_median", "all_runs_error", "cpu_s_per_estimate", "batch", "pool_errors",
    "replicate_errors",
]  # fmt: skip


def measure(model_path: str, exact_path: str, name: str, n_replicates: int, pool: int, batch: int = 0) -> dict:
    """One candidate on one enumerable DBM: ``n_replicates`` replicates, errors of one and of pools of ``pool``.

    Batch 0 draws on the keys ``"instrument", name``; batch ``b`` >= 1 on ``"instrument", name, "batch", b``.
    """
    state, schedule, n_betas, n_runs, dtype = CANDIDATES[name]
    dbm, base = model_from_arrays(load_npz(model_path))
    exact = float(read_json(exact_path)["log_z_exact"])
    cfg = {"n_betas": n_betas, "n_runs": n_runs, "dtype": dtype, "schedule": schedule}
    ais = AISSettings.from_config(validated_part(cfg, SCHEMA, "$defs.ais"), state)  # the schema's defaults in
    t0 = time.process_time()
    keys = ("instrument", name) + (("batch", int(batch)) if batch else ())
    reps = independent_replicates(dbm, ais, base, n_replicates, SEED, *keys)
    cpu = time.process_time() - t0
    w = np.array([r.log_weights for r in reps])  # replicates x runs
    one = np.array([r.estimate for r in reps]) - exact
    n_pools = n_replicates // pool
    pools = [w[g * pool : (g + 1) * pool].ravel() for g in range(n_pools)]
    pooled = np.array([log_mean_exp(p) for p in pools]) - exact
    return {
        "model": Path(model_path).stem,
        "log_z_exact": exact,
        "candidate": name,
        "state": state,
        "schedule": schedule,
        "n_betas": n_betas,
        "n_runs": n_runs,
        "dtype": dtype,
        "n_replicates": n_replicates,
        "pool": pool,
        "n_pools": n_pools,
        "pool_error": float(pooled.mean()),
        "pool_error_stderr": float(pooled.std(ddof=1) / np.sqrt(n_pools)) if n_pools > 1 else float("nan"),
        "replicate_error": float(one.mean()),
        "replicate_error_stderr": float(one.std(ddof=1) / np.sqrt(one.size)),
        "replicate_ess_median": float(np.median([r.ess for r in reps])),
        "pool_ess_median": float(np.median([effective_sample_size(p) for p in pools])),
        "all_runs_error": float(log_mean_exp(w.ravel()) - exact),
        "cpu_s_per_estimate": cpu / n_replicates * pool,
        "batch": int(batch),
        "pool_errors": " ".join(f"{e:.4f}" for e in pooled),
        "replicate_errors": " ".join(f"{e:.4f}" for e in one),
    }


def summary(path: str) -> pd.DataFrame:
    """One line per (model, candidate): the batches of ``path`` combined (errors +- s.e. over all pools)."""
    df = pd.read_csv(path)
    rows = []
    for (model, name), g in df.groupby(["model", "candidate"], sort=False):
        pools = np.concatenate([np.asarray(str(x).split(), dtype=float) for x in g["pool_errors"]])
        one = np.concatenate([np.asarray(str(x).split(), dtype=float) for x in g["replicate_errors"]])
        rows.append(
            {
                "model": model,
                "candidate": name,
                "n_replicates": int(one.size),
                "n_pools": int(pools.size),
                "pool_error": pools.mean(),
                "pool_error_stderr": pools.std(ddof=1) / np.sqrt(pools.size),
                "replicate_error": one.mean(),
                "replicate_error_stderr": one.std(ddof=1) / np.sqrt(one.size),
                "replicate_ess_median": float(np.average(g["replicate_ess_median"], weights=g["n_replicates"])),
                "cpu_s_per_estimate": float(np.average(g["cpu_s_per_estimate"], weights=g["n_replicates"])),
            }
        )
    return pd.DataFrame(rows)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", help="CSV to append the rows to")
    ap.add_argument("models", nargs="*", help="MODEL.npz:EXACT.json of an enumerable DBM")
    ap.add_argument("--candidates", default=",".join(CANDIDATES), help="comma-separated names of CANDIDATES")
    ap.add_argument("--replicates", type=int, default=40, help="independent replicates per candidate and model")
    ap.add_argument("--pool", type=int, default=5, help="replicates pooled into one estimate (Table 1's)")
    ap.add_argument("--batch", type=int, default=0, help="an independent batch of replicates (0: the first)")
    ap.add_argument("--summary", action="store_true", help="print OUT.csv's batches combined, measure nothing")
    a = ap.parse_args(argv)
    if a.summary:
        print(summary(a.out).to_string(index=False, float_format=lambda x: f"{x:.3f}"))
        return
    names = a.candidates.split(",")
    unknown = [n for n in names if n not in CANDIDATES]
    if unknown:
        ap.error(f"unknown candidates {', '.join(unknown)}; known: {', '.join(CANDIDATES)}")
    new = not Path(a.out).exists()
    with threadpool_limits(1), open(a.out, "a", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        if new:
            writer.writeheader()
        for spec in a.models:
            model, exact = spec.split(":")
            for name in names:
                row = measure(model, exact, name, a.replicates, a.pool, a.batch)
                writer.writerow(row)
                fh.flush()
                os.fsync(fh.fileno())
                err = f"{row['pool_error']:+.3f} +- {row['pool_error_stderr']:.3f}"
                print(
                    f"{row['model']} {name}: pool of {a.pool} {err}"
                    f" (one replicate {row['replicate_error']:+.3f} +- {row['replicate_error_stderr']:.3f}, ESS "
                    f"{row['replicate_ess_median']:.1f}/{row['n_runs']}), {row['cpu_s_per_estimate']:.1f} CPU-s",
                    flush=True,
                )


if __name__ == "__main__":
    main()
