"""Table 1 / Fig. 3 (bottom): log-likelihood curves of one (benchmark, algorithm, operator, lr) shard."""

import numpy as np

from bmrep.experiments.bruegge2013 import learning_curves, learning_recipe, make_benchmark
from bmrep.io import load_npz, save_npz
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
w, p = snakemake.wildcards, snakemake.params  # noqa: F821
mnist = load_npz(snakemake.input.mnist)["X_train"] if w.bench.startswith("mnist") else None  # noqa: F821
bench = make_benchmark(w.bench, p.seed, mnist=mnist, **cfg["data"])
recipe = learning_recipe(cfg["learning"], cfg["curve"], w.bench, w.alg, float(w.lr))
log.info("recipe %s, repeats %s", recipe, list(p.repeats))
updates, curves = learning_curves(bench, recipe, w.op, p.repeats, p.seed, cfg["learning"]["eval_every"])
save_npz(snakemake.output[0], updates=updates, curves=curves, repeats=np.array(list(p.repeats)))  # noqa: F821
