"""The exact check (aggregate of the shards): one row per (weight scale, replicate, method), and its figure."""

from bmrep.io import concat_frames, load_npz, write_csv
from bmrep.papers.carlson2016.plots import plot_exact_check
from bmrep.papers.carlson2016.summaries import exact_check_summary
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
k = sm.params.caption
table = concat_frames(load_npz(p) for p in sm.input.shards).sort_values(["weight_scale", "replicate"], kind="stable")
summary = exact_check_summary(table)
log.info("\n%s", summary.to_string())
write_csv(sm.output.csv, table)
plot_exact_check(
    summary,
    sm.output.png,
    caption(
        sm.params.profile,
        replicates=cfg["n_replicates"],
        RBM=f"{k['n_visible']}x{k['n_hidden']}",
        weight_sd=", ".join(f"{s:g}" for s in k["weight_scales"]),
        chains=k["n_chains"],
        sweeps=k["sweeps"],
        K=k["K"],
    ),
)
