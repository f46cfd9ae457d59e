"""Figure 2: the bound (20) on <ln(1+e^z)> for z ~ N(0,1) against xi."""

import numpy as np

from bmrep.io import write_csv
from bmrep.papers.saul1996.fig2 import fig2_curve, fig2_table
from bmrep.papers.saul1996.plots import plot_fig2
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
out = snakemake.output  # noqa: F821
curve, nums = fig2_curve(np.linspace(0.0, 1.0, cfg["n_xi"]))
write_csv(out.csv, fig2_table(curve, nums))
log.info(
    "exact %.6f, min %.6f at xi %.4f, xi=0 %.6f", nums["exact"], nums["min_bound"], nums["xi_star"], nums["xi0_bound"]
)
plot_fig2(curve, nums, out.png, caption(snakemake.params.profile, xi_grid_points=cfg["n_xi"]))  # noqa: F821
