"""The paper's data of salakhutdinov2010: MNIST binarised once, each pixel 1 with probability pixel/255.

Drawn from the recorded seed (bmrep.datasets.derived.MNIST_STOCHASTIC_SEED); built from the real MNIST, its
arrays must hash to the recorded SHA-256, so every build anywhere is the same sample (a different one stops
the run with one line). The smoke profile's surrogate is binarised by the same rule, unchecked.
"""

from bmrep.datasets.derived import MNIST_STOCHASTIC_SEED, MNIST_STOCHASTIC_SHA256, arrays_sha256, mnist_stochastic
from bmrep.datasets.sources import DataError
from bmrep.io import load_npz, save_npz
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
d = mnist_stochastic(load_npz(snakemake.input[0]), MNIST_STOCHASTIC_SEED)  # noqa: F821
digest = arrays_sha256(d["X_train"], d["X_test"])
if not snakemake.params.synthetic and digest != MNIST_STOCHASTIC_SHA256:  # noqa: F821
    raise DataError(
        f"stochastically binarised MNIST (seed {MNIST_STOCHASTIC_SEED}) has SHA-256 {digest}, recorded "
        f"{MNIST_STOCHASTIC_SHA256}: the draw differs (numpy's generator changed?); nothing written"
    )
log.info(
    "binarised with p = pixel/255, seed %d; mean pixel %.3f; arrays SHA-256 %s",
    MNIST_STOCHASTIC_SEED,
    d["X_train"].mean(),
    digest,
)
save_npz(snakemake.output[0], **d)  # noqa: F821
