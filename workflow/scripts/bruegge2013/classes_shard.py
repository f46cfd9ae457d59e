"""Tables 3 and 4: train Artificial Modes RBMs with CD-k, count class changes under G and T."""

from bmrep.experiments.bruegge2013 import class_change_runs, make_benchmark
from bmrep.io import save_npz
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
w, p = snakemake.wildcards, snakemake.params  # noqa: F821
bench = make_benchmark(w.bench, p.seed, **cfg["data"])
cc = cfg["classes"]
settings = {k: cc[k] for k in ("n_steps", "n_starts", "max_steps")}
log.info("train %s, settings %s, repeats %s", cc["train"], settings, list(p.repeats))
save_npz(snakemake.output[0], **class_change_runs(bench, cc["train"], p.repeats, p.seed, settings))  # noqa: F821
