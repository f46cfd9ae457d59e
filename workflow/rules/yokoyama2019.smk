# yokoyama2019: Yokoyama, Katsumata & Yasuda (2019), RBM with multivalued
# hidden variables. Figures 2/3 (exact KLD and log-likelihood during CD-1
# learning; experiments sharded per R), Figure 4 (the toy model), Figure 6
# (discriminative RBM on noisy MNIST; experiments sharded).


validate(config["yokoyama2019"], "../schemas/yokoyama2019.schema.yaml")

Y19 = paper_config("yokoyama2019")
Y19_KLD = Y19["kld"]
Y19_DRBM = Y19["drbm"]
Y19_KLD_SHARDS = shards(Y19_KLD["n_experiments"], Y19_KLD["shard_size"])
Y19_DRBM_SHARDS = shards(Y19_DRBM["n_experiments"], Y19_DRBM["shard_size"])
Y19_KLD_SHARD_FILES = expand(
    results("yokoyama2019/shards/kld/R{R}/{shard}.npz"), R=Y19_KLD["R_values"], shard=Y19_KLD_SHARDS
)
Y19_FIGURES = [figures(f"yokoyama2019/{f}.png") for f in ("fig2", "fig3", "fig4", "fig6")]
Y19_TABLES = [
    results("yokoyama2019/fig2_kld.csv"),
    results("yokoyama2019/fig3_loglik.csv"),
    results("yokoyama2019/fig23_final_epoch.csv"),
    results("yokoyama2019/fig4_curves.csv"),
    results("yokoyama2019/fig4_w_star.csv"),
    results("yokoyama2019/fig6_errors.csv"),
    results("yokoyama2019/fig6_final_epoch.csv"),
]

PAPER_TARGETS["yokoyama2019"] += Y19_FIGURES + Y19_TABLES
PAPER_FIGURES["yokoyama2019"] += Y19_FIGURES


wildcard_constraints:
    R=r"\d+",


rule yokoyama2019_kld_shard:
    output:
        results("yokoyama2019/shards/kld/R{R}/{shard}.npz"),
    conda:
        CONDA_ENV
    log:
        logs("yokoyama2019/kld_shard_R{R}_{shard}.log"),
    threads: 1
    params:
        code=code_version("yokoyama2019/kld_shard.py"),
        cfg=Y19_KLD,
        seed=SEED,
    script:
        "../scripts/yokoyama2019/kld_shard.py"


rule yokoyama2019_fig2:
    input:
        Y19_KLD_SHARD_FILES,
    output:
        csv=results("yokoyama2019/fig2_kld.csv"),
        final=results("yokoyama2019/fig23_final_epoch.csv"),
        png=report(figures("yokoyama2019/fig2.png"), caption="../report/yokoyama2019_fig2.rst", category="yokoyama2019"),
    conda:
        CONDA_ENV
    log:
        logs("yokoyama2019/fig2.log"),
    threads: 1
    params:
        code=code_version("yokoyama2019/kld_figure.py"),
        cfg=Y19_KLD,
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
    conda:
        CONDA_ENV
    log:
        logs("yokoyama2019/fig3.log"),
    threads: 1
    params:
        code=code_version("yokoyama2019/kld_figure.py"),
        cfg=Y19_KLD,
        profile=PROFILE,
        metric="loglik",
    script:
        "../scripts/yokoyama2019/kld_figure.py"


rule yokoyama2019_fig4:
    output:
        curves=results("yokoyama2019/fig4_curves.csv"),
        stars=results("yokoyama2019/fig4_w_star.csv"),
        png=report(figures("yokoyama2019/fig4.png"), caption="../report/yokoyama2019_fig4.rst", category="yokoyama2019"),
    conda:
        CONDA_ENV
    log:
        logs("yokoyama2019/fig4.log"),
    threads: 1
    params:
        code=code_version("yokoyama2019/fig4.py"),
        cfg=Y19["toy"],
        profile=PROFILE,
    script:
        "../scripts/yokoyama2019/fig4.py"


rule yokoyama2019_drbm_shard:
    input:
        data("mnist.npz"),
    output:
        results("yokoyama2019/shards/drbm/{shard}.npz"),
    conda:
        CONDA_ENV
    log:
        logs("yokoyama2019/drbm_shard_{shard}.log"),
    threads: 1
    params:
        code=code_version("yokoyama2019/drbm_shard.py"),
        cfg=Y19_DRBM,
        seed=SEED,
    script:
        "../scripts/yokoyama2019/drbm_shard.py"


rule yokoyama2019_fig6:
    input:
        expand(results("yokoyama2019/shards/drbm/{shard}.npz"), shard=Y19_DRBM_SHARDS),
    output:
        csv=results("yokoyama2019/fig6_errors.csv"),
        final=results("yokoyama2019/fig6_final_epoch.csv"),
        png=report(figures("yokoyama2019/fig6.png"), caption="../report/yokoyama2019_fig6.rst", category="yokoyama2019"),
    conda:
        CONDA_ENV
    log:
        logs("yokoyama2019/fig6.log"),
    threads: 1
    params:
        code=code_version("yokoyama2019/fig6.py"),
        cfg=Y19_DRBM,
        profile=PROFILE,
    script:
        "../scripts/yokoyama2019/fig6.py"


rule yokoyama2019_claims:
    input:
        kld_final=results("yokoyama2019/fig23_final_epoch.csv"),
        w_star=results("yokoyama2019/fig4_w_star.csv"),
        drbm_final=results("yokoyama2019/fig6_final_epoch.csv"),
    output:
        claims_file("yokoyama2019"),
    conda:
        CONDA_ENV
    log:
        logs("yokoyama2019/claims.log"),
    threads: 1
    params:
        code=code_version("yokoyama2019/claims.py"),
        cfg=Y19,
        profile=PROFILE,
    script:
        "../scripts/yokoyama2019/claims.py"


rule yokoyama2019:
    input:
        PAPER_TARGETS["yokoyama2019"],
        claims_file("yokoyama2019"),
