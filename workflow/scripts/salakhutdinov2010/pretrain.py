"""Greedy layer-wise pretraining of the DBM (Salakhutdinov & Hinton 2009), one per seed, shared by the algorithms."""

import time

from bmrep.datasets.derived import arrays_sha256
from bmrep.io import load_npz, save_model
from bmrep.papers.salakhutdinov2010.common import grey_levels, split_mnist
from bmrep.papers.salakhutdinov2010.train import pretrain
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
data = load_npz(sm.input.data)
X, _, _, _ = split_mnist(data, cfg["n_validation"])
redrawn = cfg["training_images"] == "redrawn"
grey = grey_levels(load_npz(sm.input.grey), cfg["n_validation"]) if redrawn else None
t0 = time.perf_counter()
repeat = int(sm.wildcards.repeat)
dbm = pretrain(
    X,
    cfg,
    sm.params.seed,
    repeat,
    log=lambda layer, e, r: log.info("%s epoch %d: reconstruction error %.4f", layer, e, r),
    grey=grey,
)
save_model(
    sm.output.model,
    dbm.params(),
    {
        "settings": cfg["pretrain"],
        "shape": dbm.shape,
        "seed": sm.params.seed,
        "repeat": repeat,
        "n_train": X.shape[0],
        "data_sha256": arrays_sha256(data["X_train"], data["X_test"]),  # which binarisation (adopt checks it)
        # recorded where not the default: a sidecar without it (any written before the option) was trained on
        # the fixed images
        **({"training_images": "redrawn"} if redrawn else {}),
        "seconds": time.perf_counter() - t0,
    },
)
