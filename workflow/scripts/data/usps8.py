"""usps8: USPS pooled, 2x2-averaged to 8x8, thresholded at 0.5, seeded per-digit 7:4 split."""

from bmrep.datasets.derived import usps8
from bmrep.datasets.readers import read_usps_h5
from bmrep.io import save_npz
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import rng

log, _ = setup_job(snakemake)  # noqa: F821
d = usps8(read_usps_h5(snakemake.input[0]), rng(snakemake.params.seed, "data", "usps8"))  # noqa: F821
log.info("usps8: %d train, %d test", len(d["X_train"]), len(d["X_test"]))
save_npz(snakemake.output[0], **d)  # noqa: F821
