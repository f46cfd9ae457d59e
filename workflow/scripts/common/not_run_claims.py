"""Claims of a paper whose targets are not implemented yet: one 'not run' row."""

from bmrep.claims import Claim, write_claims
from bmrep.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
p = snakemake.params  # noqa: F821
write_claims(
    snakemake.output[0],  # noqa: F821
    [Claim(p.paper, "all", "targets implemented", "", "", "implementation exists", p.profile, None, "not implemented yet")],
)
