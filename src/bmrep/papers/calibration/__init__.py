"""Beyond the papers (issue 23, spec section 6): partition-function estimators calibrated against exact log Z.

RBMs 784-H with few hidden units (trained on binarised MNIST with the
carlson2016 recipe, or random of rising weight scale) have an exact log Z by
enumerating the hidden layer. Every estimator of section 4 runs on them at
matched budgets (Gibbs sweeps per chain), replicated independently, so its
bias, RMSE, the coverage of its reported error and its CPU cost are measured
against the truth rather than against another estimate.

- :mod:`.models`: the models, their base p1, RAISE's starting points and exact log Z.
- :mod:`.estimators`: one run of an estimator group (AIS, RAISE or one tempered run) at one budget.
- :mod:`.replicates`: a shard's replicates, with errors and coverage against the exact value.
- :mod:`.summary`: bias, RMSE, coverage and CPU seconds per (model, estimator, budget).
- :mod:`.claims`: the study's claims; :mod:`.plots`: its figures.

Nothing is imported here: a job's import closure holds only the stage it runs.
"""

SECTION = "calibration"
# The estimator groups (one run each: AIS, RAISE, or one tempered run read seven ways) and their methods.
GROUPS = {
    "AIS": ("AIS",),
    "RAISE": ("RAISE",),
    "tempered": ("RTS", "TS", "TI-riemann", "TI-trapezoid", "TI-trapezoid-corrected", "TI-RB", "MBAR"),
}
# RAISE with each chain's Jensen gap taken off (spec section 6, "Decided after measurement"): derived from
# RAISE's replicates by :func:`.summary.corrected_raise`, shown beside RAISE in every table and figure.
CORRECTED_RAISE = "RAISE-corrected"
METHODS = ("AIS", "RAISE", CORRECTED_RAISE, *GROUPS["tempered"])
COVERAGE_Z = 2.0  # the reported interval is estimate +- 2 stated standard errors (nominal 95 %)
