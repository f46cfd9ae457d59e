"""Fig. 6: merge the DRBM shards, tabulate and plot training and test errors."""

import numpy as np

from bmrep.io import load_npz, write_csv
from bmrep.papers.yokoyama2019.plots import plot_drbm
from bmrep.papers.yokoyama2019.summaries import (
    drbm_table,
    final_epoch_table,
    merge_shards,
)
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption, configured

log, cfg = setup_job(snakemake)  # noqa: F821
arrays = merge_shards([load_npz(p) for p in snakemake.input])  # noqa: F821
if not np.array_equal(arrays["experiments"], np.arange(cfg["n_experiments"])):
    raise ValueError(f"DRBM shards do not cover experiments 0..{cfg['n_experiments'] - 1} exactly once")
table = drbm_table(arrays)
write_csv(snakemake.output.csv, table)  # noqa: F821
write_csv(snakemake.output.final, final_epoch_table(arrays, ("train_error", "test_error")))  # noqa: F821
plot_drbm(
    table,
    snakemake.output.png,  # noqa: F821
    caption(
        snakemake.params.profile,
        **configured(cfg, "n_experiments", "epochs"),
        optimiser=f"AdaMax step {cfg['adamax_lr']} (our choice), minibatch {cfg['batch_size']}",
        model=f"|H|={cfg['n_hidden']}, N={cfg['n_train']} random training images per experiment",
        test=f"{cfg['n_test'] or 10000} MNIST test images + N(0, {cfg['noise_sigma']}^2) noise, clipped",
    ),
)
