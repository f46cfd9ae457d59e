# Brügge, Fischer & Igel (2013): the flip-the-state transition operator.
# Spec section 5: fig3_slem, table1 + fig3_learning, table2 + fig4_acf, table3, table4.
# Every repeat is keyed by its index (never by shard), so sharding does not change numbers.

validate(config["bruegge2013"], "../schemas/bruegge2013.schema.yaml")

B13 = paper_config("bruegge2013")
B13_LEARN = B13["learning"]
B13_AC = B13["autocorr"]
B13_CC = B13["classes"]


# Helpers as lambdas (the linter wants no functions in rule files).
b13_lr = lambda lr: f"{float(lr):g}"
B13_LEARN_KEYS = [
    (bench, alg, op, b13_lr(lr))
    for bench in B13_LEARN["benchmarks"]
    for alg in B13_LEARN["algorithms"]
    for op in ["G", "T"]
    for lr in B13_LEARN["learning_rates"]
]
B13_LEARN_SHARDS = shards(B13_LEARN["n_repeats"], B13_LEARN["shard_size"])
b13_learning_shards = lambda bench, alg, op, lr: expand(
    results("bruegge2013/shards/learning/{bench}/{alg}_{op}_lr{lr}/{shard}.npz"),
    bench=bench, alg=alg, op=op, lr=lr, shard=B13_LEARN_SHARDS,
)
b13_autocorr_shards = lambda bench: expand(
    results("bruegge2013/shards/autocorr/{bench}/{shard}.npz"),
    bench=bench, shard=shards(B13_AC["models"][bench]["n_rbms"], B13_AC["shard_size"]),
)
b13_classes_shards = lambda bench: expand(
    results("bruegge2013/shards/classes/{bench}/{shard}.npz"),
    bench=bench, shard=shards(B13_CC["n_rbms"], B13_CC["shard_size"]),
)
# MNIST benchmarks read the binary MNIST file; the toy sets are generated in the job.
b13_mnist = lambda w: {"mnist": data("mnist_binary.npz")} if w.bench.startswith("mnist") else {}


B13_FIGS = [figures("bruegge2013/fig3_slem.png"), figures("bruegge2013/fig3_learning.png")]
if "mnist500" in B13_AC["benchmarks"]:
    B13_FIGS.append(figures("bruegge2013/fig4_acf.png"))
PAPER_FIGURES["bruegge2013"] += B13_FIGS
PAPER_TARGETS["bruegge2013"] += B13_FIGS + [
    results("bruegge2013/fig3_slem.csv"),
    results("bruegge2013/table1.csv"),
    results("bruegge2013/table2.csv"),
    results("bruegge2013/table3.csv"),
    results("bruegge2013/table4.csv"),
]


B13_BENCH = "bas|modes_0p1|modes_0p01|mnist|mnist500"


rule bruegge2013_slem_shard:
    wildcard_constraints:
        size=r"\d+",
    output:
        results("bruegge2013/shards/slem/{size}.csv"),
    conda:
        CONDA_ENV
    log:
        logs("bruegge2013/slem_{size}.log"),
    threads: 1
    params:
        code=code_version("bruegge2013/slem_shard.py"),
        cfg=B13["slem"],
        seed=SEED,
    script:
        "../scripts/bruegge2013/slem_shard.py"


rule bruegge2013_fig3_slem:
    input:
        expand(results("bruegge2013/shards/slem/{size}.csv"), size=B13["slem"]["sizes"]),
    output:
        csv=results("bruegge2013/fig3_slem.csv"),
        fig=report(figures("bruegge2013/fig3_slem.png"), caption="../report/bruegge2013_fig3_slem.rst", category="bruegge2013"),
    conda:
        CONDA_ENV
    log:
        logs("bruegge2013/fig3_slem.log"),
    params:
        code=code_version("bruegge2013/fig3_slem.py"),
        cfg=B13["slem"],
        profile=PROFILE,
    script:
        "../scripts/bruegge2013/fig3_slem.py"


rule bruegge2013_learning_shard:
    wildcard_constraints:
        bench=B13_BENCH,
        alg="cd|pcd|pt",
        op="G|T",
        lr=r"[0-9.]+",
    input:
        unpack(b13_mnist),
    output:
        results("bruegge2013/shards/learning/{bench}/{alg}_{op}_lr{lr}/{shard}.npz"),
    conda:
        CONDA_ENV
    log:
        logs("bruegge2013/learning/{bench}_{alg}_{op}_lr{lr}_{shard}.log"),
    threads: 1
    params:
        code=code_version("bruegge2013/learning_shard.py"),
        cfg=B13,
        seed=SEED,
        repeats=lambda w: shard_repeats(B13_LEARN["n_repeats"], B13_LEARN["shard_size"], w.shard),
    script:
        "../scripts/bruegge2013/learning_shard.py"


rule bruegge2013_table1:
    input:
        [f for key in B13_LEARN_KEYS for f in b13_learning_shards(*key)],
    output:
        table=results("bruegge2013/table1.csv"),
        runs=results("bruegge2013/learning_runs.csv"),
    conda:
        CONDA_ENV
    log:
        logs("bruegge2013/table1.log"),
    params:
        code=code_version("bruegge2013/table1.py"),
        cfg=B13,
        settings=[key for key in B13_LEARN_KEYS for _ in B13_LEARN_SHARDS],
    script:
        "../scripts/bruegge2013/table1.py"


