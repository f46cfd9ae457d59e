"""Table 1: median maximum log-likelihood, G vs T, Wilcoxon signed-rank test."""

import pandas as pd

from bmrep.io import load_npz, write_csv
from bmrep.papers.bruegge2013.summaries import table1
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
rows = []
for (bench, alg, op, lr), path in zip(snakemake.params.settings, snakemake.input, strict=True):  # noqa: F821
    d = load_npz(path)
    for r, c in zip(d["repeats"], d["curves"], strict=True):
        rows.append(
            {
                "benchmark": bench,
                "algorithm": alg,
                "lr": float(lr),
                "operator": op,
                "repeat": int(r),
                "max_ll": float(c.max()),
                "final_ll": float(c[-1]),
                "n_updates": int(d["updates"][-1]),
            }
        )
runs = pd.DataFrame(rows)
write_csv(snakemake.output.runs, runs)  # noqa: F821
write_csv(snakemake.output.table, table1(runs))  # noqa: F821
