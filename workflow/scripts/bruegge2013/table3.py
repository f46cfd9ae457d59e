"""Table 3: class changes in one chain per RBM started from all-ones visible units (quartiles over RBMs)."""

from bmrep.io import load_npz, write_csv
from bmrep.papers.bruegge2013.summaries import merge_shards, table3
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
runs = merge_shards(snakemake.params.benches, [load_npz(f) for f in snakemake.input])  # noqa: F821
write_csv(snakemake.output.table, table3(runs))  # noqa: F821
