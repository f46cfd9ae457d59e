"""Fig. 2, one TI reference run: each TI rule on the integrand of a run reference_factor x the largest count."""

from bmrep.io import frame_arrays, save_npz
from bmrep.papers.carlson2016.fig2 import fig2_reference
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
df = fig2_reference(cfg, int(sm.params.seed), int(sm.wildcards.run))
log.info("\n%s", df.to_string())
save_npz(sm.output.npz, **frame_arrays(df))
