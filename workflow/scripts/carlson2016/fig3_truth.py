"""Fig. 3 reference value for one model: average of a long RTS and a long AIS run."""

from bmrep.experiments.carlson2016.base import base_bias_for
from bmrep.experiments.carlson2016.fig3 import fig3_truth
from bmrep.io import load_model, load_npz, save_npz, write_csv
from bmrep.models.rbm import RBM
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
rbm = RBM.from_params(load_model(sm.input.model)[0])
bb = base_bias_for(sm.params.base, load_npz(sm.input.data)["X_train"], sm.params.pseudo_count)
df, curve = fig3_truth(rbm, bb, cfg, int(sm.params.seed), sm.wildcards.model)
log.info("\n%s", df.to_string())
write_csv(sm.output.csv, df)
save_npz(sm.output.curve, log_z=curve)
