"""Tables 1-3, one split: the dataset's images pooled and split again 7:4 per digit, keyed by (dataset, split)."""

import numpy as np

from bmrep.datasets.derived import resplit_per_digit
from bmrep.io import load_npz, save_npz
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import rng

log, _ = setup_job(snakemake)  # noqa: F821
w = snakemake.wildcards  # noqa: F821
d = resplit_per_digit(
    load_npz(snakemake.input.data), rng(snakemake.params.seed, "saul1996", w.dataset, "split", int(w.split))
)  # noqa: F821
log.info(
    "%s split %s: %d train, %d test; train per digit %s",
    w.dataset,
    w.split,
    len(d["X_train"]),
    len(d["X_test"]),
    np.bincount(d["y_train"]).tolist(),
)
save_npz(snakemake.output.data, **d)  # noqa: F821
