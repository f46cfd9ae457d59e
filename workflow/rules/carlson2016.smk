# carlson2016: Carlson, Stinson, Pakman & Paninski (2016), partition functions
# from Rao-Blackwellized tempered sampling. Exact-model check of every
# estimator; Fig. 1 (RTS initial iterations, 784-10), Fig. 2 (Gaussian
# mixture, sharded repeats), Fig. 3 (RTS vs AIS vs RAISE at matched sweeps:
# one job per model x method x shard of repeats, plus a long reference run per
# model), Fig. 4 (RMSE vs number of temperatures: one job per K), Fig. 5
# (dna training with a running RTS estimate). The MNIST RBMs are trained once
# and cached under results/models/carlson2016/.


validate(config["carlson2016"], "../schemas/carlson2016.schema.yaml")

C16 = paper_config("carlson2016")
C16_FIG3_MODELS = {f"784x{m['n_hidden']}": m["sweeps"] for m in C16["fig3"]["models"]}
C16_FIG4_MODEL = f"784x{C16['fig4']['n_hidden']}"
if C16_FIG4_MODEL not in C16_FIG3_MODELS:
    raise ValueError(
        f"invalid config: carlson2016.fig4.n_hidden = {C16['fig4']['n_hidden']} must be one of "
        f"carlson2016.fig3.models (its reference log Z comes from Fig. 3)"
    )
C16_METHODS = ["RTS", "AIS", "RAISE"]
C16_FIG2_SHARDS = shards(C16["fig2"]["n_repeats"], C16["fig2"]["shard_size"])
C16_FIG3_SHARDS = shards(C16["fig3"]["n_repeats"], C16["fig3"]["shard_size"])
C16_COMMON = dict(seed=SEED, base=C16["base"], pseudo_count=C16["base_pseudo_count"], profile=PROFILE)
C16_MODEL = results("models/carlson2016/mnist_{model}.npz")

C16_FIGS = [figures(f"carlson2016/fig{i}.png") for i in range(1, 6)]
PAPER_TARGETS["carlson2016"] += C16_FIGS + [
    results("carlson2016/exact_check.csv"),
    results("carlson2016/fig1.csv"),
    results("carlson2016/fig2.csv"),
    results("carlson2016/fig3.csv"),
    results("carlson2016/fig4.csv"),
    results("carlson2016/fig5.csv"),
    results(f"models/carlson2016/dna_180x{C16['fig5']['n_hidden']}.npz"),
]
PAPER_FIGURES["carlson2016"] += C16_FIGS


wildcard_constraints:
    model=r"784x\d+",
    method="|".join(C16_METHODS),
    K=r"\d+",
    n_hidden=r"\d+",


