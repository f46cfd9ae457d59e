"""Fig. 2, one shard of repeats: RTS, MBAR, TI variants on the Gaussian mixture."""

import pandas as pd

from bmrep.io import frame_arrays, save_npz
from bmrep.papers.carlson2016.fig2 import fig2_gaussian_mixture_repeat
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
df = pd.concat(
    [fig2_gaussian_mixture_repeat(cfg, r, int(sm.params.seed)) for r in sm.params.repeats], ignore_index=True
)
save_npz(sm.output.npz, **frame_arrays(df))
