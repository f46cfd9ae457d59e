# carlson2016 Figs. 3 and 4 (included by carlson2016.smk, whose settings they use):
# the truth bracket of each MNIST RBM (one job per long AIS or RAISE run), the
# matched-sweep comparison of RTS, AIS and RAISE (one job per model x method x
# shard of repeats), and the RMSE against the number of temperatures (one job per
# K x shard of independent runs), judged against the Fig. 3 bracket.


rule carlson2016_fig3_truth:
    input:
        model=rules.carlson2016_train_mnist.output.model,
        data=data("mnist_binary.npz"),
    output:
        csv=results("carlson2016/shards/fig3_truth/{model}_{method}_{run}.csv"),
    log:
        logs("carlson2016/fig3_truth_{model}_{method}_{run}.log"),
    benchmark:
        benchmarks("carlson2016/fig3_truth_{model}_{method}_{run}.tsv")
    wildcard_constraints:
        method="|".join(C16_TRUTH_METHODS),
    conda:
        CONDA_ENV
    threads: 1
    params:
        **C16_BASE,
        code=code_version("carlson2016/fig3_truth.py"),
        cfg=C16_CFG["fig3_truth"],
        truth_sweeps=lambda wc: C16_TRUTH_SWEEPS[wc.model],
    script:
        "../scripts/carlson2016/fig3_truth.py"


rule carlson2016_fig3_shard:
    input:
        model=rules.carlson2016_train_mnist.output.model,
        data=data("mnist_binary.npz"),
    output:
        npz=results("carlson2016/shards/fig3/{model}_{method}_{shard}.npz"),
    log:
        logs("carlson2016/fig3_shard_{model}_{method}_{shard}.log"),
    benchmark:
        benchmarks("carlson2016/fig3_shard_{model}_{method}_{shard}.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        **C16_BASE,
        code=code_version("carlson2016/fig3_shard.py"),
        cfg=C16_CFG["fig3_shard"],
        sweeps=lambda wc: C16_FIG3_MODELS[wc.model],
        repeats=lambda wc: list(shard_repeats(C16["fig3"]["n_repeats"], C16["fig3"]["shard_size"], wc.shard)),
    script:
        "../scripts/carlson2016/fig3_shard.py"


rule carlson2016_fig3:
    input:
        shards=expand(
            rules.carlson2016_fig3_shard.output.npz,
            model=list(C16_FIG3_MODELS),
            method=C16_METHODS,
            shard=C16_FIG3_SHARDS,
        ),
        truth=expand(
            rules.carlson2016_fig3_truth.output.csv,
            model=list(C16_FIG3_MODELS),
            method=C16_TRUTH_METHODS,
            run=C16_TRUTH_RUNS,
        ),
    output:
        estimates=results("carlson2016/fig3_estimates.csv"),
        truth=results("carlson2016/fig3_truth.csv"),
        csv=results("carlson2016/fig3.csv"),
        png=report(figures("carlson2016/fig3.png"), caption="../report/carlson2016_fig3.rst", category="carlson2016"),
    log:
        logs("carlson2016/fig3.log"),
    benchmark:
        benchmarks("carlson2016/fig3.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("carlson2016/fig3.py"),
        cfg=C16_CFG["fig3"],
        caption=C16_CAPTION["fig3"],
        profile=PROFILE,
    script:
        "../scripts/carlson2016/fig3.py"


rule carlson2016_fig4_shard:
    input:
        model=rules.carlson2016_train_mnist.output.model.format(model=C16_FIG4_MODEL),
        data=data("mnist_binary.npz"),
    output:
        npz=results("carlson2016/shards/fig4/K{K}_{shard}.npz"),
    log:
        logs("carlson2016/fig4_K{K}_{shard}.log"),
    benchmark:
        benchmarks("carlson2016/fig4_K{K}_{shard}.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        **C16_BASE,
        code=code_version("carlson2016/fig4_shard.py"),
        cfg=C16_CFG["fig4_shard"],
        model=C16_FIG4_MODEL,
        runs=lambda wc: list(shard_repeats(C16["fig4"]["n_runs"], C16["fig4"]["shard_size"], wc.shard)),
    script:
        "../scripts/carlson2016/fig4_shard.py"


rule carlson2016_fig4:
    input:
        shards=expand(rules.carlson2016_fig4_shard.output.npz, K=C16["fig4"]["Ks"], shard=C16_FIG4_SHARDS),
        truth=expand(
            rules.carlson2016_fig3_truth.output.csv, model=C16_FIG4_MODEL, method=C16_TRUTH_METHODS, run=C16_TRUTH_RUNS
        ),
    output:
        estimates=results("carlson2016/fig4_estimates.csv"),
        csv=results("carlson2016/fig4.csv"),
        png=report(figures("carlson2016/fig4.png"), caption="../report/carlson2016_fig4.rst", category="carlson2016"),
    log:
        logs("carlson2016/fig4.log"),
    benchmark:
        benchmarks("carlson2016/fig4.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("carlson2016/fig4.py"),
        cfg=C16_CFG["fig4"],
        caption=C16_CAPTION["fig4"],
        profile=PROFILE,
    script:
        "../scripts/carlson2016/fig4.py"
