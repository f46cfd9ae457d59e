"""Joint DBM training of one seed with one algorithm (SAP, FPCD, Trans-SAP, CAST, SAP-50).

Writes the model, its snapshots and CAST's tempering records (``tempering_*`` arrays).
"""

from bmrep.datasets.derived import arrays_sha256
from bmrep.io import load_model, load_npz, save_model
from bmrep.models.dbm import DBM
from bmrep.papers.salakhutdinov2010.common import grey_levels, split_mnist
from bmrep.papers.salakhutdinov2010.train import train
from bmrep.pipeline.runtime import setup_job, training_checkpoint

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
data = load_npz(sm.input.data)
X, _, _, _ = split_mnist(data, cfg["n_validation"])
redrawn = cfg["training_images"] == "redrawn"
grey = grey_levels(load_npz(sm.input.grey), cfg["n_validation"]) if redrawn else None
arrays, _ = load_model(sm.input.pretrained)
dbm0 = DBM.from_params(arrays)
checkpoint = training_checkpoint(sm, log)
repeat = int(sm.wildcards.repeat)
dbm, snaps, info = train(
    sm.wildcards.algorithm, dbm0, X, cfg, sm.params.seed, repeat, log=log.info, checkpoint=checkpoint, grey=grey
)
log.info("%s: %.1f ms per update", sm.wildcards.algorithm, 1e3 * info["seconds_per_update"])
tempering = info.pop("tempering", {})
save_model(
    sm.output.model,
    {
        **dbm.params(),
        **{f"snapshot_{k}": v for k, v in snaps.items()},
        **{f"tempering_{k}": v for k, v in tempering.items()},
    },
    {
        **info,
        "settings": cfg["train"],
        "seed": sm.params.seed,
        "shape": dbm.shape,
        "data_sha256": arrays_sha256(data["X_train"], data["X_test"]),
        # recorded where not the default: a sidecar without it (any written before the option) was trained on
        # the fixed images
        **({"training_images": "redrawn"} if redrawn else {}),
    },
)
