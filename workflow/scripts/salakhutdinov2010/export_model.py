"""The published model of one training (final parameters, CAST's records, its evaluation), for adopting later."""

from bmrep.io import copy_file, load_model, save_model
from bmrep.papers.salakhutdinov2010.trained import published_model
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
arrays, meta = published_model(*load_model(sm.input.model), cfg["evaluation"])
save_model(sm.output.model, arrays, meta)
for name in ("curve", "final"):
    copy_file(sm.input[name], sm.output[name])
log.info("published %s: %s", sm.output.model, ", ".join(sorted(arrays)))
