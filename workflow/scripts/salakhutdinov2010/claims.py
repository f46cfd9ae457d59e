"""Claims of Salakhutdinov (2010), decided from this run's result tables."""

from bmrep.claims.summary import decide_and_write
from bmrep.papers.salakhutdinov2010.claims import claims
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
decide_and_write(claims, snakemake.input, snakemake.params, snakemake.output[0], log)  # noqa: F821
