# salakhutdinov2010: Table 1's checks of the instrument on the large models (included by salakhutdinov2010.smk):
# nothing is exact on a 784-500-1000 DBM, so each check estimates its log Z again another way and Table 1's
# details state how far the model's final log Z (and its test bound) would move.


rule salakhutdinov2010_ladder_check:
    input:
        data=data("mnist_stochastic.npz"),
        model=expand(rules.salakhutdinov2010_train.output.model, repeat=0, allow_missing=True)[0],
    output:
        json=results("salakhutdinov2010/ladder_check/{algorithm}.json"),
    log:
        logs("salakhutdinov2010/ladder_check_{algorithm}.log"),
    benchmark:
        benchmarks("salakhutdinov2010/ladder_check_{algorithm}.tsv")
    wildcard_constraints:
        algorithm=S10_ALG_PATTERN,
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/ladder_check.py"),
        cfg=settings("salakhutdinov2010", "n_validation", "evaluation"),
        repeat=0,
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/ladder_check.py"


S10_RUNS_CHECK_KEY = ["runs_check"] if S10.get("runs_check") else []  # optional: not in the default


rule salakhutdinov2010_runs_check:
    input:
        data=data("mnist_stochastic.npz"),
        model=expand(rules.salakhutdinov2010_train.output.model, repeat=0, allow_missing=True)[0],
    output:
        json=results("salakhutdinov2010/runs_check/{algorithm}.json"),
    log:
        logs("salakhutdinov2010/runs_check_{algorithm}.log"),
    benchmark:
        benchmarks("salakhutdinov2010/runs_check_{algorithm}.tsv")
    wildcard_constraints:
        algorithm=S10_ALG_PATTERN,
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/runs_check.py"),
        cfg=settings("salakhutdinov2010", "n_validation", "evaluation", *S10_RUNS_CHECK_KEY),
        repeat=0,
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/runs_check.py"


rule salakhutdinov2010_instrument_check:
    input:
        data=data("mnist_stochastic.npz"),
        model=rules.salakhutdinov2010_train.output.model,
        final=rules.salakhutdinov2010_evaluate.output.final,
    output:
        json=results("salakhutdinov2010/instrument_check/seed{repeat}/{algorithm}.json"),
    log:
        logs("salakhutdinov2010/instrument_check_seed{repeat}_{algorithm}.log"),
    benchmark:
        benchmarks("salakhutdinov2010/instrument_check_seed{repeat}_{algorithm}.tsv")
    wildcard_constraints:
        algorithm=S10_ALG_PATTERN,
        repeat=r"\d+",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/instrument_check.py"),
        cfg=settings("salakhutdinov2010", "n_validation", "evaluation"),
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/instrument_check.py"


# Each Table 1 model's longer ladder and reverse AIS, where the profile sets evaluation.instrument_check
S10_INSTRUMENT_CHECKS = (
    pairs_expand(S10_RUNS, rules.salakhutdinov2010_instrument_check.output.json)
    if S10["evaluation"].get("instrument_check")
    else []
)


# Table 1's runs check, where the profile sets salakhutdinov2010.runs_check (read by the claims' details)
S10_RUNS_CHECKS = (
    expand(rules.salakhutdinov2010_runs_check.output.json, algorithm=S10_ALGS) if S10.get("runs_check") else []
)
