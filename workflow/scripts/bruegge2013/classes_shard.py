"""Tables 3 and 4: count the class changes of the trained Artificial Modes RBMs of one shard under G and T."""

from bmrep.io import load_npz, save_npz
from bmrep.papers.bruegge2013.class_changes import class_change_runs
from bmrep.papers.bruegge2013.models import unstack_models
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
w, p = snakemake.wildcards, snakemake.params  # noqa: F821
m = load_npz(snakemake.input.models)  # noqa: F821
log.info("sampling %s, repeats %s", p.sampling, m["repeat"].tolist())
runs = class_change_runs(w.bench, unstack_models(m), m["repeat"], p.seed, p.sampling)
save_npz(snakemake.output.runs, **runs)  # noqa: F821
