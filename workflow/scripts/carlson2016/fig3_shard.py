"""Fig. 3, one shard: repeats of one estimator (RTS, AIS or RAISE) on one model at its sweep budgets."""

import numpy as np
import pandas as pd

from bmrep.experiments.carlson2016.base import base_bias_for
from bmrep.experiments.carlson2016.fig3 import fig3_repeat, repeat_budgets
from bmrep.experiments.carlson2016.shards import frame_arrays
from bmrep.io import load_model, load_npz, save_npz
from bmrep.models.rbm import RBM
from bmrep.runtime import setup_job
from bmrep.seeds import rng

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
rbm = RBM.from_params(load_model(sm.input.model)[0])
d = load_npz(sm.input.data)
bb = base_bias_for(sm.params.base, d["X_train"], sm.params.pseudo_count)
# RAISE starts from the same test points in every repeat
V = d["X_test"][rng(int(sm.params.seed), "carlson2016", "fig3", "raise_points").permutation(len(d["X_test"]))].astype(
    np.float64
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
