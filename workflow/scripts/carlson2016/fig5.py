"""Fig. 5: train the dna RBM with tempered persistent chains and a running RTS estimate; AIS checkpoints."""

import numpy as np

from bmrep.io import load_npz, save_model, write_csv
from bmrep.papers.carlson2016.fig5 import fig5_track_training
from bmrep.papers.carlson2016.plots import plot_fig5
from bmrep.pipeline.runtime import setup_job, training_checkpoint
from bmrep.plotting.style import caption, configured
from bmrep.seeds import rng

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
X = load_npz(sm.input.data)["X_train"].astype(np.float64)
perm = rng(int(sm.params.seed), "carlson2016", "fig5", "split").permutation(len(X))
n_valid = int(round(cfg["validation_fraction"] * len(X)))
checkpoint = training_checkpoint(sm, log)
rbm, df, meta = fig5_track_training(X[perm[n_valid:]], X[perm[:n_valid]], cfg, int(sm.params.seed), log, checkpoint)
write_csv(sm.output.csv, df)
save_model(sm.output.model, rbm.params(), meta)
plot_fig5(
    df,
    sm.output.png,
    caption(
        sm.params.profile,
        **configured(cfg, "n_updates", "n_chains", "K", "sweeps_per_update", "alpha"),
        AIS=f"{cfg['ais_replicates']} replicates of {cfg['ais_runs']} runs x {cfg['ais_betas']} betas",
        optimizer="Adam (for RMSspectral)",
    ),
)
