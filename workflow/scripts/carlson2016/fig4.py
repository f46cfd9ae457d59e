"""Fig. 4: bootstrap RMSE vs number of temperatures (aggregate)."""

import pandas as pd

from bmrep.experiments.carlson2016.shards import concat_frames
from bmrep.experiments.carlson2016.summaries import fig4_rmse
from bmrep.io import load_npz, write_csv
from bmrep.plotting.carlson2016 import plot_fig4
from bmrep.plotting.style import caption
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
est = concat_frames(load_npz(p) for p in sm.input.shards)
truth = pd.read_csv(sm.input.truth).set_index("method").loc["truth", "estimate"]
rmse = fig4_rmse(est, truth)
log.info("\n%s", rmse.to_string())
write_csv(sm.output.csv, rmse)
plot_fig4(
    rmse,
    sm.output.png,
    caption(
        sm.params.profile,
        model=f"784x{cfg['n_hidden']}",
        bootstraps=cfg["n_bootstrap"],
        mbar_bootstraps=cfg["n_bootstrap_mbar"],
        subset=cfg["subset_size"],
        run=f"{cfg['n_chains']} chains x {cfg['n_sweeps']} sweeps",
    ),
)
