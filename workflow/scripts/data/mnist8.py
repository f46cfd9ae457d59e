"""mnist8: MNIST central 20x20 crop, area-averaged to 8x8, >= 0.25; 700/400 per digit."""

from bmrep.datasets.derived import mnist8
from bmrep.io import load_npz, save_npz
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import rng

log, _ = setup_job(snakemake)  # noqa: F821
m = load_npz(snakemake.input[0])  # noqa: F821
d = mnist8(m["X_train"], m["y_train"], rng(snakemake.params.seed, "data", "mnist8"))  # noqa: F821
log.info("mnist8: %d train, %d test", len(d["X_train"]), len(d["X_test"]))
save_npz(snakemake.output[0], **d)  # noqa: F821
