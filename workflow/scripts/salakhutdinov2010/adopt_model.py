"""A training (and its evaluation) taken from its published model instead of training again (adopt_dir).

The curve is taken (it needs the snapshots the published model leaves out); the final evaluation is taken where it
was made with this run's final instrument, and made again from the final parameters where not.
"""

from bmrep.datasets.derived import arrays_sha256
from bmrep.io import copy_file, load_model, load_npz, save_model, write_json
from bmrep.papers.salakhutdinov2010.common import split_mnist
from bmrep.papers.salakhutdinov2010.evaluation import final_evaluation, snapshot_model
from bmrep.papers.salakhutdinov2010.trained import (
    CURVE_KEYS,
    FINAL_KEYS,
    adopted_model,
    check_adoptable,
    evaluation_part,
)
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
arrays, meta = load_model(sm.input.model)
data = load_npz(sm.input.data)
ev = cfg["evaluation"]
check_adoptable(
    meta,
    train=cfg["train"],
    evaluation=evaluation_part(ev, CURVE_KEYS),
    seed=sm.params.seed,
    repeat=int(sm.wildcards.repeat),
    algorithm=sm.wildcards.algorithm,
    data_sha256=arrays_sha256(data["X_train"], data["X_test"]),
    training_images=cfg["training_images"],
)
model, sidecar = adopted_model(arrays, meta, sm.input.model)
save_model(sm.output.model, model, sidecar)
copy_file(sm.input.curve, sm.output.curve)
if evaluation_part(meta.get("evaluation"), FINAL_KEYS) == evaluation_part(ev, FINAL_KEYS):
    copy_file(sm.input.final, sm.output.final)
    how = "its final evaluation taken"
else:
    X, _, X_test, _ = split_mnist(data, cfg["n_validation"])
    snaps = {k[len("snapshot_") :]: v for k, v in model.items() if k.startswith("snapshot_")}
    dbm = snapshot_model(snaps, 0)
    final = final_evaluation(sm.wildcards.algorithm, dbm, X, X_test, ev, sm.params.seed, int(sm.wildcards.repeat))
    final["train_seconds_per_update"] = meta.get("seconds_per_update")
    write_json(sm.output.final, final)
    how = "its final evaluation made again with this run's final instrument"
log.info(
    "adopted %s (trained for %s updates) from %s; %s", sm.wildcards.algorithm, meta["final_update"], sm.input.model, how
)
