"""A Table 1 model's log Z at a longer ladder and by reverse AIS, beside its final one (evaluation.instrument_check)."""

from bmrep.io import load_model, load_npz, read_json, write_json
from bmrep.papers.salakhutdinov2010.common import split_mnist
from bmrep.papers.salakhutdinov2010.evaluation import snapshot_model
from bmrep.papers.salakhutdinov2010.instrument_check import instrument_check
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
X, _, _, _ = split_mnist(load_npz(sm.input.data), cfg["n_validation"])
arrays, _ = load_model(sm.input.model)
snaps = {k[len("snapshot_") :]: v for k, v in arrays.items() if k.startswith("snapshot_")}
dbm = snapshot_model(snaps, len(snaps["updates"]) - 1)
res = instrument_check(
    sm.wildcards.algorithm,
    dbm,
    X,
    cfg["evaluation"],
    read_json(sm.input.final),
    sm.params.seed,
    int(sm.wildcards.repeat),
)
log.info(
    "%s seed %s: log Z final %.3f, %dx ladder %.3f (%d runs, diff %+.3f), reverse %.3f (gap %+.3f)",
    res["algorithm"],
    res["repeat"],
    res["log_z_final"],
    cfg["evaluation"]["instrument_check"]["ladder_factor"],
    res["log_z_long"],
    res["long_runs_pooled"],
    res["long_minus_final"],
    res["log_z_reverse"],
    res["reverse_minus_final"],
)
write_json(sm.output.json, res)
