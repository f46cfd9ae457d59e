"""Fig. 3 (bottom): learning curves of G and T in one setting, difference inset."""

import numpy as np

from bmrep.io import load_npz
from bmrep.papers.bruegge2013.plots import fig3_learning
from bmrep.papers.bruegge2013.recipes import recipe_label
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, _ = setup_job(snakemake)  # noqa: F821
p = snakemake.params  # noqa: F821
g, t = load_npz(snakemake.input.G), load_npz(snakemake.input.T)  # noqa: F821
# Bars and Stripes: the data distribution (uniform on 30 patterns) bounds the mean log-likelihood by -log 30
max_ll = -np.log(30) if p.benchmark == "bas" else None
label = recipe_label(p.recipe)
fig3_learning(
    g["updates"],
    g["curves"],
    t["curves"],
    snakemake.output[0],  # noqa: F821
    caption(p.profile, repeats=len(g["repeats"]), setting=f"{p.benchmark}, {label}"),
    max_ll=max_ll,
    title=f"{p.benchmark}: {label}",
)
