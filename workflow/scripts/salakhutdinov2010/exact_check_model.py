"""The enumerable DBM of the AIS calibration, trained like the large ones; its AIS base and exact values."""

from bmrep.io import load_npz, save_model, write_json
from bmrep.papers.salakhutdinov2010.common import split_mnist
from bmrep.papers.salakhutdinov2010.exact_check import exact_model, model_arrays
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
X, _, X_test, _ = split_mnist(load_npz(sm.input.data), cfg["n_validation"])
dbm, base, exact = exact_model(X, X_test, cfg, sm.params.seed)
log.info("exact values: %s", exact)
save_model(sm.output.model, model_arrays(dbm, base), {"settings": cfg, "seed": sm.params.seed, **exact})
write_json(sm.output.exact, exact)
