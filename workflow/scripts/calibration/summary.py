"""The calibration study's tables (replicates, summary, likelihoods) and figures."""

from bmrep.io import concat_frames, load_model, load_npz, write_csv, write_text
from bmrep.papers.calibration.plots import plot_coverage, plot_rmse
from bmrep.papers.calibration.summary import (
    calibration_summary,
    likelihood_table,
    which_estimator,
    with_corrected_raise,
)
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, _ = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
k = sm.params.caption
table = concat_frames(load_npz(p) for p in sm.input.shards)
table = table.sort_values(["model", "group", "sweeps", "replicate"], kind="stable").reset_index(drop=True)
table = with_corrected_raise(table, k["n_chains"])
summary = calibration_summary(table, k["n_chains"])
log.info("\n%s", summary.to_string())
advice = which_estimator(summary, sm.params.trained)
log.info("%s", advice)
write_text(sm.output.advice, advice + "\n")
metas = [load_model(p)[1] for p in sm.input.models]
write_csv(sm.output.estimates, table)
write_csv(sm.output.summary, summary)
write_csv(sm.output.likelihoods, likelihood_table([m for m in metas if m["kind"] == "trained"]))
text = caption(
    sm.params.profile, replicates=k["n_replicates"], chains=k["n_chains"], K=k["K"],
    RTS_init=f"{k['init']} + {k['init_iterations']}x{k['init_sweeps']} sweeps (in the budget)",
)  # fmt: skip
plot_rmse(summary, "sweeps", sm.output.rmse_sweeps, text, note=advice)
plot_rmse(summary, "cpu_seconds", sm.output.rmse_cpu, text)
plot_coverage(summary, sm.output.coverage, text)
