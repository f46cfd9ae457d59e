"""The exact check, one shard of replicates: every estimator on every enumerable RBM."""

from bmrep.io import frame_arrays, save_npz
from bmrep.papers.carlson2016.exact_check import exact_check_shard
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
df = exact_check_shard(cfg, int(sm.params.seed), sm.params.repeats)
log.info("\n%s", df.to_string())
save_npz(sm.output.npz, **frame_arrays(df))
