"""Every estimator against exact log Z on enumerable RBMs (the spec's exact check)."""

from bmrep.experiments.carlson2016.exact_check import exact_model_check
from bmrep.io import write_csv
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
df = exact_model_check(cfg, int(snakemake.params.seed))  # noqa: F821
log.info("\n%s", df.to_string())
write_csv(snakemake.output.csv, df)  # noqa: F821
