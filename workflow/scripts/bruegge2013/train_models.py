"""Table 2 / Fig. 4 or Tables 3 and 4: train the RBMs of one shard with Gibbs sampling (sampled by the next job)."""

from bmrep.io import load_npz, save_model
from bmrep.papers.bruegge2013.benchmarks import make_benchmark
from bmrep.papers.bruegge2013.train import train_models
from bmrep.pipeline.runtime import setup_job, training_checkpoint

log, _ = setup_job(snakemake)  # noqa: F821
w, p = snakemake.wildcards, snakemake.params  # noqa: F821
mnist = load_npz(snakemake.input.mnist)["X_train"] if w.bench.startswith("mnist") else None  # noqa: F821
bench = make_benchmark(w.bench, p.seed, mnist=mnist, **p.data)
log.info("%s models: train %s, repeats %s", p.stage, p.recipe, list(p.repeats))
checkpoint = training_checkpoint(snakemake, log)  # noqa: F821
models = train_models(bench, p.recipe, p.repeats, p.seed, p.stage, checkpoint)
meta = {"settings": {"benchmark": w.bench, "recipe": p.recipe, "data": p.data}, "seed": p.seed, "stage": p.stage}
save_model(snakemake.output.models, models, meta)  # noqa: F821
