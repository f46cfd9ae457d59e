"""Table 2: mean autocorrelation times of G and T and the gain 1 - tau_T / tau_G."""

import pandas as pd

from bmrep.io import load_npz, write_csv
from bmrep.papers.bruegge2013.summaries import table2
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
frames = []
for bench, path in zip(snakemake.params.benches, snakemake.input, strict=True):  # noqa: F821
    d = load_npz(path)
    cols = ["repeat", "chain", "tau_ar_G", "tau_ar_T", "tau_int_G", "tau_int_T"]
    frames.append(pd.DataFrame({c: d[c] for c in cols}).assign(benchmark=bench))
per_chain = pd.concat(frames, ignore_index=True)
write_csv(snakemake.output.chains, per_chain)  # noqa: F821
write_csv(snakemake.output.table, table2(per_chain))  # noqa: F821
