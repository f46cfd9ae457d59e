"""Every estimator against exact log Z on enumerable RBMs (the exact-model claim of Fig. 3)."""

from bmrep.experiments.carlson2016 import exact_model_check
from bmrep.io import write_csv
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
df = exact_model_check(cfg, int(snakemake.params.seed))  # noqa: F821
log.info("\n%s", df.to_string())
write_csv(snakemake.output[0], df)  # noqa: F821
