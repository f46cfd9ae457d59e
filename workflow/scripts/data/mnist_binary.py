"""Binarised MNIST: pixel/255 >= 0.5."""

from bmrep.datasets.derived import binarize_mnist
from bmrep.io import load_npz, save_npz
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
d = load_npz(snakemake.input[0])  # noqa: F821
d["X_train"], d["X_test"] = binarize_mnist(d["X_train"]), binarize_mnist(d["X_test"])
log.info("binarised at pixel >= 128; mean pixel %.3f", d["X_train"].mean())
save_npz(snakemake.output[0], **d)  # noqa: F821
