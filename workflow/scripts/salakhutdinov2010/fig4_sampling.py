"""Figure 4 (left, middle): Gibbs vs adaptive-ST samples, class switches, temperature trajectory."""

import numpy as np

from bmrep.io import load_model, load_npz, save_npz, write_json
from bmrep.models.dbm import DBM
from bmrep.papers.salakhutdinov2010.common import split_mnist
from bmrep.papers.salakhutdinov2010.plots import plot_samples, plot_temperature
from bmrep.papers.salakhutdinov2010.sampling import (
    logistic_classifier,
    sample_sequences,
    temperature_trajectories,
)
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
s = cfg["samples"]
X, y, X_test, y_test = split_mnist(load_npz(sm.input.data), cfg["n_validation"])
arrays, meta = load_model(sm.input.model)
dbm = DBM.from_params(arrays)
classify = logistic_classifier(X, y, s["classifier"]["C"], s["classifier"]["max_iter"])
accuracy = float((classify(X_test) == y_test).mean())
log.info("logistic-regression classifier: test accuracy %.4f", accuracy)
out = sample_sequences(dbm, s, classify, sm.params.seed)
k_traces = temperature_trajectories(dbm, s, sm.params.seed)
k_trace = k_traces[0]
summary = {
    "model": meta.get("algorithm"),
    "model_seed": meta.get("repeat"),
    "classifier": "logistic regression",
    "classifier_test_accuracy": accuracy,
    "n_chains": s["n_chains"],
    "k_traces": k_traces,
    "levels_visited_per_particle": [int(np.unique(k).size) for k in k_traces],
    "gibbs_switches": out["gibbs_switches"],
    "ast_switches": out["ast_switches"],
    "classify_every": s["classify_every"],
    "k_trace": k_trace,
    "levels_visited": int(np.unique(k_trace).size),  # the plotted particle
    "n_betas": s["n_betas"],
    **{k: out[k] for k in ("gibbs_column_switches", "ast_column_switches") if k in out},
}
log.info(
    "switches: Gibbs %s, adaptive ST %s; levels visited %d",
    out["gibbs_switches"],
    out["ast_switches"],
    summary["levels_visited"],
)
save_npz(sm.output.npz, **out)
write_json(sm.output.summary, summary)
cap = caption(
    sm.params.profile,
    model=f"{meta.get('algorithm')} (seed 0)",
    chains=s["n_chains"],
    particles=f"{s['n_particles']} (one shown)",
    classifier=f"logistic regression, test accuracy {accuracy:.3f}",
    burn_in=s["burn_in"],
    gap=s["gap"],
    betas=f"{s['n_betas']} in [{s['beta_min']}, 1]",
    gamma=s["gamma"],
)
plot_samples(out["gibbs_images"], out["ast_images"], sm.output.samples, cap, s["gap"])
plot_temperature(k_trace, s["n_betas"], sm.output.temperature, cap)
