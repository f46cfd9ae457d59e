# bruegge2013: Tables 3 and 4 (included by bruegge2013.smk).


# Tables 3 and 4: trained in one job, sampled in the next (as Table 2).
rule bruegge2013_classes_models:
    output:
        models=results("models/bruegge2013/classes/{bench}/{shard}.npz"),
    log:
        logs("bruegge2013/classes_models/{bench}_{shard}.log"),
    benchmark:
        benchmarks("bruegge2013/classes_models/{bench}_{shard}.tsv")
    wildcard_constraints:
        bench="modes_0p1|modes_0p01",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("bruegge2013/train_models.py"),
        stage="classes",
        data=b13_data,
        recipe=B13_CC["train"],
        seed=SEED,
        repeats=lambda w: shard_repeats(B13_CC["n_rbms"], B13_CC["shard_size"], w.shard),
    script:
        "../scripts/bruegge2013/train_models.py"


rule bruegge2013_classes_shard:
    input:
        models=rules.bruegge2013_classes_models.output.models,
    output:
        runs=results("bruegge2013/shards/classes/{bench}/{shard}.npz"),
    log:
        logs("bruegge2013/classes/{bench}_{shard}.log"),
    benchmark:
        benchmarks("bruegge2013/classes/{bench}_{shard}.tsv")
    wildcard_constraints:
        bench="modes_0p1|modes_0p01",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("bruegge2013/classes_shard.py"),
        sampling=settings("bruegge2013.classes", "n_steps", "n_starts", "max_steps"),
        seed=SEED,
    script:
        "../scripts/bruegge2013/classes_shard.py"


b13_classes_shards = lambda bench: expand(rules.bruegge2013_classes_shard.output.runs, bench=bench, shard=B13_CC_SHARDS)


rule bruegge2013_table3:
    input:
        [f for b in B13_CC["benchmarks"] for f in b13_classes_shards(b)],
    output:
        table=results("bruegge2013/table3.csv"),
    log:
        logs("bruegge2013/table3.log"),
    benchmark:
        benchmarks("bruegge2013/table3.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("bruegge2013/table3.py"),
        benches=[b for b in B13_CC["benchmarks"] for _ in B13_CC_SHARDS],
    script:
        "../scripts/bruegge2013/table3.py"


rule bruegge2013_table4:
    input:
        [f for b in B13_CC["benchmarks"] for f in b13_classes_shards(b)],
    output:
        table=results("bruegge2013/table4.csv"),
    log:
        logs("bruegge2013/table4.log"),
    benchmark:
        benchmarks("bruegge2013/table4.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("bruegge2013/table4.py"),
        benches=[b for b in B13_CC["benchmarks"] for _ in B13_CC_SHARDS],
        max_steps=B13_CC["max_steps"],
    script:
        "../scripts/bruegge2013/table4.py"
