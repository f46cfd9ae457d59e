"""libsvm dna as one npz (X_* uint8 {0,1}, 180 columns), or a synthetic stand-in."""

from bmrep.datasets.derived import dna_synthetic
from bmrep.datasets.readers import read_libsvm_binary
from bmrep.io import save_npz
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import rng

log, _ = setup_job(snakemake)  # noqa: F821
if snakemake.params.synthetic:  # noqa: F821
    d = dna_synthetic(rng(snakemake.params.seed, "data", "dna"))  # noqa: F821
    log.info("synthetic profile: dna stand-in")
else:
    Xtr, ytr = read_libsvm_binary(snakemake.input.train, 180)  # noqa: F821
    Xte, yte = read_libsvm_binary(snakemake.input.test, 180)  # noqa: F821
    d = {"X_train": Xtr, "y_train": ytr, "X_test": Xte, "y_test": yte}
save_npz(snakemake.output[0], **d)  # noqa: F821
