"""Fig. 3 truth bracket, one run: a long AIS (lower end) or RAISE (upper end) run on one model."""

import numpy as np

from bmrep.experiments.carlson2016.base import base_bias_for
from bmrep.experiments.carlson2016.fig3 import fig3_truth_run
from bmrep.io import load_model, load_npz, write_csv
from bmrep.models.rbm import RBM
from bmrep.runtime import setup_job
from bmrep.seeds import rng

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
rbm = RBM.from_params(load_model(sm.input.model)[0])
d = load_npz(sm.input.data)
bb = base_bias_for(sm.params.base, d["X_train"], sm.params.pseudo_count)
# RAISE starts from the same test points as the repeats' (fig3_shard.py)
V = d["X_test"][rng(int(sm.params.seed), "carlson2016", "fig3", "raise_points").permutation(len(d["X_test"]))].astype(
    np.float64
)
settings = dict(cfg, truth_sweeps=sm.params.truth_sweeps)
df = fig3_truth_run(
    rbm, bb, V, settings, sm.wildcards.method, int(sm.wildcards.run), int(sm.params.seed), sm.wildcards.model
)
log.info("\n%s", df.to_string())
write_csv(sm.output.csv, df)
