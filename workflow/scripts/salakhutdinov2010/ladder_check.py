"""Table 1's ladder check: one AIS replicate of seed 0's final log Z at the profile's ladder and one 5x longer."""

from bmrep.io import load_model, load_npz, write_json
from bmrep.papers.salakhutdinov2010.common import split_mnist
from bmrep.papers.salakhutdinov2010.ladder_check import ladder_check
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
X, _, _, _ = split_mnist(load_npz(sm.input.data), cfg["n_validation"])
arrays, _ = load_model(sm.input.model)
snaps = {k[len("snapshot_") :]: v for k, v in arrays.items() if k.startswith("snapshot_")}
res = ladder_check(sm.wildcards.algorithm, snaps, X, cfg["evaluation"], sm.params.seed, int(sm.params.repeat))
log.info("ladder check: %s", res)
write_json(sm.output.json, res)
