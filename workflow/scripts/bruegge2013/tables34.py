"""Table 3 (class changes in 10000-step chains) or Table 4 (steps to the first class change)."""

import numpy as np

from bmrep.experiments.bruegge2013 import table3, table4
from bmrep.io import load_npz, write_csv
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
runs = {}
for bench, path in zip(snakemake.params.benches, snakemake.input):  # noqa: F821
    d = load_npz(path)
    prev = runs.setdefault(bench, {k: [] for k in d})
    for k, v in d.items():
        prev[k].append(v)
runs = {b: {k: np.concatenate(v) for k, v in d.items()} for b, d in runs.items()}
if snakemake.params.table == "table3":  # noqa: F821
    write_csv(snakemake.output[0], table3(runs))  # noqa: F821
else:
    write_csv(snakemake.output[0], table4(runs, cfg["classes"]["max_steps"]))  # noqa: F821
