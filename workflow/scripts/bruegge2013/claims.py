"""Claims of spec section 5 (bruegge2013), evaluated from this run's tables."""

import pandas as pd

from bmrep.claims import write_claims
from bmrep.experiments.bruegge2013 import claims
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
i = snakemake.input  # noqa: F821
tables = [pd.read_csv(p) for p in (i.slem, i.table1, i.table2, i.table3, i.table4)]
out = claims(snakemake.params.profile, *tables, curve=cfg["curve"])  # noqa: F821
for c in out:
    log.info("%s | %s | %s | %s", c.target, c.claim, c.reproduced_value, c.status)
write_claims(snakemake.output[0], out)  # noqa: F821
