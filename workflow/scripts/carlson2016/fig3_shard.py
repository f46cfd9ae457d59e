"""Fig. 3, one shard: repeats of one estimator (RTS, AIS or RAISE) on one model at its sweep budgets."""

import pandas as pd

from bmrep.io import frame_arrays, load_model, load_npz, save_npz
from bmrep.papers.carlson2016.fig3 import fig3_inputs, fig3_repeat, repeat_budgets
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
rbm, bb, V = fig3_inputs(
    load_model(sm.input.model)[0], load_npz(sm.input.data), sm.params.base, sm.params.pseudo_count, int(sm.params.seed)
)
df = pd.concat(
    [
        fig3_repeat(
            rbm,
            bb,
            V,
            dict(cfg, sweeps=repeat_budgets(sm.params.sweeps, r, cfg["n_repeats_larger"])),
            sm.wildcards.method,
            r,
            int(sm.params.seed),
            sm.wildcards.model,
        )
        for r in sm.params.repeats
    ],
    ignore_index=True,
)
log.info("\n%s", df.to_string())
save_npz(sm.output.npz, **frame_arrays(df))
