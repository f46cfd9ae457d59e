# saul1996: Saul, Jaakkola & Jordan (1996), mean field theory for sigmoid
# belief networks. Figure 2 (the logistic bound), Figure 5 (relative errors on
# 10000 random 2x4x6 networks, sharded), Tables 1-3 (digit classifiers, one
# 8x24x64 network per digit, dataset and seeded split; one training job per
# (dataset, split, digit); the splits are the tables' repeats).
#
# Each rule's params hold only the config keys its script reads (settings()), so a
# change to one figure's or table's setting reruns that job and what consumes
# it, never the training.


validate(config["saul1996"], "../schemas/saul1996.schema.yaml")

S96 = paper_config("saul1996")
S96_DATASETS = S96["classifier"]["datasets"]
S96_DATASET_RE = "|".join(["usps8", "mnist8", "digits8"])
S96_SPLITS = list(range(S96["classifier"]["n_splits"]))
S96_FIG5_SHARDS = shards(S96["fig5"]["n_networks"], S96["fig5"]["shard_size"])


rule saul1996_fig2:
    output:
        csv=results("saul1996/fig2.csv"),
        png=report(figures("saul1996/fig2.png"), caption="../report/saul1996_fig2.rst", category="saul1996"),
    log:
        logs("saul1996/fig2.log"),
    benchmark:
        benchmarks("saul1996/fig2.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("saul1996/fig2.py"),
        cfg=settings("saul1996.fig2", "n_xi"),
        profile=PROFILE,
    script:
        "../scripts/saul1996/fig2.py"


rule saul1996_fig5_shard:
    output:
        networks=results("saul1996/shards/fig5/{shard}.npz"),
    log:
        logs("saul1996/fig5_shard_{shard}.log"),
    benchmark:
        benchmarks("saul1996/fig5_shard_{shard}.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("saul1996/fig5_shard.py"),
        cfg=settings("saul1996.fig5", "n_networks", "shard_size", "sizes", "weight_range", "solver"),
        seed=SEED,
    script:
        "../scripts/saul1996/fig5_shard.py"


rule saul1996_fig5:
    input:
        networks=expand(rules.saul1996_fig5_shard.output.networks, shard=S96_FIG5_SHARDS),
    output:
        csv=results("saul1996/fig5_summary.csv"),
        png=report(figures("saul1996/fig5.png"), caption="../report/saul1996_fig5.rst", category="saul1996"),
    log:
        logs("saul1996/fig5.log"),
    benchmark:
        benchmarks("saul1996/fig5.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("saul1996/fig5.py"),
        cfg=settings("saul1996.fig5", "n_networks", "sizes", "weight_range"),
        profile=PROFILE,
    script:
        "../scripts/saul1996/fig5.py"


rule saul1996_split:
    input:
        data=data("{dataset}.npz"),
    output:
        data=results("saul1996/{dataset}/split{split}/data.npz"),
    log:
        logs("saul1996/split_{dataset}_{split}.log"),
    benchmark:
        benchmarks("saul1996/split_{dataset}_{split}.tsv")
    wildcard_constraints:
        dataset=S96_DATASET_RE,
        split=r"\d+",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("saul1996/split.py"),
        seed=SEED,
    script:
        "../scripts/saul1996/split.py"


rule saul1996_train:
    input:
        data=rules.saul1996_split.output.data,
    output:
        model=results("models/saul1996/{dataset}/split{split}/digit{digit}.npz"),
        bounds=results("saul1996/{dataset}/split{split}/test_bounds/digit{digit}.npz"),
    log:
        logs("saul1996/train_{dataset}_split{split}_digit{digit}.log"),
    benchmark:
        benchmarks("saul1996/train_{dataset}_split{split}_digit{digit}.tsv")
    wildcard_constraints:
        dataset=S96_DATASET_RE,
        split=r"\d+",
        digit=r"\d",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("saul1996/train.py"),
        cfg=settings("saul1996.classifier", "sizes", "learning_rate", "n_sweeps", "init_std", "solver"),
        seed=SEED,
    script:
        "../scripts/saul1996/train.py"


rule saul1996_split_tables:
    input:
        data=rules.saul1996_split.output.data,
        bounds=expand(rules.saul1996_train.output.bounds, digit=range(10), allow_missing=True),
    output:
        table1=results("saul1996/{dataset}/split{split}/table1_confusion.csv"),
        table2=results("saul1996/{dataset}/split{split}/table2_error_rates.csv"),
        table3=results("saul1996/{dataset}/split{split}/table3_scores.csv"),
    log:
        logs("saul1996/tables_{dataset}_split{split}.log"),
    benchmark:
        benchmarks("saul1996/tables_{dataset}_split{split}.tsv")
    wildcard_constraints:
        dataset=S96_DATASET_RE,
        split=r"\d+",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("saul1996/split_tables.py"),
        cfg=settings("saul1996.classifier", "backprop"),
        seed=SEED,
    script:
        "../scripts/saul1996/split_tables.py"


rule saul1996_tables:
    input:
        **{
            t: expand(rules.saul1996_split_tables.output[t], split=S96_SPLITS, allow_missing=True)
            for t in ("table1", "table2", "table3")
        },
    output:
        table1=results("saul1996/{dataset}/table1_confusion.csv"),
        table2=results("saul1996/{dataset}/table2_error_rates.csv"),
        table3=results("saul1996/{dataset}/table3_scores.csv"),
        table2_per_split=results("saul1996/{dataset}/table2_per_split.csv"),
        table3_per_split=results("saul1996/{dataset}/table3_per_split.csv"),
        png=report(
            figures("saul1996/{dataset}/table1_confusion.png"),
            caption="../report/saul1996_table1_confusion.rst",
            category="saul1996",
        ),
    log:
        logs("saul1996/tables_{dataset}.log"),
    benchmark:
        benchmarks("saul1996/tables_{dataset}.tsv")
    wildcard_constraints:
        dataset=S96_DATASET_RE,
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("saul1996/tables.py"),
        # sizes, sweeps, learning rate, init and splits only label the figure's caption
        cfg=settings("saul1996.classifier", "n_splits", "sizes", "learning_rate", "n_sweeps", "init_std"),
        profile=PROFILE,
    script:
        "../scripts/saul1996/tables.py"


rule saul1996_claims:
    input:
        **{
            f"{t}_{ds}": expand(rules.saul1996_tables.output[f"{t}_per_split"], dataset=ds)[0]
            for t in ("table2", "table3")
            for ds in S96_DATASETS
        },
        fig2=rules.saul1996_fig2.output.csv,
        fig5_networks=rules.saul1996_fig5.input.networks,
    output:
        claims_file("saul1996"),
    log:
        logs("saul1996/claims.log"),
    benchmark:
        benchmarks("saul1996/claims.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("saul1996/claims.py"),
        settings=settings("saul1996.classifier", "datasets"),
        profile=PROFILE,
    script:
        "../scripts/saul1996/claims.py"


# Plain paths (the outputs carry the report() flag, which only the producing rule needs).
S96_FIGURES = [
    str(rules.saul1996_fig2.output.png),
    str(rules.saul1996_fig5.output.png),
    *expand(rules.saul1996_tables.output.png, dataset=S96_DATASETS),
]
PAPER_FIGURES["saul1996"] += S96_FIGURES
PAPER_TARGETS["saul1996"] += [
    rules.saul1996_fig2.output.csv,
    rules.saul1996_fig5.output.csv,
    *expand(
        [
            rules.saul1996_tables.output[t]
            for t in ("table1", "table2", "table3", "table2_per_split", "table3_per_split")
        ],
        dataset=S96_DATASETS,
    ),
    *S96_FIGURES,
]


rule saul1996:
    input:
        PAPER_TARGETS["saul1996"],
        rules.saul1996_claims.output,
