"""A training (and its evaluation) taken from its published model instead of training again (adopt_dir)."""

from bmrep.datasets.derived import arrays_sha256
from bmrep.experiments.salakhutdinov2010.trained import adopted_model, check_adoptable
from bmrep.io import copy_file, load_model, load_npz, save_model
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
arrays, meta = load_model(sm.input.model)
data = load_npz(sm.input.data)
check_adoptable(
    meta,
    train=cfg["train"],
    evaluation=cfg["evaluation"],
    seed=sm.params.seed,
    repeat=int(sm.wildcards.repeat),
    algorithm=sm.wildcards.algorithm,
    data_sha256=arrays_sha256(data["X_train"], data["X_test"]),
)
save_model(sm.output.model, *adopted_model(arrays, meta, sm.input.model))
for name in ("curve", "final"):
    copy_file(sm.input[name], sm.output[name])
log.info("adopted %s (trained for %s updates) from %s", sm.wildcards.algorithm, meta["final_update"], sm.input.model)
