"""Calibration claims (spec section 6) from this run's replicates."""

from bmrep.claims.calibration import claims
from bmrep.claims.core import Results, evaluate
from bmrep.claims.summary import write_claims
from bmrep.io import load_tables
from bmrep.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
p = snakemake.params  # noqa: F821
results = Results(load_tables(snakemake.input), settings=p.settings, profile=p.profile)  # noqa: F821
decided = evaluate(claims(p.settings), results)
for d in decided:
    log.info("%s | %s | %s", d.claim.id, d.verdict, d.details)
write_claims(snakemake.output[0], decided)  # noqa: F821
