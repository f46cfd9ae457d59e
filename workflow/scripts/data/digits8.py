"""digits8: scikit-learn's 8x8 digits thresholded at 8/16, per-digit 7:4 split."""

from bmrep.datasets.derived import digits8
from bmrep.io import save_npz
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import rng

log, _ = setup_job(snakemake)  # noqa: F821
d = digits8(rng(snakemake.params.seed, "data", "digits8"))  # noqa: F821
log.info("digits8: %d train, %d test", len(d["X_train"]), len(d["X_test"]))
save_npz(snakemake.output[0], **d)  # noqa: F821
