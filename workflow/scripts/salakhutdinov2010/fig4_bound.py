"""Figure 4 (right): the bound on the training log-likelihood during learning."""

import pandas as pd

from bmrep.io import write_csv
from bmrep.papers.salakhutdinov2010.plots import plot_bound_curves
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
curves = pd.concat([pd.read_csv(p) for p in sm.input.curves], ignore_index=True)
write_csv(sm.output.csv, curves)
ev, tr = cfg["evaluation"], cfg["train"]
plot_bound_curves(
    curves,
    sm.output.fig,
    caption(
        sm.params.profile,
        seeds=int(curves["repeat"].nunique()),
        band="+- 1 s.e. over seeds",
        updates=cfg["train"]["n_updates"],
        every=cfg["train"]["snapshot_every"],
        bound_on=f"{ev['curve_train_subset']} training images",
        ais=f"{ev['curve_ais']['n_runs']} runs x {ev['curve_ais']['n_betas']} betas",
        architecture=f"{cfg['n_visible']}-{cfg['n_hidden1']}-{cfg['n_hidden2']}",
        trans_sap=f"one tempered transition ({tr['tt_levels']} levels) every {tr['tt_every']} updates",
    ),
)
