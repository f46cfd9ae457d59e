"""Fig. 3 (top), one RBM size: SLEMs of the exact G, T and blend matrices."""

from bmrep.experiments.bruegge2013 import slem_study
from bmrep.io import write_csv
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
size = int(snakemake.wildcards.size)  # noqa: F821
df = slem_study(size, cfg["c_values"], cfg["n_rbms"], snakemake.params.seed, cfg["blend_alpha"])  # noqa: F821
log.info("size %d: %d RBMs, max stationarity error %.3g", size, len(df), df["stationarity_error"].max())
write_csv(snakemake.output[0], df)  # noqa: F821
