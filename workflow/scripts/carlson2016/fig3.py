"""Fig. 3: estimator mean and RMSE vs Gibbs sweeps for RTS, AIS and RAISE, against the truth bracket (aggregate)."""

import pandas as pd

from bmrep.io import concat_frames, load_npz, write_csv
from bmrep.papers.carlson2016.plots import plot_fig3
from bmrep.papers.carlson2016.summaries import fig3_bracket, fig3_summary
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
est = concat_frames(load_npz(p) for p in sm.input.shards)
truth = pd.concat([pd.read_csv(p) for p in sm.input.truth], ignore_index=True)
bracket = fig3_bracket(truth)
summary = fig3_summary(est, bracket)
log.info("truth bracket\n%s\n%s", bracket.to_string(), summary.to_string())
write_csv(sm.output.estimates, est)
write_csv(sm.output.truth, truth)
write_csv(sm.output.csv, summary)
text = caption(
    sm.params.profile,
    repeats=f"{cfg['n_repeats']} at the smallest budget, {cfg['n_repeats_larger']} at the others",
    chains=cfg["n_chains"],
    K=cfg["K"],
    truth=f"bracket of {cfg['truth_runs']} long AIS and {cfg['truth_runs']} long RAISE runs",
    dtype=cfg["dtype"],
)
plot_fig3(summary, bracket, sm.output.png, text)
