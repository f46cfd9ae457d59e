"""Fig. 3 truth bracket, one run: a long AIS (lower end) or RAISE (upper end) run on one model (resumable)."""

from bmrep.io import load_model, load_npz, write_csv
from bmrep.papers.carlson2016.fig3 import fig3_inputs, fig3_truth_run
from bmrep.pipeline.runtime import setup_job, training_checkpoint

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
rbm, bb, V = fig3_inputs(
    load_model(sm.input.model)[0], load_npz(sm.input.data), sm.params.base, sm.params.pseudo_count, int(sm.params.seed)
)
settings = dict(cfg, truth_sweeps=sm.params.truth_sweeps)
checkpoint = training_checkpoint(sm, log)  # every checkpoint_every.carlson2016_fig3_truth annealing steps
df = fig3_truth_run(
    rbm, bb, V, settings, sm.wildcards.method, int(sm.wildcards.run), int(sm.params.seed), sm.wildcards.model,
    checkpoint=checkpoint,
)  # fmt: skip
log.info("\n%s", df.to_string())
write_csv(sm.output.csv, df)
