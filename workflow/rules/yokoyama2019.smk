# yokoyama2019: Yokoyama, Katsumata & Yasuda (2019), RBM with multivalued
# hidden variables. Figures 2/3 (exact KLD and log-likelihood during CD-1
# learning; experiments sharded per R), Figure 4 (the toy model), Figure 6
# (discriminative RBM on noisy MNIST; experiments sharded).
#
# Each rule receives only the config keys its script reads (settings()), so
# a change to one figure's settings reruns that figure and what consumes it.


validate(config["yokoyama2019"], "../schemas/yokoyama2019.schema.yaml")


# The keys of the config sub-section yokoyama2019.<section> that one rule's
# script reads (settings() of common.smk, one level down; a lambda because
# snakemake --lint wants functions in common.smk).
Y19_KLD = paper_config("yokoyama2019")["kld"]
Y19_DRBM = paper_config("yokoyama2019")["drbm"]
Y19_KLD_SHARDS = shards(Y19_KLD["n_experiments"], Y19_KLD["shard_size"])
Y19_DRBM_SHARDS = shards(Y19_DRBM["n_experiments"], Y19_DRBM["shard_size"])
# What the figure scripts of Figs. 2 and 3 read (the caption's settings included).
Y19_KLD_FIGURE_KEYS = ("R_values", "n_experiments", "epochs", "adam_lr", "cd_k", "n_data")
# What only the report captions of Figs. 2 and 3 state (a param of its own: the
# figure scripts do not read it; the shards that do rerun the figures anyway).
Y19_KLD_CAPTION_KEYS = ("s_values", "n_visible", "n_hidden_gen")


wildcard_constraints:
    R=r"\d+",


