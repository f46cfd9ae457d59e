# salakhutdinov2010: the AIS calibration (included by salakhutdinov2010.smk): an enumerable DBM (784-12-12)
# trained like the large ones, independent AIS replicates of its log Z with the profile's final AIS against
# the exact value, their diagnostics, and the ladder selection on a second such DBM (not in the default targets).


S10_EXACT = S10["exact_check"]
S10_EXACT_SHARDS = shards(S10_EXACT["n_replicates"], S10_EXACT["shard_size"])
# The enumerable DBMs' recipe: the calibration's (seed SEED) and the ladder selection's (exact_check.selection_seed).
S10_EXACT_MODEL_CFG = {
    **settings("salakhutdinov2010", "n_validation", "batch_size", "pretrain"),
    "train": settings("salakhutdinov2010.train", "lr_numerator", "lr_offset"),
    "n_mean_field": S10["evaluation"]["n_mean_field"],
    "exact_check": settings("salakhutdinov2010.exact_check", "n_hidden1", "n_hidden2", "n_updates", "n_test"),
}
S10_SELECTION_SEED = int(S10_EXACT["selection_seed"])
if S10_SELECTION_SEED == SEED:
    raise ValueError(
        f"invalid config: salakhutdinov2010.exact_check.selection_seed: {SEED} is the seed of the calibration's own "
        "DBM; the AIS ladder must be chosen on another one"
    )


rule salakhutdinov2010_exact_check_model:
    input:
        data=data("mnist_stochastic.npz"),
    output:
        model=results("models/salakhutdinov2010/exact_check.npz"),
        exact=results("salakhutdinov2010/exact_check/exact.json"),
    log:
        logs("salakhutdinov2010/exact_check_model.log"),
    benchmark:
        benchmarks("salakhutdinov2010/exact_check_model.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/exact_check_model.py"),
        cfg=S10_EXACT_MODEL_CFG,
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/exact_check_model.py"


rule salakhutdinov2010_selection_model:
    input:
        data=data("mnist_stochastic.npz"),
    output:
        model=results("models/salakhutdinov2010/exact_check_selection.npz"),
        exact=results("salakhutdinov2010/exact_check/selection_exact.json"),
    log:
        logs("salakhutdinov2010/selection_model.log"),
    benchmark:
        benchmarks("salakhutdinov2010/selection_model.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/exact_check_model.py"),
        cfg=S10_EXACT_MODEL_CFG,
        seed=S10_SELECTION_SEED,
    script:
        "../scripts/salakhutdinov2010/exact_check_model.py"


rule salakhutdinov2010_ladder_selection:
    input:
        model=rules.salakhutdinov2010_selection_model.output.model,
        exact=rules.salakhutdinov2010_selection_model.output.exact,
    output:
        table=results("salakhutdinov2010/ais_ladder_selection.csv"),
    log:
        logs("salakhutdinov2010/ladder_selection.log"),
    benchmark:
        benchmarks("salakhutdinov2010/ladder_selection.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        **S10_FINAL_AIS,
        code=code_version("salakhutdinov2010/ladder_selection.py"),
        cfg=settings("salakhutdinov2010.exact_check", "selection"),
        seed=S10_SELECTION_SEED,
    script:
        "../scripts/salakhutdinov2010/ladder_selection.py"


rule salakhutdinov2010_exact_check_shard:
    input:
        model=rules.salakhutdinov2010_exact_check_model.output.model,
    output:
        replicates=results("salakhutdinov2010/shards/exact_check/{shard}.npz"),
    log:
        logs("salakhutdinov2010/exact_check_shard_{shard}.log"),
    benchmark:
        benchmarks("salakhutdinov2010/exact_check_shard_{shard}.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        **S10_FINAL_AIS,
        code=code_version("salakhutdinov2010/exact_check_shard.py"),
        repeats=lambda w: shard_repeats(S10_EXACT["n_replicates"], S10_EXACT["shard_size"], w.shard),
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/exact_check_shard.py"


rule salakhutdinov2010_exact_check_diagnostics:
    input:
        model=rules.salakhutdinov2010_exact_check_model.output.model,
    output:
        json=results("salakhutdinov2010/exact_check/diagnostics.json"),
    log:
        logs("salakhutdinov2010/exact_check_diagnostics.log"),
    benchmark:
        benchmarks("salakhutdinov2010/exact_check_diagnostics.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        **S10_FINAL_AIS,
        code=code_version("salakhutdinov2010/exact_check_diagnostics.py"),
        cfg=settings("salakhutdinov2010.exact_check", "n_profile", "ais_ladder", "ais_ladder_schedules"),
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/exact_check_diagnostics.py"


rule salakhutdinov2010_exact_check:
    input:
        exact=rules.salakhutdinov2010_exact_check_model.output.exact,
        shards=expand(rules.salakhutdinov2010_exact_check_shard.output.replicates, shard=S10_EXACT_SHARDS),
        diagnostics=rules.salakhutdinov2010_exact_check_diagnostics.output.json,
    output:
        json=results("salakhutdinov2010/exact_check.json"),
        fig=report(
            figures("salakhutdinov2010/ais_exact_check.png"),
            caption="../report/salakhutdinov2010_ais_exact_check.rst",
            category="salakhutdinov2010",
        ),
    log:
        logs("salakhutdinov2010/exact_check.log"),
    benchmark:
        benchmarks("salakhutdinov2010/exact_check.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        **S10_FINAL_AIS,
        code=code_version("salakhutdinov2010/exact_check.py"),
        cfg=settings("salakhutdinov2010", "exact_check"),
        pool=S10["evaluation"]["final_replicates"],  # Table 1 pools this many replicates' runs into one log Z
        tolerance=S10_CALIBRATION_TOLERANCE,
        seed=SEED,
        profile=PROFILE,
    script:
        "../scripts/salakhutdinov2010/exact_check.py"
