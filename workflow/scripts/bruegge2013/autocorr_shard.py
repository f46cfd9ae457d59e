"""Table 2 / Fig. 4: sample each trained RBM of one shard with G and T, autocorrelation of the energy."""

from bmrep.io import load_npz, save_npz
from bmrep.papers.bruegge2013.autocorrelation import autocorrelation_runs
from bmrep.papers.bruegge2013.benchmarks import make_benchmark
from bmrep.papers.bruegge2013.models import unstack_models
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
w, p = snakemake.wildcards, snakemake.params  # noqa: F821
mnist = load_npz(snakemake.input.mnist)["X_train"] if w.bench.startswith("mnist") else None  # noqa: F821
# the chains start at training examples
bench = make_benchmark(w.bench, p.seed, mnist=mnist, **p.data)
m = load_npz(snakemake.input.models)  # noqa: F821
log.info("sampling %s, repeats %s", p.sampling, m["repeat"].tolist())
runs = autocorrelation_runs(bench, unstack_models(m), m["repeat"], p.seed, p.sampling)
save_npz(snakemake.output.runs, **runs)  # noqa: F821
