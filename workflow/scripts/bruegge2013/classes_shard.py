"""Tables 3 and 4: train Artificial Modes RBMs with CD-k, count class changes under G and T."""

from bmrep.experiments.bruegge2013.class_changes import class_change_runs
from bmrep.experiments.bruegge2013.train import make_benchmark
from bmrep.io import save_npz
from bmrep.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
w, p = snakemake.wildcards, snakemake.params  # noqa: F821
bench = make_benchmark(w.bench, p.seed, **p.data)
log.info("train %s, sampling %s, repeats %s", p.recipe, p.sampling, list(p.repeats))
save_npz(snakemake.output.runs, **class_change_runs(bench, p.recipe, p.repeats, p.seed, p.sampling))  # noqa: F821
