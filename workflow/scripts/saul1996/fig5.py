"""Figure 5: relative-error histograms and summary over all shards."""

from bmrep.io import load_npz, write_csv
from bmrep.papers.saul1996.plots import plot_fig5
from bmrep.papers.saul1996.summaries import fig5_summary, merge_fig5_shards
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
out = snakemake.output  # noqa: F821
res = merge_fig5_shards([load_npz(p) for p in snakemake.input.networks], cfg["n_networks"])  # noqa: F821
summary = fig5_summary(res)
write_csv(out.csv, summary)
log.info("\n%s", summary.to_string())
sizes = "x".join(map(str, cfg["sizes"]))
plot_fig5(
    res["mf_relative_error"],
    res["uniform_relative_error"],
    summary,
    out.png,
    caption(
        snakemake.params.profile,
        networks=f"{cfg['n_networks']} random {sizes}",  # noqa: F821
        weights=f"U[-{cfg['weight_range']}, {cfg['weight_range']}]",
        evidence="bottom layer all 0",
    ),
)
