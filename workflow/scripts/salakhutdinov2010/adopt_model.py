"""A training (and its evaluation) taken from its published model instead of training again (adopt_dir)."""

from bmrep.experiments.salakhutdinov2010.trained import adopted_model, check_adoptable
from bmrep.io import copy_file, load_model, save_model
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
arrays, meta = load_model(sm.input.model)
check_adoptable(
    meta,
    train=cfg["train"],
    evaluation=cfg["evaluation"],
    seed=sm.params.seed,
    repeat=int(sm.wildcards.repeat),
    algorithm=sm.wildcards.algorithm,
)
save_model(sm.output.model, *adopted_model(arrays, meta, sm.input.model))
for name in ("curve", "final"):
    copy_file(sm.input[name], sm.output[name])
log.info("adopted %s (trained for %s updates) from %s", sm.wildcards.algorithm, meta["final_update"], sm.input.model)
