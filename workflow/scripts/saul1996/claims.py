"""saul1996 claims (shared spec, section 1) from this run's results."""

import pandas as pd

from bmrep.claims import write_claims
from bmrep.experiments.saul1996 import evaluate_claims
from bmrep.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
inp, p = snakemake.input, snakemake.params  # noqa: F821
tables = {ds: {"table2": pd.read_csv(t2), "table3": pd.read_csv(t3, dtype={"digit": str})}
          for ds, t2, t3 in zip(p.datasets, inp.table2, inp.table3)}
claims = evaluate_claims(pd.read_csv(inp.fig2), pd.read_csv(inp.fig5), tables, p.profile)
for c in claims:
    log.info("%s | %s | %s | %s", c.target, c.claim, c.reproduced_value, c.status)
write_claims(snakemake.output[0], claims)  # noqa: F821
