"""A seed's pretraining taken from its published model instead of pretraining again (adopt_dir)."""

from bmrep.datasets.derived import arrays_sha256
from bmrep.io import copy_file, load_model, load_npz, sidecar_of
from bmrep.papers.salakhutdinov2010.trained import check_adoptable
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
_, meta = load_model(sm.input.model)  # checks the archive against its sidecar's SHA-256
shape = [cfg["n_visible"], cfg["n_hidden1"], cfg["n_hidden2"]]
data = load_npz(sm.input.data)
check_adoptable(
    meta,
    train=cfg["pretrain"],
    seed=sm.params.seed,
    repeat=int(sm.wildcards.repeat),
    shape=shape,
    data_sha256=arrays_sha256(data["X_train"], data["X_test"]),
    training_images=cfg["training_images"],
)
copy_file(sm.input.model, sm.output.model)  # bit for bit: the trainings' common starting point
copy_file(sidecar_of(sm.input.model), sidecar_of(sm.output.model))
log.info("adopted the pretrained DBM from %s", sm.input.model)
