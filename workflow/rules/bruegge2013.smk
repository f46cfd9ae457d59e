# Brügge, Fischer & Igel (2013): the flip-the-state transition operator.
# Spec section 5: fig3_slem, table1 + fig3_learning, table2 + fig4_acf, table3, table4 (table3 and
# table4 in bruegge2013_classes.smk, included below).
# Every repeat is keyed by its index (never by shard), so sharding does not change numbers.
# Each rule receives only the settings its script reads (never the whole
# section), so a change to one table's or figure's settings reruns that
# table or figure and what consumes it, and no training upstream of it.

from bmrep.papers.bruegge2013.common import DATA_KEYS as B13_DATA_KEYS
from bmrep.papers.bruegge2013.recipes import learning_recipe as b13_learning_recipe

validate(config["bruegge2013"], "../schemas/bruegge2013.schema.yaml")

B13 = paper_config("bruegge2013")
B13_SLEM = B13["slem"]
B13_LEARN = B13["learning"]
B13_CURVE = B13["curve"]
B13_AC = B13["autocorr"]
B13_CC = B13["classes"]


# Helpers as lambdas (the linter wants no functions in rule files).
b13_lr = lambda lr: f"{float(lr):g}"
# The data settings one benchmark reads (the MNIST ones do not retrain the toy sets).
b13_data = lambda w: settings("bruegge2013.data", *(k for k in B13_DATA_KEYS[w.bench] if k in B13["data"]))
# MNIST benchmarks read the binary MNIST file; the toy sets are generated in the job.
b13_mnist = lambda w: ({"mnist": data("mnist_binary.npz")} if w.bench.startswith("mnist") else {})
B13_LEARN_KEYS = [
    (bench, alg, op, b13_lr(lr))
    for bench in B13_LEARN["benchmarks"]
    for alg in B13_LEARN["algorithms"]
    for op in ["G", "T"]
    for lr in B13_LEARN["learning_rates"]
]
B13_LEARN_SHARDS = shards(B13_LEARN["n_repeats"], B13_LEARN["shard_size"])
B13_CURVE_RECIPE = b13_learning_recipe(
    B13_LEARN,
    B13_CURVE,
    B13_CURVE["benchmark"],
    B13_CURVE["algorithm"],
    B13_CURVE["lr"],
)
B13_AC_SHARDS = {b: shards(B13_AC["models"][b]["n_rbms"], B13_AC["shard_size"]) for b in B13_AC["benchmarks"]}
B13_CC_SHARDS = shards(B13_CC["n_rbms"], B13_CC["shard_size"])
B13_BENCH = "bas|modes_0p1|modes_0p01|mnist|mnist500"


rule bruegge2013_slem_shard:
    output:
        slems=results("bruegge2013/shards/slem/{size}.csv"),
    log:
        logs("bruegge2013/slem_{size}.log"),
    benchmark:
        benchmarks("bruegge2013/slem_{size}.tsv")
    wildcard_constraints:
        size=r"\d+",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("bruegge2013/slem_shard.py"),
        slem=settings("bruegge2013.slem", "c_values", "n_rbms", "blend_alpha"),
        seed=SEED,
    script:
        "../scripts/bruegge2013/slem_shard.py"


