# calibration: beyond the papers (issue 23, spec section 6). Every partition-function
# estimator of carlson2016 (AIS, RAISE, RTS, TS, TI x3, TI-RB, MBAR) against the exact
# log Z of 784-H RBMs (trained on MNIST with the carlson2016 recipe, or random of rising
# weight scale): one job per model (training + exact log Z, cached under
# results/models/calibration/), one job per (model, estimator group, shard of
# replicates), a summary job (tables and figures) and the claims.


validate(config["calibration"], "../schemas/calibration.schema.yaml")

CAL = paper_config("calibration")
CAL_MODELS = {}  # model name -> its budgets (sweeps per chain)
for _m in CAL["models"]:
    _name = f"{_m['kind']}_784x{_m['n_hidden']}" + (
        f"_w{float(_m['weight_scale']):g}" if _m["kind"] == "random" else ""
    )
    if _name in CAL_MODELS:
        raise ValueError(f"invalid config: calibration.models lists {_name} twice")
    if (_m["kind"] == "random") != ("weight_scale" in _m):
        raise ValueError(f"invalid config: calibration.models: {_name}: weight_scale is for random models only")
    CAL_MODELS[_name] = sorted(int(b) for b in _m["sweeps"])
CAL_TRAINED = [m for m in CAL_MODELS if m.startswith("trained_")]
CAL_GROUPS = ["AIS", "RAISE", "tempered"]
CAL_SHARDS = shards(CAL["n_replicates"], CAL["shard_size"])
_cal_init = (CAL["K"] - 2 if CAL["init"] == "ais" else 0) + CAL["init_iterations"] * CAL["init_sweeps"]
if min(min(b) for b in CAL_MODELS.values()) <= _cal_init:
    raise ValueError(
        f"invalid config: calibration: every budget must exceed the tempered run's {_cal_init} initial sweeps"
    )
# What each job's script reads (a change to another key does not rerun it).
CAL_MODEL_CFG = settings("calibration", "training", "base_pseudo_count", "n_chains", "exact_chunk_bits")
CAL_RUN_CFG = settings(
    "calibration", "n_chains", "dtype", "K", "init", "init_iterations", "init_sweeps", "mbar_max_samples"
)
CAL_CAPTION = settings(
    "calibration", "models", "n_replicates", "n_chains", "K", "init", "init_iterations", "init_sweeps", "training"
)

CAL_FIGS = [figures(f"calibration/{f}.png") for f in ("rmse_sweeps", "rmse_cpu", "coverage")]
PAPER_FIGURES["calibration"] += CAL_FIGS


rule calibration_model:
    input:
        data=lambda wc: [data("mnist_binary.npz")] if wc.cmodel.startswith("trained_") else [],
    output:
        model=results("models/calibration/{cmodel}.npz"),
    log:
        logs("calibration/model_{cmodel}.log"),
    benchmark:
        benchmarks("calibration/model_{cmodel}.tsv")
    wildcard_constraints:
        cmodel=r"(trained|random)_784x\d+(_w[0-9.]+)?",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("calibration/model.py"),
        cfg=CAL_MODEL_CFG,
        seed=SEED,
    script:
        "../scripts/calibration/model.py"


rule calibration_shard:
    input:
        model=rules.calibration_model.output.model,
    output:
        npz=results("calibration/shards/{cmodel}_{group}_{shard}.npz"),
    log:
        logs("calibration/shard_{cmodel}_{group}_{shard}.log"),
    benchmark:
        benchmarks("calibration/shard_{cmodel}_{group}_{shard}.tsv")
    wildcard_constraints:
        cmodel=r"(trained|random)_784x\d+(_w[0-9.]+)?",
        group="|".join(CAL_GROUPS),
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("calibration/shard.py"),
        cfg=CAL_RUN_CFG,
        seed=SEED,
        budgets=lambda wc: CAL_MODELS[wc.cmodel],
        replicates=lambda wc: list(shard_repeats(CAL["n_replicates"], CAL["shard_size"], wc.shard)),
    script:
        "../scripts/calibration/shard.py"


rule calibration_summary:
    input:
        shards=expand(rules.calibration_shard.output.npz, cmodel=list(CAL_MODELS), group=CAL_GROUPS, shard=CAL_SHARDS),
        models=expand(rules.calibration_model.output.model, cmodel=list(CAL_MODELS)),
    output:
        estimates=results("calibration/estimates.csv"),
        summary=report(
            results("calibration/summary.csv"), caption="../report/calibration_summary.rst", category="calibration"
        ),
        advice=report(
            results("calibration/which_estimator.txt"),
            caption="../report/calibration_which_estimator.rst",
            category="calibration",
        ),
        likelihoods=report(
            results("calibration/likelihoods.csv"),
            caption="../report/calibration_likelihoods.rst",
            category="calibration",
        ),
        rmse_sweeps=report(
            figures("calibration/rmse_sweeps.png"), caption="../report/calibration_rmse.rst", category="calibration"
        ),
        rmse_cpu=report(
            figures("calibration/rmse_cpu.png"), caption="../report/calibration_rmse.rst", category="calibration"
        ),
        coverage=report(
            figures("calibration/coverage.png"), caption="../report/calibration_coverage.rst", category="calibration"
        ),
    log:
        logs("calibration/summary.log"),
    benchmark:
        benchmarks("calibration/summary.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("calibration/summary.py"),
        caption=CAL_CAPTION,
        trained=CAL_TRAINED,
        profile=PROFILE,
    script:
        "../scripts/calibration/summary.py"


rule calibration_claims:
    input:
        estimates=rules.calibration_summary.output.estimates,
    output:
        claims_file("calibration"),
    log:
        logs("calibration/claims.log"),
    benchmark:
        benchmarks("calibration/claims.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("calibration/claims.py"),
        settings=dict(models=CAL_MODELS, trained=CAL_TRAINED, n_chains=CAL["n_chains"]),
        profile=PROFILE,
    script:
        "../scripts/calibration/claims.py"


PAPER_TARGETS["calibration"] += [*rules.calibration_summary.output]


rule calibration:
    input:
        PAPER_TARGETS["calibration"],
        claims_file("calibration"),