rule carlson2016_train_mnist:
    input:
        data("mnist_binary.npz"),
    output:
        results("models/carlson2016/mnist_784x{n_hidden}.npz"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/train_mnist_784x{n_hidden}.log"),
    threads: 1
    params:
        code=code_version("carlson2016/train_mnist.py"),
        cfg=C16["training"],
        seed=SEED,
    script:
        "../scripts/carlson2016/train_mnist.py"


rule carlson2016_exact_check:
    output:
        results("carlson2016/exact_check.csv"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/exact_check.log"),
    threads: 1
    params:
        code=code_version("carlson2016/exact_check.py"),
        cfg=C16["exact_check"],
        seed=SEED,
    script:
        "../scripts/carlson2016/exact_check.py"


rule carlson2016_fig1:
    input:
        model=C16_MODEL.format(model=f"784x{C16['fig1']['n_hidden']}"),
        data=data("mnist_binary.npz"),
    output:
        csv=results("carlson2016/fig1.csv"),
        png=report(figures("carlson2016/fig1.png"), caption="../report/carlson2016_fig1.rst", category="carlson2016"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/fig1.log"),
    threads: 1
    params:
        code=code_version("carlson2016/fig1.py"),
        cfg=C16["fig1"],
        **C16_COMMON,
    script:
        "../scripts/carlson2016/fig1.py"


rule carlson2016_fig2_shard:
    output:
        results("carlson2016/shards/fig2/{shard}.npz"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/fig2_shard_{shard}.log"),
    threads: 1
    params:
        code=code_version("carlson2016/fig2_shard.py"),
        cfg=C16["fig2"],
        seed=SEED,
        repeats=lambda wc: list(shard_repeats(C16["fig2"]["n_repeats"], C16["fig2"]["shard_size"], wc.shard)),
    script:
        "../scripts/carlson2016/fig2_shard.py"


rule carlson2016_fig2:
    input:
        expand(results("carlson2016/shards/fig2/{shard}.npz"), shard=C16_FIG2_SHARDS),
    output:
        estimates=results("carlson2016/fig2_estimates.csv"),
        csv=results("carlson2016/fig2.csv"),
        png=report(figures("carlson2016/fig2.png"), caption="../report/carlson2016_fig2.rst", category="carlson2016"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/fig2.log"),
    threads: 1
    params:
        code=code_version("carlson2016/fig2.py"),
        cfg=C16["fig2"],
        profile=PROFILE,
    script:
        "../scripts/carlson2016/fig2.py"


rule carlson2016_fig3_truth:
    input:
        model=C16_MODEL,
        data=data("mnist_binary.npz"),
    output:
        csv=results("carlson2016/fig3_truth_{model}.csv"),
        curve=results("carlson2016/fig3_truth_{model}_curve.npz"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/fig3_truth_{model}.log"),
    threads: 1
    params:
        code=code_version("carlson2016/fig3_truth.py"),
        cfg=C16["fig3"],
        **C16_COMMON,
    script:
        "../scripts/carlson2016/fig3_truth.py"


rule carlson2016_fig3_shard:
    input:
        model=C16_MODEL,
        data=data("mnist_binary.npz"),
    output:
        results("carlson2016/shards/fig3/{model}_{method}_{shard}.npz"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/fig3_shard_{model}_{method}_{shard}.log"),
    threads: 1
    params:
        code=code_version("carlson2016/fig3_shard.py"),
        cfg=C16["fig3"],
        sweeps=lambda wc: C16_FIG3_MODELS[wc.model],
        repeats=lambda wc: list(shard_repeats(C16["fig3"]["n_repeats"], C16["fig3"]["shard_size"], wc.shard)),
        **C16_COMMON,
    script:
        "../scripts/carlson2016/fig3_shard.py"


rule carlson2016_fig3:
    input:
        shards=expand(
            results("carlson2016/shards/fig3/{model}_{method}_{shard}.npz"),
            model=list(C16_FIG3_MODELS),
            method=C16_METHODS,
            shard=C16_FIG3_SHARDS,
        ),
        truth=expand(results("carlson2016/fig3_truth_{model}.csv"), model=list(C16_FIG3_MODELS)),
    output:
        estimates=results("carlson2016/fig3_estimates.csv"),
        csv=results("carlson2016/fig3.csv"),
        png=report(figures("carlson2016/fig3.png"), caption="../report/carlson2016_fig3.rst", category="carlson2016"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/fig3.log"),
    threads: 1
    params:
        code=code_version("carlson2016/fig3.py"),
        cfg=C16["fig3"],
        profile=PROFILE,
    script:
        "../scripts/carlson2016/fig3.py"


rule carlson2016_fig4_K:
    input:
        model=C16_MODEL.format(model=C16_FIG4_MODEL),
        data=data("mnist_binary.npz"),
        curve=results(f"carlson2016/fig3_truth_{C16_FIG4_MODEL}_curve.npz"),
    output:
        results("carlson2016/shards/fig4/K{K}.npz"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/fig4_K{K}.log"),
    threads: 1
    params:
        code=code_version("carlson2016/fig4_K.py"),
        cfg=C16["fig4"],
        **C16_COMMON,
    script:
        "../scripts/carlson2016/fig4_K.py"


rule carlson2016_fig4:
    input:
        shards=expand(results("carlson2016/shards/fig4/K{K}.npz"), K=C16["fig4"]["Ks"]),
        truth=results(f"carlson2016/fig3_truth_{C16_FIG4_MODEL}.csv"),
    output:
        csv=results("carlson2016/fig4.csv"),
        png=report(figures("carlson2016/fig4.png"), caption="../report/carlson2016_fig4.rst", category="carlson2016"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/fig4.log"),
    threads: 1
    params:
        code=code_version("carlson2016/fig4.py"),
        cfg=C16["fig4"],
        profile=PROFILE,
    script:
        "../scripts/carlson2016/fig4.py"


rule carlson2016_fig5:
    input:
        data("dna.npz"),
    output:
        csv=results("carlson2016/fig5.csv"),
        model=results(f"models/carlson2016/dna_180x{C16['fig5']['n_hidden']}.npz"),
        png=report(figures("carlson2016/fig5.png"), caption="../report/carlson2016_fig5.rst", category="carlson2016"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/fig5.log"),
    threads: 1
    params:
        code=code_version("carlson2016/fig5.py"),
        cfg=C16["fig5"],
        seed=SEED,
        profile=PROFILE,
    script:
        "../scripts/carlson2016/fig5.py"


rule carlson2016_claims:
    input:
        exact_check=results("carlson2016/exact_check.csv"),
        fig1=results("carlson2016/fig1.csv"),
        fig2=results("carlson2016/fig2.csv"),
        fig3=results("carlson2016/fig3.csv"),
        fig4=results("carlson2016/fig4.csv"),
        fig5=results("carlson2016/fig5.csv"),
    output:
        claims_file("carlson2016"),
    conda:
        CONDA_ENV
    log:
        logs("carlson2016/claims.log"),
    params:
        code=code_version("carlson2016/claims.py"),
        cfg=C16,
        profile=PROFILE,
    script:
        "../scripts/carlson2016/claims.py"


rule carlson2016:
    input:
        PAPER_TARGETS["carlson2016"],
        claims_file("carlson2016"),
