"""Fig. 3 (top): fraction of RBMs with SLEM(T) < SLEM(G) against c."""

import pandas as pd

from bmrep.io import write_csv
from bmrep.papers.bruegge2013.plots import fig3_slem
from bmrep.papers.bruegge2013.summaries import slem_fractions
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, _ = setup_job(snakemake)  # noqa: F821
p = snakemake.params  # noqa: F821
fractions = slem_fractions(pd.concat([pd.read_csv(f) for f in snakemake.input], ignore_index=True))  # noqa: F821
write_csv(snakemake.output.csv, fractions)  # noqa: F821
fig3_slem(fractions, snakemake.output.fig, caption(p.profile, rbms_per_size_and_c=p.n_rbms, biases="zero"))  # noqa: F821