rule bruegge2013_fig3_learning:
    input:
        G=b13_learning_shards(B13["curve"]["benchmark"], B13["curve"]["algorithm"], "G", b13_lr(B13["curve"]["lr"]))[0],
        T=b13_learning_shards(B13["curve"]["benchmark"], B13["curve"]["algorithm"], "T", b13_lr(B13["curve"]["lr"]))[0],
    output:
        report(figures("bruegge2013/fig3_learning.png"), caption="../report/bruegge2013_fig3_learning.rst", category="bruegge2013"),
    conda:
        CONDA_ENV
    log:
        logs("bruegge2013/fig3_learning.log"),
    params:
        code=code_version("bruegge2013/fig3_learning.py"),
        cfg=B13,
        profile=PROFILE,
    script:
        "../scripts/bruegge2013/fig3_learning.py"


rule bruegge2013_autocorr_shard:
    wildcard_constraints:
        bench=B13_BENCH,
    input:
        unpack(b13_mnist),
    output:
        results("bruegge2013/shards/autocorr/{bench}/{shard}.npz"),
    conda:
        CONDA_ENV
    log:
        logs("bruegge2013/autocorr/{bench}_{shard}.log"),
    threads: 1
    params:
        code=code_version("bruegge2013/autocorr_shard.py"),
        cfg=B13,
        seed=SEED,
        repeats=lambda w: shard_repeats(B13_AC["models"][w.bench]["n_rbms"], B13_AC["shard_size"], w.shard),
    script:
        "../scripts/bruegge2013/autocorr_shard.py"


rule bruegge2013_table2:
    input:
        [f for b in B13_AC["benchmarks"] for f in b13_autocorr_shards(b)],
    output:
        table=results("bruegge2013/table2.csv"),
        chains=results("bruegge2013/autocorr_chains.csv"),
    conda:
        CONDA_ENV
    log:
        logs("bruegge2013/table2.log"),
    params:
        code=code_version("bruegge2013/table2.py"),
        cfg=B13,
        benches=[b for b in B13_AC["benchmarks"] for _ in b13_autocorr_shards(b)],
    script:
        "../scripts/bruegge2013/table2.py"


rule bruegge2013_fig4_acf:
    input:
        b13_autocorr_shards("mnist500") if "mnist500" in B13_AC["benchmarks"] else [],
    output:
        report(figures("bruegge2013/fig4_acf.png"), caption="../report/bruegge2013_fig4_acf.rst", category="bruegge2013"),
    conda:
        CONDA_ENV
    log:
        logs("bruegge2013/fig4_acf.log"),
    params:
        code=code_version("bruegge2013/fig4_acf.py"),
        cfg=B13,
        profile=PROFILE,
    script:
        "../scripts/bruegge2013/fig4_acf.py"


rule bruegge2013_classes_shard:
    wildcard_constraints:
        bench="modes_0p1|modes_0p01",
    output:
        results("bruegge2013/shards/classes/{bench}/{shard}.npz"),
    conda:
        CONDA_ENV
    log:
        logs("bruegge2013/classes/{bench}_{shard}.log"),
    threads: 1
    params:
        code=code_version("bruegge2013/classes_shard.py"),
        cfg=B13,
        seed=SEED,
        repeats=lambda w: shard_repeats(B13_CC["n_rbms"], B13_CC["shard_size"], w.shard),
    script:
        "../scripts/bruegge2013/classes_shard.py"


for _b13_table in ["table3", "table4"]:

    rule:
        name:
            f"bruegge2013_{_b13_table}"
        input:
            [f for b in B13_CC["benchmarks"] for f in b13_classes_shards(b)],
        output:
            results(f"bruegge2013/{_b13_table}.csv"),
        conda:
            CONDA_ENV
        log:
            logs(f"bruegge2013/{_b13_table}.log"),
        params:
            code=code_version("bruegge2013/tables34.py"),
            cfg=B13,
            table=_b13_table,
            benches=[b for b in B13_CC["benchmarks"] for _ in b13_classes_shards(b)],
        script:
            "../scripts/bruegge2013/tables34.py"


rule bruegge2013_claims:
    input:
        slem=results("bruegge2013/fig3_slem.csv"),
        table1=results("bruegge2013/table1.csv"),
        table2=results("bruegge2013/table2.csv"),
        table3=results("bruegge2013/table3.csv"),
        table4=results("bruegge2013/table4.csv"),
    output:
        claims_file("bruegge2013"),
    conda:
        CONDA_ENV
    log:
        logs("bruegge2013/claims.log"),
    params:
        code=code_version("bruegge2013/claims.py"),
        cfg=B13,
        profile=PROFILE,
    script:
        "../scripts/bruegge2013/claims.py"


rule bruegge2013:
    input:
        PAPER_TARGETS["bruegge2013"],
        claims_file("bruegge2013"),
