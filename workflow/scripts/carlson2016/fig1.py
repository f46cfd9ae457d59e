"""Fig. 1: RTS initial iterations on the 784-10 MNIST RBM, with and without Rao-Blackwellization."""

from bmrep.experiments.carlson2016.base import base_bias_for
from bmrep.experiments.carlson2016.fig1 import fig1_initial_iterations
from bmrep.io import load_model, load_npz, write_csv
from bmrep.models.rbm import RBM
from bmrep.plotting.carlson2016 import plot_fig1
from bmrep.plotting.style import caption
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
rbm = RBM.from_params(load_model(sm.input.model)[0])
bb = base_bias_for(sm.params.base, load_npz(sm.input.data)["X_train"], sm.params.pseudo_count)
df = fig1_initial_iterations(rbm, bb, cfg, int(sm.params.seed))
write_csv(sm.output.csv, df)
plot_fig1(
    df,
    sm.output.png,
    caption(
        sm.params.profile,
        model=f"784x{cfg['n_hidden']}",
        K=cfg["K"],
        chains=cfg["n_chains"],
        sweeps_per_iteration=cfg["sweeps_per_iteration"],
        base=sm.params.base,
    ),
)
