"""One shard of the AIS calibration's replicates: independent AIS estimates of the enumerable DBM's log Z."""

from bmrep.io import load_model, save_npz
from bmrep.papers.salakhutdinov2010.exact_check import ais_replicates, model_from_arrays
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
p = sm.params
dbm, base = model_from_arrays(load_model(sm.input.model)[0])
reps = ais_replicates(dbm, base, p.ais, p.seed, list(p.repeats), state=p.ais_state)
for r, z, ess in zip(reps["replicate"], reps["log_z"], reps["ess"], strict=True):
    log.info("replicate %d: log Z %.4f, ESS %.1f of %d", r, z, ess, p.ais["n_runs"])
save_npz(sm.output.replicates, **reps)
