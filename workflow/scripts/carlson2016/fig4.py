"""Fig. 4: RMSE over independent runs vs number of temperatures, against the Fig. 3 truth bracket (aggregate)."""

import pandas as pd

from bmrep.io import concat_frames, load_npz, write_csv
from bmrep.papers.carlson2016.plots import plot_fig4
from bmrep.papers.carlson2016.summaries import fig3_bracket, fig4_summary
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
est = concat_frames(load_npz(p) for p in sm.input.shards)
bracket = fig3_bracket(pd.concat([pd.read_csv(p) for p in sm.input.truth], ignore_index=True))
summary = fig4_summary(est, bracket)
log.info("truth bracket\n%s\n%s", bracket.to_string(), summary.to_string())
write_csv(sm.output.estimates, est)
write_csv(sm.output.csv, summary)
text = caption(
    sm.params.profile,
    model=f"784x{cfg['n_hidden']}",
    runs=f"{cfg['n_runs']} independent runs per K",
    run=f"{cfg['n_chains']} chains x {cfg['n_sweeps']} sweeps",
    truth=f"Fig. 3 bracket midpoint (half-width {float(bracket['h'].iloc[0]):.3f} nats)",
)
plot_fig4(summary, sm.output.png, text)
