"""The AIS ladder's selection table: candidate schedules x lengths against the exact log Z of the selection DBM."""

from bmrep.io import load_model, read_json, write_csv
from bmrep.papers.salakhutdinov2010.exact_check import model_from_arrays
from bmrep.papers.salakhutdinov2010.ladder_selection import selection_table
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
p = sm.params
dbm, base = model_from_arrays(load_model(sm.input.model)[0])
exact = read_json(sm.input.exact)
table = selection_table(dbm, base, exact["log_z_exact"], p.ais, cfg["selection"], p.seed, state=p.ais_state)
log.info("selection on the %s DBM of seed %d:\n%s", "-".join(map(str, exact["shape"])), p.seed, table.to_string())
write_csv(sm.output.table, table)
