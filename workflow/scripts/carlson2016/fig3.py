"""Fig. 3: estimator mean and RMSE vs Gibbs sweeps for RTS, AIS and RAISE (aggregate)."""

import pandas as pd

from bmrep.experiments.carlson2016.shards import concat_frames
from bmrep.experiments.carlson2016.summaries import fig3_summary
from bmrep.io import load_npz, write_csv
from bmrep.plotting.carlson2016 import plot_fig3
from bmrep.plotting.style import caption
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
est = concat_frames(load_npz(p) for p in sm.input.shards)
truth = pd.concat([pd.read_csv(p) for p in sm.input.truth], ignore_index=True)
summary = fig3_summary(est, truth)
log.info("\n%s", summary.to_string())
write_csv(sm.output.estimates, est)
write_csv(sm.output.csv, summary)
plot_fig3(
    summary,
    sm.output.png,
    caption(
        sm.params.profile,
        repeats=cfg["n_repeats"],
        chains=cfg["n_chains"],
        K=cfg["K"],
        truth=f"mean of long RTS and AIS runs ({cfg['truth_sweeps']} sweeps each)",
        dtype=cfg["dtype"],
    ),
)