rule bruegge2013_fig3_slem:
    input:
        expand(rules.bruegge2013_slem_shard.output.slems, size=B13_SLEM["sizes"]),
    output:
        csv=results("bruegge2013/fig3_slem.csv"),
        fig=report(
            figures("bruegge2013/fig3_slem.png"),
            caption="../report/bruegge2013_fig3_slem.rst",
            category="bruegge2013",
        ),
    log:
        logs("bruegge2013/fig3_slem.log"),
    benchmark:
        benchmarks("bruegge2013/fig3_slem.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("bruegge2013/fig3_slem.py"),
        n_rbms=B13_SLEM["n_rbms"],
        profile=PROFILE,
    script:
        "../scripts/bruegge2013/fig3_slem.py"


rule bruegge2013_learning_shard:
    input:
        unpack(b13_mnist),
    output:
        curves=results("bruegge2013/shards/learning/{bench}/{alg}_{op}_lr{lr}/{shard}.npz"),
    log:
        logs("bruegge2013/learning/{bench}_{alg}_{op}_lr{lr}_{shard}.log"),
    benchmark:
        benchmarks("bruegge2013/learning/{bench}_{alg}_{op}_lr{lr}_{shard}.tsv")
    wildcard_constraints:
        bench=B13_BENCH,
        alg="cd|pcd|pt",
        op="G|T",
        lr=r"[0-9.]+",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("bruegge2013/learning_shard.py"),
        data=b13_data,
        recipe=lambda w: b13_learning_recipe(B13_LEARN, B13_CURVE, w.bench, w.alg, float(w.lr)),
        eval_every=B13_LEARN["eval_every"],
        seed=SEED,
        repeats=lambda w: shard_repeats(B13_LEARN["n_repeats"], B13_LEARN["shard_size"], w.shard),
    script:
        "../scripts/bruegge2013/learning_shard.py"


b13_learning_shards = lambda bench, alg, op, lr: expand(
    rules.bruegge2013_learning_shard.output.curves,
    bench=bench,
    alg=alg,
    op=op,
    lr=lr,
    shard=B13_LEARN_SHARDS,
)


rule bruegge2013_table1:
    input:
        [f for key in B13_LEARN_KEYS for f in b13_learning_shards(*key)],
    output:
        table=results("bruegge2013/table1.csv"),
        runs=results("bruegge2013/learning_runs.csv"),
    log:
        logs("bruegge2013/table1.log"),
    benchmark:
        benchmarks("bruegge2013/table1.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("bruegge2013/table1.py"),
        settings=[key for key in B13_LEARN_KEYS for _ in B13_LEARN_SHARDS],
    script:
        "../scripts/bruegge2013/table1.py"


rule bruegge2013_fig3_learning:
    input:
        G=b13_learning_shards(
            B13_CURVE["benchmark"],
            B13_CURVE["algorithm"],
            "G",
            b13_lr(B13_CURVE["lr"]),
        )[0],
        T=b13_learning_shards(
            B13_CURVE["benchmark"],
            B13_CURVE["algorithm"],
            "T",
            b13_lr(B13_CURVE["lr"]),
        )[0],
    output:
        report(
            figures("bruegge2013/fig3_learning.png"),
            caption="../report/bruegge2013_fig3_learning.rst",
            category="bruegge2013",
        ),
    log:
        logs("bruegge2013/fig3_learning.log"),
    benchmark:
        benchmarks("bruegge2013/fig3_learning.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("bruegge2013/fig3_learning.py"),
        benchmark=B13_CURVE["benchmark"],
        recipe=B13_CURVE_RECIPE,
        profile=PROFILE,
    script:
        "../scripts/bruegge2013/fig3_learning.py"


# Table 2 / Fig. 4: the RBMs are trained in one job and sampled in the next,
# so a change to a sampling setting (n_steps, burn_in, ...) does not retrain them.
rule bruegge2013_autocorr_models:
    input:
        unpack(b13_mnist),
    output:
        models=results("models/bruegge2013/autocorr/{bench}/{shard}.npz"),
    log:
        logs("bruegge2013/autocorr_models/{bench}_{shard}.log"),
    benchmark:
        benchmarks("bruegge2013/autocorr_models/{bench}_{shard}.tsv")
    wildcard_constraints:
        bench=B13_BENCH,
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("bruegge2013/train_models.py"),
        stage="autocorr",
        data=b13_data,
        recipe=lambda w: B13_AC["models"][w.bench]["train"],
        seed=SEED,
        repeats=lambda w: shard_repeats(B13_AC["models"][w.bench]["n_rbms"], B13_AC["shard_size"], w.shard),
    script:
        "../scripts/bruegge2013/train_models.py"


rule bruegge2013_autocorr_shard:
    input:
        unpack(b13_mnist),
        models=rules.bruegge2013_autocorr_models.output.models,
    output:
        runs=results("bruegge2013/shards/autocorr/{bench}/{shard}.npz"),
    log:
        logs("bruegge2013/autocorr/{bench}_{shard}.log"),
    benchmark:
        benchmarks("bruegge2013/autocorr/{bench}_{shard}.tsv")
    wildcard_constraints:
        bench=B13_BENCH,
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("bruegge2013/autocorr_shard.py"),
        data=b13_data,
        sampling=lambda w: {
            "n_steps": B13_AC["models"][w.bench]["n_steps"],
            **settings("bruegge2013.autocorr", "burn_in", "n_chains", "max_lag"),
        },
        seed=SEED,
    script:
        "../scripts/bruegge2013/autocorr_shard.py"


b13_autocorr_shards = lambda bench: expand(
    rules.bruegge2013_autocorr_shard.output.runs,
    bench=bench,
    shard=B13_AC_SHARDS.get(bench, []),
)


rule bruegge2013_table2:
    input:
        [f for b in B13_AC["benchmarks"] for f in b13_autocorr_shards(b)],
    output:
        table=results("bruegge2013/table2.csv"),
        chains=results("bruegge2013/autocorr_chains.csv"),
    log:
        logs("bruegge2013/table2.log"),
    benchmark:
        benchmarks("bruegge2013/table2.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("bruegge2013/table2.py"),
        benches=[b for b in B13_AC["benchmarks"] for _ in b13_autocorr_shards(b)],
    script:
        "../scripts/bruegge2013/table2.py"


rule bruegge2013_fig4_acf:
    input:
        b13_autocorr_shards("mnist500"),
    output:
        report(
            figures("bruegge2013/fig4_acf.png"),
            caption="../report/bruegge2013_fig4_acf.rst",
            category="bruegge2013",
        ),
    log:
        logs("bruegge2013/fig4_acf.log"),
    benchmark:
        benchmarks("bruegge2013/fig4_acf.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("bruegge2013/fig4_acf.py"),
        model=B13_AC["models"].get("mnist500"),
        n_chains=B13_AC["n_chains"],
        profile=PROFILE,
    script:
        "../scripts/bruegge2013/fig4_acf.py"


include: "bruegge2013_classes.smk"


# Tables 3 and 4 hold quartiles only: their paired claims read the per-RBM shards.
rule bruegge2013_claims:
    input:
        **{f"classes_{b}": b13_classes_shards(b) for b in B13_CC["benchmarks"]},
        slem=rules.bruegge2013_fig3_slem.output.csv,
        learning_runs=rules.bruegge2013_table1.output.runs,
        autocorr_chains=rules.bruegge2013_table2.output.chains,
        table4=rules.bruegge2013_table4.output.table,
    output:
        claims_file("bruegge2013"),
    log:
        logs("bruegge2013/claims.log"),
    benchmark:
        benchmarks("bruegge2013/claims.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("bruegge2013/claims.py"),
        settings={"learning": settings("bruegge2013.learning", "k")},
        profile=PROFILE,
    script:
        "../scripts/bruegge2013/claims.py"


B13_FIGS = [
    rules.bruegge2013_fig3_slem.output.fig,
    rules.bruegge2013_fig3_learning.output[0],
]
if "mnist500" in B13_AC["benchmarks"]:
    B13_FIGS.append(rules.bruegge2013_fig4_acf.output[0])
PAPER_FIGURES["bruegge2013"] += B13_FIGS
PAPER_TARGETS["bruegge2013"] += B13_FIGS + [
    rules.bruegge2013_fig3_slem.output.csv,
    rules.bruegge2013_table1.output.table,
    rules.bruegge2013_table2.output.table,
    rules.bruegge2013_table3.output.table,
    rules.bruegge2013_table4.output.table,
]


rule bruegge2013:
    input:
        PAPER_TARGETS["bruegge2013"],
        rules.bruegge2013_claims.output,
