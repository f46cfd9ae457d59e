"""One shard of the calibration study: replicates of one estimator group on one model at every budget."""

from bmrep.io import frame_arrays, load_model, save_npz
from bmrep.papers.calibration.replicates import replicate_shard
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
arrays, meta = load_model(sm.input.model)
df = replicate_shard(
    sm.wildcards.cmodel, arrays, meta["log_z"], sm.wildcards.group, sm.params.budgets, sm.params.replicates, cfg,
    int(sm.params.seed),
)  # fmt: skip
log.info("\n%s", df.to_string())
save_npz(sm.output.npz, **frame_arrays(df))
