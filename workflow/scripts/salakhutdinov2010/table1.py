"""Table 1: test-set variational lower bounds, mean and s.e. over seeds, paired differences (MNIST; NORB not run)."""

from bmrep.io import read_json, write_csv
from bmrep.papers.salakhutdinov2010.summaries import ladder_check_table, paired_differences, table1
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
finals = [read_json(p) for p in sm.input.finals]
table = table1(finals, cfg["norb_path"])
paired = paired_differences(finals)
ladder = ladder_check_table([read_json(p) for p in sm.input.ladder_checks], finals)
log.info("\n%s\n%s\n%s", table.to_string(), paired.to_string(), ladder.to_string())
write_csv(sm.output.table, table)
write_csv(sm.output.paired, paired)
write_csv(sm.output.ladder_check, ladder)
