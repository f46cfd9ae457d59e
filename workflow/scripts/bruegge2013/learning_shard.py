"""Table 1 / Fig. 3 (bottom): log-likelihood curves of one (benchmark, algorithm, operator, lr) shard."""

import numpy as np

from bmrep.io import load_npz, save_npz
from bmrep.papers.bruegge2013.benchmarks import make_benchmark
from bmrep.papers.bruegge2013.train import learning_curves
from bmrep.pipeline.runtime import setup_job, training_checkpoint

log, _ = setup_job(snakemake)  # noqa: F821
w, p = snakemake.wildcards, snakemake.params  # noqa: F821
mnist = load_npz(snakemake.input.mnist)["X_train"] if w.bench.startswith("mnist") else None  # noqa: F821
bench = make_benchmark(w.bench, p.seed, mnist=mnist, **p.data)
log.info("recipe %s, repeats %s", p.recipe, list(p.repeats))
checkpoint = training_checkpoint(snakemake, log)  # noqa: F821
updates, curves = learning_curves(bench, p.recipe, w.op, p.repeats, p.seed, p.eval_every, checkpoint)
save_npz(snakemake.output.curves, updates=updates, curves=curves, repeats=np.array(list(p.repeats)))  # noqa: F821
