"""Table 4: steps before the first class change from starts drawn from the training distribution (quartiles)."""

from bmrep.io import load_npz, write_csv
from bmrep.papers.bruegge2013.summaries import merge_shards, table4
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
p = snakemake.params  # noqa: F821
runs = merge_shards(p.benches, [load_npz(f) for f in snakemake.input])  # noqa: F821
write_csv(snakemake.output.table, table4(runs, p.max_steps))  # noqa: F821
