"""MNIST as one npz (X_* (n, 784) uint8 0..255, y_*), or its smoke surrogate."""

from bmrep.datasets import derived
from bmrep.datasets.readers import read_idx
from bmrep.io import save_npz
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
if snakemake.params.synthetic:  # noqa: F821
    d = derived.mnist_surrogate()
    log.info("synthetic profile: MNIST surrogate from scikit-learn digits (%d train)", len(d["X_train"]))
else:
    i = snakemake.input  # noqa: F821
    d = {
        "X_train": read_idx(i.train_images).reshape(-1, 784),
        "y_train": read_idx(i.train_labels).astype("int64"),
        "X_test": read_idx(i.test_images).reshape(-1, 784),
        "y_test": read_idx(i.test_labels).astype("int64"),
    }
save_npz(snakemake.output[0], **d)  # noqa: F821
