"""Claims of yokoyama2019 (spec section 2), evaluated from the result tables."""

import pandas as pd

from bmrep.claims import write_claims
from bmrep.experiments.yokoyama2019 import evaluate_claims
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
inp = snakemake.input  # noqa: F821
claims = evaluate_claims(pd.read_csv(inp.kld_final, dtype={"s": str}), pd.read_csv(inp.w_star, dtype={"s": str}),
                         pd.read_csv(inp.drbm_final, dtype={"s": str}), cfg, snakemake.params.profile)  # noqa: F821
for c in claims:
    log.info("%s | %s | %s | %s", c.target, c.claim, c.reproduced_value, c.status)
write_claims(snakemake.output[0], claims)  # noqa: F821
