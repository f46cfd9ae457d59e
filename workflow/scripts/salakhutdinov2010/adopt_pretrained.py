"""A seed's pretraining taken from its published model instead of pretraining again (adopt_dir)."""

from bmrep.experiments.salakhutdinov2010.trained import check_adoptable
from bmrep.io import copy_file, load_model, sidecar_of
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
_, meta = load_model(sm.input.model)  # checks the archive against its sidecar's SHA-256
shape = [cfg["n_visible"], cfg["n_hidden1"], cfg["n_hidden2"]]
check_adoptable(meta, train=cfg["pretrain"], seed=sm.params.seed, repeat=int(sm.wildcards.repeat), shape=shape)
copy_file(sm.input.model, sm.output.model)  # bit for bit: the trainings' common starting point
copy_file(sidecar_of(sm.input.model), sidecar_of(sm.output.model))
log.info("adopted the pretrained DBM from %s", sm.input.model)
