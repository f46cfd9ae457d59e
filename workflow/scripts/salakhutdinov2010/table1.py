"""Table 1: test-set variational lower bounds (MNIST; NORB not run)."""

from bmrep.experiments.salakhutdinov2010.summaries import table1
from bmrep.io import read_json, write_csv
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
table = table1([read_json(p) for p in sm.input.finals], cfg["norb_path"])
log.info("\n%s", table.to_string())
write_csv(sm.output.table, table)
