"""Fig. 3 (bottom): learning curves of G and T in one setting, difference inset."""

import numpy as np

from bmrep.experiments.bruegge2013 import learning_recipe, recipe_label
from bmrep.io import load_npz
from bmrep.plotting.bruegge2013 import fig3_learning
from bmrep.plotting.style import caption
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
g, t = load_npz(snakemake.input.G), load_npz(snakemake.input.T)  # noqa: F821
c = cfg["curve"]
# Bars and Stripes: the data distribution (uniform on 30 patterns) bounds the mean log-likelihood by -log 30
max_ll = -np.log(30) if c["benchmark"] == "bas" else None
label = recipe_label(learning_recipe(cfg["learning"], c, c["benchmark"], c["algorithm"], c["lr"]))
fig3_learning(g["updates"], g["curves"], t["curves"], snakemake.output[0],  # noqa: F821
              caption(snakemake.params.profile, repeats=len(g["repeats"]), setting=f"{c['benchmark']}, {label}"),  # noqa: F821
              max_ll=max_ll, title=f"{c['benchmark']}: {label}")
