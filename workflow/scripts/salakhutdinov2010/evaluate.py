"""AIS log Z and the eq. (3) bound: curve over the snapshots (training subset) and final test bound (resumable)."""

from bmrep.io import load_model, load_npz, write_csv, write_json
from bmrep.papers.salakhutdinov2010.common import split_mnist
from bmrep.papers.salakhutdinov2010.evaluation import evaluate
from bmrep.pipeline.runtime import setup_job, training_checkpoint

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
X, _, X_test, _ = split_mnist(load_npz(sm.input.data), cfg["n_validation"])
arrays, meta = load_model(sm.input.model)
snaps = {k[len("snapshot_") :]: v for k, v in arrays.items() if k.startswith("snapshot_")}
checkpoint = training_checkpoint(sm, log)  # every checkpoint_every.salakhutdinov2010_evaluate units
curve, final = evaluate(
    sm.wildcards.algorithm, snaps, X, X_test, cfg["evaluation"], sm.params.seed, int(sm.wildcards.repeat),
    log=log.info, checkpoint=checkpoint,
)  # fmt: skip
final["train_seconds_per_update"] = meta.get("seconds_per_update")
log.info("final: %s", final)
write_csv(sm.output.curve, curve)
write_json(sm.output.final, final)
