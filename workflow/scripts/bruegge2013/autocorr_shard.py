"""Table 2 / Fig. 4: train RBMs, sample each with G and T, autocorrelation of the energy."""

from bmrep.experiments.bruegge2013 import autocorrelation_runs, make_benchmark
from bmrep.io import load_npz, save_npz
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
w, p = snakemake.wildcards, snakemake.params  # noqa: F821
mnist = load_npz(snakemake.input.mnist)["X_train"] if w.bench.startswith("mnist") else None  # noqa: F821
bench = make_benchmark(w.bench, p.seed, mnist=mnist, **cfg["data"])
ac = cfg["autocorr"]
b = ac["models"][w.bench]
settings = {"n_steps": b["n_steps"], "burn_in": ac["burn_in"], "n_chains": ac["n_chains"], "max_lag": ac["max_lag"]}
log.info("train %s, sampling %s, repeats %s", b["train"], settings, list(p.repeats))
save_npz(snakemake.output[0], **autocorrelation_runs(bench, b["train"], p.repeats, p.seed, settings))  # noqa: F821
