"""carlson2016 claims (shared spec, section 4) from this run's results."""

import pandas as pd

from bmrep.claims import write_claims
from bmrep.experiments.carlson2016 import evaluate_claims
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
inp = snakemake.input  # noqa: F821
tables = [pd.read_csv(inp[k]) for k in ("exact_check", "fig1", "fig2", "fig3", "fig4", "fig5")]
claims = evaluate_claims(*tables, cfg, snakemake.params.profile)  # noqa: F821
for c in claims:
    log.info("%s | %s | %s | %s", c.target, c.claim, c.reproduced_value, c.status)
write_claims(snakemake.output[0], claims)  # noqa: F821
