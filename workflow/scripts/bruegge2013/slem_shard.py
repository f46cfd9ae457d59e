"""Fig. 3 (top), one RBM size: SLEMs of the exact G, T and blend matrices."""

from bmrep.io import write_csv
from bmrep.papers.bruegge2013.slem import slem_study
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
p = snakemake.params  # noqa: F821
size = int(snakemake.wildcards.size)  # noqa: F821
df = slem_study(size, p.slem["c_values"], p.slem["n_rbms"], p.seed, p.slem["blend_alpha"])
log.info("size %d: %d RBMs, max stationarity error %.3g", size, len(df), df["stationarity_error"].max())
write_csv(snakemake.output.slems, df)  # noqa: F821
