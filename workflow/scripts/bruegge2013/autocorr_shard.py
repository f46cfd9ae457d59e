"""Table 2 / Fig. 4: train RBMs, sample each with G and T, autocorrelation of the energy."""

from bmrep.experiments.bruegge2013.autocorrelation import autocorrelation_runs
from bmrep.experiments.bruegge2013.train import make_benchmark
from bmrep.io import load_npz, save_npz
from bmrep.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
w, p = snakemake.wildcards, snakemake.params  # noqa: F821
mnist = load_npz(snakemake.input.mnist)["X_train"] if w.bench.startswith("mnist") else None  # noqa: F821
bench = make_benchmark(w.bench, p.seed, mnist=mnist, **p.data)
log.info("train %s, sampling %s, repeats %s", p.recipe, p.sampling, list(p.repeats))
save_npz(snakemake.output.runs, **autocorrelation_runs(bench, p.recipe, p.repeats, p.seed, p.sampling))  # noqa: F821
