# saul1996: Saul, Jaakkola & Jordan (1996), mean field theory for sigmoid
# belief networks. Figure 2 (the logistic bound), Figure 5 (relative errors on
# 10000 random 2x4x6 networks, sharded), Tables 1-3 (digit classifiers, one
# 8x24x64 network per digit and dataset; one training job per digit).


validate(config["saul1996"], "../schemas/saul1996.schema.yaml")

S96 = paper_config("saul1996")
S96_DATASETS = S96["classifier"]["datasets"]
S96_DATASET_RE = "|".join(["usps8", "mnist8", "digits8"])
S96_FIG5_SHARDS = shards(S96["fig5"]["n_networks"], S96["fig5"]["shard_size"])
S96_TABLE_FILES = ["table1_confusion.csv", "table2_error_rates.csv", "table3_scores.csv"]

PAPER_TARGETS["saul1996"] += [
    figures("saul1996/fig2.png"),
    results("saul1996/fig2.csv"),
    figures("saul1996/fig5.png"),
    results("saul1996/fig5_summary.csv"),
] + [results(f"saul1996/{ds}/{t}") for ds in S96_DATASETS for t in S96_TABLE_FILES] + [
    figures(f"saul1996/{ds}/table1_confusion.png") for ds in S96_DATASETS
]
PAPER_FIGURES["saul1996"] += [figures("saul1996/fig2.png"), figures("saul1996/fig5.png")] + [
    figures(f"saul1996/{ds}/table1_confusion.png") for ds in S96_DATASETS
]


rule saul1996_fig2:
    output:
        csv=results("saul1996/fig2.csv"),
        png=report(figures("saul1996/fig2.png"), caption="../report/saul1996_fig2.rst", category="saul1996"),
    conda:
        CONDA_ENV
    log:
        logs("saul1996/fig2.log"),
    threads: 1
    params:
        code=code_version("saul1996/fig2.py"),
        cfg=S96["fig2"],
        profile=PROFILE,
    script:
        "../scripts/saul1996/fig2.py"


rule saul1996_fig5_shard:
    output:
        results("saul1996/shards/fig5/{shard}.npz"),
    conda:
        CONDA_ENV
    log:
        logs("saul1996/fig5_shard_{shard}.log"),
    threads: 1
    params:
        code=code_version("saul1996/fig5_shard.py"),
        cfg=S96["fig5"],
        seed=SEED,
    script:
        "../scripts/saul1996/fig5_shard.py"


rule saul1996_fig5:
    input:
        expand(results("saul1996/shards/fig5/{shard}.npz"), shard=S96_FIG5_SHARDS),
    output:
        csv=results("saul1996/fig5_summary.csv"),
        png=report(figures("saul1996/fig5.png"), caption="../report/saul1996_fig5.rst", category="saul1996"),
    conda:
        CONDA_ENV
    log:
        logs("saul1996/fig5.log"),
    threads: 1
    params:
        code=code_version("saul1996/fig5.py"),
        cfg=S96["fig5"],
        profile=PROFILE,
    script:
        "../scripts/saul1996/fig5.py"


rule saul1996_train:
    input:
        data("{dataset}.npz"),
    output:
        model=results("models/saul1996/{dataset}/digit{digit}.npz"),
        bounds=results("saul1996/{dataset}/test_bounds/digit{digit}.npz"),
    wildcard_constraints:
        dataset=S96_DATASET_RE,
        digit=r"\d",
    conda:
        CONDA_ENV
    log:
        logs("saul1996/train_{dataset}_digit{digit}.log"),
    threads: 1
    params:
        code=code_version("saul1996/train.py"),
        cfg=S96["classifier"],
        seed=SEED,
    script:
        "../scripts/saul1996/train.py"


rule saul1996_tables:
    input:
        data=data("{dataset}.npz"),
        bounds=expand(results("saul1996/{{dataset}}/test_bounds/digit{digit}.npz"), digit=range(10)),
    output:
        table1=results("saul1996/{dataset}/table1_confusion.csv"),
        table2=results("saul1996/{dataset}/table2_error_rates.csv"),
        table3=results("saul1996/{dataset}/table3_scores.csv"),
        png=report(
            figures("saul1996/{dataset}/table1_confusion.png"),
            caption="../report/saul1996_table1_confusion.rst",
            category="saul1996",
        ),
    wildcard_constraints:
        dataset=S96_DATASET_RE,
    conda:
        CONDA_ENV
    log:
        logs("saul1996/tables_{dataset}.log"),
    threads: 1
    params:
        code=code_version("saul1996/tables.py"),
        cfg=S96["classifier"],
        seed=SEED,
        profile=PROFILE,
    script:
        "../scripts/saul1996/tables.py"


rule saul1996_claims:
    input:
        fig2=results("saul1996/fig2.csv"),
        fig5=results("saul1996/fig5_summary.csv"),
        table2=expand(results("saul1996/{dataset}/table2_error_rates.csv"), dataset=S96_DATASETS),
        table3=expand(results("saul1996/{dataset}/table3_scores.csv"), dataset=S96_DATASETS),
    output:
        claims_file("saul1996"),
    conda:
        CONDA_ENV
    log:
        logs("saul1996/claims.log"),
    params:
        code=code_version("saul1996/claims.py"),
        datasets=S96_DATASETS,
        profile=PROFILE,
    script:
        "../scripts/saul1996/claims.py"


rule saul1996:
    input:
        PAPER_TARGETS["saul1996"],
        claims_file("saul1996"),
