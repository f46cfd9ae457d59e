"""Fig. 4, one K: a long tempered run on the Fig. 4 model and bootstrap estimates per method."""

from bmrep.estimators.ladders import linear_betas
from bmrep.experiments.carlson2016.base import base_bias_for
from bmrep.experiments.carlson2016.fig4 import fig4_temperatures
from bmrep.experiments.carlson2016.shards import frame_arrays
from bmrep.io import load_model, load_npz, save_npz
from bmrep.models.rbm import RBM
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
rbm = RBM.from_params(load_model(sm.input.model)[0])
bb = base_bias_for(sm.params.base, load_npz(sm.input.data)["X_train"], sm.params.pseudo_count)
curve = load_npz(sm.input.curve)["log_z"]
df = fig4_temperatures(rbm, bb, int(sm.wildcards.K), cfg, int(sm.params.seed), (linear_betas(curve.size), curve))
log.info("\n%s", df.groupby("method")["estimate"].describe().to_string())
save_npz(sm.output.npz, **frame_arrays(df))