rule yokoyama2019_kld_shard:
    output:
        npz=results("yokoyama2019/shards/kld/R{R}/{shard}.npz"),
    log:
        logs("yokoyama2019/kld_shard_R{R}_{shard}.log"),
    benchmark:
        benchmarks("yokoyama2019/kld_shard_R{R}_{shard}.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("yokoyama2019/kld_shard.py"),
        cfg=settings(
            "yokoyama2019.kld",
            "n_experiments",
            "shard_size",
            "s_values",
            "epochs",
            "adam_lr",
            "n_visible",
            "n_hidden_gen",
            "n_data",
            "cd_k",
            "record_every",
        ),
        seed=SEED,
    script:
        "../scripts/yokoyama2019/kld_shard.py"


Y19_KLD_SHARD_FILES = expand(rules.yokoyama2019_kld_shard.output.npz, R=Y19_KLD["R_values"], shard=Y19_KLD_SHARDS)


rule yokoyama2019_fig2:
    input:
        Y19_KLD_SHARD_FILES,
    output:
        csv=results("yokoyama2019/fig2_kld.csv"),
        final=results("yokoyama2019/fig23_final_epoch.csv"),
        png=report(figures("yokoyama2019/fig2.png"), caption="../report/yokoyama2019_fig2.rst", category="yokoyama2019"),
    log:
        logs("yokoyama2019/fig2.log"),
    benchmark:
        benchmarks("yokoyama2019/fig2.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("yokoyama2019/kld_figure.py"),
        cfg=settings("yokoyama2019.kld", *Y19_KLD_FIGURE_KEYS),
        caption=settings("yokoyama2019.kld", *Y19_KLD_CAPTION_KEYS),
        profile=PROFILE,
        metric="kld",
    script:
        "../scripts/yokoyama2019/kld_figure.py"


rule yokoyama2019_fig3:
    input:
        Y19_KLD_SHARD_FILES,
    output:
        csv=results("yokoyama2019/fig3_loglik.csv"),
        png=report(figures("yokoyama2019/fig3.png"), caption="../report/yokoyama2019_fig3.rst", category="yokoyama2019"),
    log:
        logs("yokoyama2019/fig3.log"),
    benchmark:
        benchmarks("yokoyama2019/fig3.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("yokoyama2019/kld_figure.py"),
        cfg=settings("yokoyama2019.kld", *Y19_KLD_FIGURE_KEYS),
        caption=settings("yokoyama2019.kld", *Y19_KLD_CAPTION_KEYS),
        profile=PROFILE,
        metric="loglik",
    script:
        "../scripts/yokoyama2019/kld_figure.py"


rule yokoyama2019_fig4:
    output:
        curves=results("yokoyama2019/fig4_curves.csv"),
        stars=results("yokoyama2019/fig4_w_star.csv"),
        png=report(figures("yokoyama2019/fig4.png"), caption="../report/yokoyama2019_fig4.rst", category="yokoyama2019"),
    log:
        logs("yokoyama2019/fig4.log"),
    benchmark:
        benchmarks("yokoyama2019/fig4.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("yokoyama2019/fig4.py"),
        cfg=settings("yokoyama2019.toy", "s_values", "beta", "n_hidden", "w_max", "n_points"),
        profile=PROFILE,
    script:
        "../scripts/yokoyama2019/fig4.py"


rule yokoyama2019_drbm_shard:
    input:
        mnist=rules.data_mnist.output[0],
    output:
        npz=results("yokoyama2019/shards/drbm/{shard}.npz"),
    log:
        logs("yokoyama2019/drbm_shard_{shard}.log"),
    benchmark:
        benchmarks("yokoyama2019/drbm_shard_{shard}.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("yokoyama2019/drbm_shard.py"),
        cfg=settings(
            "yokoyama2019.drbm",
            "n_experiments",
            "shard_size",
            "s_values",
            "n_test",
            "noise_sigma",
            "n_train",
            "n_hidden",
            "batch_size",
            "adamax_lr",
            "epochs",
            "n_eval",
        ),
        seed=SEED,
    script:
        "../scripts/yokoyama2019/drbm_shard.py"


rule yokoyama2019_fig6:
    input:
        expand(rules.yokoyama2019_drbm_shard.output.npz, shard=Y19_DRBM_SHARDS),
    output:
        csv=results("yokoyama2019/fig6_errors.csv"),
        final=results("yokoyama2019/fig6_final_epoch.csv"),
        png=report(figures("yokoyama2019/fig6.png"), caption="../report/yokoyama2019_fig6.rst", category="yokoyama2019"),
    log:
        logs("yokoyama2019/fig6.log"),
    benchmark:
        benchmarks("yokoyama2019/fig6.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("yokoyama2019/fig6.py"),
        cfg=settings(
            "yokoyama2019.drbm",
            "n_experiments",
            "epochs",
            "adamax_lr",
            "batch_size",
            "n_hidden",
            "n_train",
            "n_test",
            "noise_sigma",
        ),
        # stated by the report caption only (the shards read them)
        caption=settings("yokoyama2019.drbm", "s_values", "n_eval"),
        profile=PROFILE,
    script:
        "../scripts/yokoyama2019/fig6.py"


rule yokoyama2019_claims:
    input:
        kld_final=rules.yokoyama2019_fig2.output.final,
        w_star=rules.yokoyama2019_fig4.output.stars,
        drbm_final=rules.yokoyama2019_fig6.output.final,
    output:
        claims_file("yokoyama2019"),
    log:
        logs("yokoyama2019/claims.log"),
    benchmark:
        benchmarks("yokoyama2019/claims.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("yokoyama2019/claims.py"),
        # The Fig. 4 claims are one per configured s value the paper reports;
        # every other claim takes its s values from the tables.
        settings={"toy": settings("yokoyama2019.toy", "s_values")},
        profile=PROFILE,
    script:
        "../scripts/yokoyama2019/claims.py"


Y19_FIGURES = [getattr(rules, f"yokoyama2019_{f}").output.png for f in ("fig2", "fig3", "fig4", "fig6")]
Y19_TABLES = [
    rules.yokoyama2019_fig2.output.csv,
    rules.yokoyama2019_fig3.output.csv,
    rules.yokoyama2019_fig2.output.final,
    rules.yokoyama2019_fig4.output.curves,
    rules.yokoyama2019_fig4.output.stars,
    rules.yokoyama2019_fig6.output.csv,
    rules.yokoyama2019_fig6.output.final,
]
PAPER_TARGETS["yokoyama2019"] += Y19_FIGURES + Y19_TABLES
PAPER_FIGURES["yokoyama2019"] += Y19_FIGURES


rule yokoyama2019:
    input:
        PAPER_TARGETS["yokoyama2019"],
        rules.yokoyama2019_claims.output[0],
