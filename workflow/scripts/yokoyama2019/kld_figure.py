"""Fig. 2 (KLD) or Fig. 3 (log-likelihood / |V|): merge the shards, tabulate and plot."""

import numpy as np
import pandas as pd

from bmrep.io import load_npz, write_csv
from bmrep.papers.yokoyama2019.plots import plot_curves_by_R
from bmrep.papers.yokoyama2019.summaries import (
    curve_table,
    final_epoch_table,
    merge_shards,
)
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
metric = snakemake.params.metric  # noqa: F821
parts = [load_npz(p) for p in snakemake.input]  # noqa: F821
tables, finals = [], []
for R in cfg["R_values"]:
    arrays = merge_shards([p for p in parts if int(p["R"]) == R])
    if not np.array_equal(arrays["experiments"], np.arange(cfg["n_experiments"])):
        raise ValueError(f"R={R}: shards do not cover experiments 0..{cfg['n_experiments'] - 1} exactly once")
    tables.append(curve_table(arrays, R, metric))
    finals.append(final_epoch_table(arrays, ("kld", "loglik"), R=R))
table = pd.concat(tables, ignore_index=True)
write_csv(snakemake.output.csv, table)  # noqa: F821
if "final" in snakemake.output.keys():  # noqa: F821
    write_csv(snakemake.output.final, pd.concat(finals, ignore_index=True))  # noqa: F821
ylabel, title = {
    "kld": ("KLD / |V| (eq. 16)", "Fig. 2: KLD between gRBM and tRBM"),
    "loglik": ("log-likelihood / |V| (eq. 10)", "Fig. 3: training log-likelihood"),
}[metric]
plot_curves_by_R(
    table,
    ylabel,
    title,
    snakemake.output.png,  # noqa: F821
    caption(
        snakemake.params.profile,
        experiments_per_R=cfg["n_experiments"],
        epochs=cfg["epochs"],  # noqa: F821
        optimiser=f"Adam step {cfg['adam_lr']} (our choice), CD-{cfg['cd_k']}, "
        f"full batch of {cfg['n_data']} exact gRBM samples",
        band="± 1 s.e.m.",
    ),
)
