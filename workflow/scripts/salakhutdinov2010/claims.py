"""Claims of Salakhutdinov (2010), evaluated from this run's results."""

import numpy as np
import pandas as pd

from bmrep.claims import write_claims
from bmrep.experiments.salakhutdinov2010 import claims, fig2_claim_values
from bmrep.io import read_json
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
values = fig2_claim_values(pd.read_csv(sm.input.fig2), pd.read_csv(sm.input.occupation))
sampling = read_json(sm.input.sampling)
rows = claims(values, [read_json(p) for p in sm.input.finals], sampling, np.asarray(sampling["k_trace"]),
              int(sampling["n_betas"]), read_json(sm.input.exact), sm.params.profile)
for r in rows:
    log.info("%s: %s -> %s", r.claim, r.reproduced_value, r.status)
write_claims(sm.output[0], rows)
