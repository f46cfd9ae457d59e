"""Diagnostics of the AIS calibration: the running error along beta and the error against the number of betas."""

from bmrep.io import load_model, write_json
from bmrep.papers.salakhutdinov2010.exact_check import diagnostics, model_from_arrays
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
p = sm.params
dbm, base = model_from_arrays(load_model(sm.input.model)[0])
diag = diagnostics(dbm, base, p.ais, cfg, p.seed, state=p.ais_state)
for r in diag["ladder"]:
    log.info("ladder: %s %d betas: error %+.3f (ESS %.1f)", r["schedule"], r["n_betas"], r["error"], r["ess"])
write_json(sm.output.json, diag)
