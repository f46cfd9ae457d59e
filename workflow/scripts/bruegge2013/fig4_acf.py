"""Fig. 4: mean energy autocorrelation functions of G and T for the MNIST n=500 RBMs."""

import numpy as np

from bmrep.io import load_npz
from bmrep.papers.bruegge2013.plots import fig4_acf
from bmrep.papers.bruegge2013.recipes import recipe_label
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, _ = setup_job(snakemake)  # noqa: F821
p = snakemake.params  # noqa: F821
ds = [load_npz(f) for f in snakemake.input]  # noqa: F821
acf_G = np.concatenate([d["acf_G"] for d in ds])
acf_T = np.concatenate([d["acf_T"] for d in ds])
fig4_acf(
    acf_G,
    acf_T,
    snakemake.output[0],  # noqa: F821
    caption(
        p.profile,
        rbms=p.model["n_rbms"],
        chains_per_rbm=p.n_chains,
        steps_per_chain=p.model["n_steps"],
        training=recipe_label({"n_temperatures": None, **p.model["train"]}),
    ),
)
