"""Fig. 2: RMSE vs number of samples on the Gaussian mixture (aggregate of the shards and reference runs)."""

from bmrep.io import concat_frames, load_npz, write_csv
from bmrep.papers.carlson2016.plots import plot_fig2
from bmrep.papers.carlson2016.summaries import fig2_rmse
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption, configured

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
est = concat_frames(load_npz(p) for p in sm.input.shards)
ref = concat_frames(load_npz(p) for p in sm.input.references)
rmse = fig2_rmse(est)
log.info("\n%s", rmse.to_string())
log.info("\n%s", ref.to_string())
write_csv(sm.output.estimates, est)
write_csv(sm.output.reference, ref)
write_csv(sm.output.csv, rmse)
plot_fig2(
    rmse,
    ref,
    sm.output.png,
    caption(
        sm.params.profile,
        **configured(cfg, "n_repeats", "dim", "K", "n_chains"),
        mixture=f"separation {cfg['separation']}, weight {cfg['weight']}, base sd {cfg['base_scale']}",
    ),
)
