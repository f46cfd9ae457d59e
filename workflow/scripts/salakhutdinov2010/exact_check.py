"""AIS and the eq. (3) bound against exact enumeration on a small DBM trained on the same data."""

from bmrep.experiments.salakhutdinov2010 import exact_check, split_mnist
from bmrep.io import load_npz, write_json
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
X, _, X_test, _ = split_mnist(load_npz(sm.input.data), cfg["n_validation"])
res = exact_check(X, X_test, cfg, sm.params.seed)
log.info("%s", res)
write_json(sm.output[0], res)
