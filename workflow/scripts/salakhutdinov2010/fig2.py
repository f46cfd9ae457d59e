"""Figure 2: Gibbs, FPCD and Wang-Landau on the two-node MRF; long Wang-Landau occupation."""

from bmrep.io import write_csv
from bmrep.papers.salakhutdinov2010.plots import plot_fig2
from bmrep.papers.salakhutdinov2010.toy import fig2_toy
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption, configured

log, settings = setup_job(snakemake)  # noqa: F821
cfg = settings["fig2"]
sm = snakemake  # noqa: F821
traj, runs, occ = fig2_toy(cfg, sm.params.seed)
log.info("long-run occupation per partition (mean over runs) %s", occ.groupby("partition")["fraction"].mean().tolist())
log.info("runs: %s", runs.drop(columns=["run"]).mean().to_dict())
write_csv(sm.output.csv, traj)
write_csv(sm.output.runs, runs)
write_csv(sm.output.occupation, occ)
plot_fig2(
    traj,
    sm.output.fig,
    caption(
        sm.params.profile,
        runs=f"{cfg['n_runs']} (run 0 shown)",
        long_runs=f"{cfg['n_long_runs']} x {cfg['long_updates']} updates",
        **configured(cfg, "n_updates", "phi", "wl_gamma", "fpcd_lr", "fpcd_decay"),
    ),
)
