"""One calibration model (issue 23): train it (or draw it), its base p1, RAISE's starting points, exact log Z."""

from bmrep.io import load_npz, save_model
from bmrep.papers.calibration.models import build_model
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
name = sm.wildcards.cmodel
mnist = load_npz(sm.input.data[0]) if sm.input.data else {}
arrays, meta = build_model(name, cfg, int(sm.params.seed), mnist.get("X_train"), mnist.get("X_test"))
log.info("%s: exact log Z = %.6f (%.1f CPU s)", name, meta["log_z"], meta["exact_seconds"])
save_model(sm.output.model, arrays, meta)
