# carlson2016: Carlson, Stinson, Pakman & Paninski (2016), partition functions
# from Rao-Blackwellized tempered sampling. Exact-model check of every
# estimator (sharded replicates, then a table and a figure); Fig. 1 (RTS initial
# iterations, 784-10, sharded seeds), Fig. 2 (Gaussian mixture, sharded repeats and
# TI reference runs), Fig. 3 (RTS vs AIS vs RAISE at matched sweeps: one job per
# model x method x shard of repeats, plus one job per long AIS or RAISE run of the
# truth bracket), Fig. 4 (RMSE vs number of temperatures: one job per K x shard of
# independent runs), Fig. 5 (dna training with a running RTS estimate). The MNIST
# RBMs are trained once and cached under
# results/models/carlson2016/. The Fig. 3 and Fig. 4 rules are in
# carlson2016_fig3_fig4.smk, included below.


validate(config["carlson2016"], "../schemas/carlson2016.schema.yaml")

C16 = paper_config("carlson2016")
C16_FIG3_MODELS = {f"784x{m['n_hidden']}": m["sweeps"] for m in C16["fig3"]["models"]}
# The truth bracket's run length per model: its own key, else the section's.
C16_TRUTH_SWEEPS = {
    f"784x{m['n_hidden']}": int(m.get("truth_sweeps", C16["fig3"]["truth_sweeps"])) for m in C16["fig3"]["models"]
}
for _model, _budgets in C16_FIG3_MODELS.items():
    if C16_TRUTH_SWEEPS[_model] < 10 * max(_budgets):
        raise ValueError(
            f"invalid config: carlson2016.fig3 truth runs of {_model} ({C16_TRUTH_SWEEPS[_model]} sweeps) must be "
            f">= 10x its largest budget ({max(_budgets)}): the spec's truth bracket"
        )
if C16["fig3"]["n_repeats_larger"] > C16["fig3"]["n_repeats"]:
    raise ValueError("invalid config: carlson2016.fig3.n_repeats_larger exceeds n_repeats")
C16_FIG4_MODEL = f"784x{C16['fig4']['n_hidden']}"
if C16_FIG4_MODEL not in C16_FIG3_MODELS:
    raise ValueError(
        f"invalid config: carlson2016.fig4.n_hidden = {C16['fig4']['n_hidden']} must be one of "
        f"carlson2016.fig3.models (its truth bracket comes from Fig. 3)"
    )
C16_METHODS = ["RTS", "AIS", "RAISE"]
C16_EXACT_SHARDS = shards(C16["exact_check"]["n_replicates"], C16["exact_check"]["shard_size"])
C16_FIG1_SHARDS = shards(C16["fig1"]["n_seeds"], C16["fig1"]["shard_size"])
C16_TRUTH_METHODS = ["AIS", "RAISE"]  # the bracket's lower and upper ends
C16_TRUTH_RUNS = list(range(C16["fig3"]["truth_runs"]))
C16_FIG2_SHARDS = shards(C16["fig2"]["n_repeats"], C16["fig2"]["shard_size"])
C16_FIG2_REFERENCES = list(range(int(C16["fig2"]["reference_runs"])))
C16_FIG3_SHARDS = shards(C16["fig3"]["n_repeats"], C16["fig3"]["shard_size"])
C16_FIG4_SHARDS = shards(C16["fig4"]["n_runs"], C16["fig4"]["shard_size"])
# The base distribution p1 and the seed: read by every job that builds a tempered ladder.
C16_BASE = dict(seed=SEED, base=C16["base"], pseudo_count=C16["base_pseudo_count"])


# What each job's script reads of the carlson2016 section. A rule's params hold
# only these keys, so a change to another key (say, one figure's setting) does
# not rerun it. The training and Fig. 5 jobs read their whole sub-section.
C16_FIG3_LADDER = ("n_chains", "dtype", "K", "init", "init_iterations", "init_sweeps")
# what one tempered HMC run on the Fig. 2 mixture reads (a repeat's shard and a reference run)
C16_FIG2_RUN = (
    *("dim", "separation", "scale", "weight", "log_z", "base_scale", "K", "beta_power", "n_chains"),
    *("step_size", "step_jitter", "n_leapfrog", "warmup", "init_iterations", "init_sweeps", "samples"),
)
C16_READS = {
    # a shard's replicates are its own param: the count and shard size do not rerun finished shards
    "exact_check_shard": (
        "exact_check",
        (
            "n_visible",
            "n_hidden",
            "weight_scales",
            "n_chains",
            "sweeps",
            "K",
            "init",
            "init_iterations",
            "init_sweeps",
            "mbar_max_samples",
        ),
    ),
    "exact_check": ("exact_check", ("n_replicates",)),
    # a shard's repeats are its own param: the count and shard size do not rerun finished shards
    "fig1_shard": ("fig1", ("K", "n_chains", "sweeps_per_iteration", "n_iterations", "main_sweeps")),
    "fig1": ("fig1", ("n_hidden", "n_seeds", "K", "n_chains", "sweeps_per_iteration", "n_iterations", "main_sweeps")),
    "fig2_shard": ("fig2", C16_FIG2_RUN),
    "fig2_reference": ("fig2", C16_FIG2_RUN + ("reference_factor",)),
    "fig2": ("fig2", ("n_repeats", "dim", "K", "n_chains", "separation", "weight", "base_scale")),
    # the run's length is its own param (per model)
    "fig3_truth": ("fig3", ("n_chains", "dtype")),
    "fig3_shard": ("fig3", C16_FIG3_LADDER + ("n_repeats_larger",)),
    "fig3": ("fig3", ("n_repeats", "n_repeats_larger", "truth_runs", "n_chains", "K", "dtype")),
    # K and the runs are the job's wildcard and params, the model its input
    "fig4_shard": (
        "fig4",
        (
            "n_chains",
            "dtype",
            "init",
            "init_iterations",
            "init_sweeps",
            "burn_in",
            "n_sweeps",
            "mbar_max_K",
            "mbar_samples",
        ),
    ),
    "fig4": ("fig4", ("n_hidden", "n_runs", "n_chains", "n_sweeps")),
}
C16_CFG = {job: settings(f"carlson2016.{section}", *keys) for job, (section, keys) in C16_READS.items()}
# What only a figure's report caption states (its shards or runs read these keys,
# so a change to one reruns the figure anyway).
C16_CAPTION = {
    "exact_check": settings(
        "carlson2016.exact_check",
        "n_visible",
        "n_hidden",
        "weight_scales",
        "n_chains",
        "sweeps",
        "K",
        "init_iterations",
        "init_sweeps",
        "mbar_max_samples",
    ),
    "fig2": settings(
        "carlson2016.fig2",
        "samples",
        "warmup",
        "step_size",
        "step_jitter",
        "n_leapfrog",
        "init_iterations",
        "init_sweeps",
        "reference_factor",
        "reference_runs",
    ),
    "fig3": {
        **settings("carlson2016.fig3", "models", "init", "init_iterations", "init_sweeps"),
        "truth_sweeps": C16_TRUTH_SWEEPS,
    },
    "fig4": settings(
        "carlson2016.fig4", "Ks", "init", "init_iterations", "init_sweeps", "burn_in", "mbar_samples", "mbar_max_K"
    ),
}


C16_FIGS = [figures(f"carlson2016/fig{i}.png") for i in range(1, 6)] + [figures("carlson2016/exact_check.png")]
PAPER_FIGURES["carlson2016"] += C16_FIGS


wildcard_constraints:
    model=r"784x\d+",
    method="|".join(C16_METHODS),
    K=r"\d+",
    run=r"\d+",


rule carlson2016_train_mnist:
    input:
        data=data("mnist_binary.npz"),
    output:
        model=results("models/carlson2016/mnist_{model}.npz"),
    log:
        logs("carlson2016/train_mnist_{model}.log"),
    benchmark:
        benchmarks("carlson2016/train_mnist_{model}.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("carlson2016/train_mnist.py"),
        cfg=C16["training"],
        seed=SEED,
        n_hidden=lambda wc: int(wc.model.removeprefix("784x")),
    script:
        "../scripts/carlson2016/train_mnist.py"


rule carlson2016_exact_check_shard:
    output:
        npz=results("carlson2016/shards/exact_check/{shard}.npz"),
    log:
        logs("carlson2016/exact_check_shard_{shard}.log"),
    benchmark:
        benchmarks("carlson2016/exact_check_shard_{shard}.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("carlson2016/exact_check_shard.py"),
        cfg=C16_CFG["exact_check_shard"],
        seed=SEED,
        repeats=lambda wc: list(
            shard_repeats(C16["exact_check"]["n_replicates"], C16["exact_check"]["shard_size"], wc.shard)
        ),
    script:
        "../scripts/carlson2016/exact_check_shard.py"


rule carlson2016_exact_check:
    input:
        shards=expand(rules.carlson2016_exact_check_shard.output.npz, shard=C16_EXACT_SHARDS),
    output:
        csv=results("carlson2016/exact_check.csv"),
        png=report(
            figures("carlson2016/exact_check.png"),
            caption="../report/carlson2016_exact_check.rst",
            category="carlson2016",
        ),
    log:
        logs("carlson2016/exact_check.log"),
    benchmark:
        benchmarks("carlson2016/exact_check.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("carlson2016/exact_check.py"),
        cfg=C16_CFG["exact_check"],
        caption=C16_CAPTION["exact_check"],
        profile=PROFILE,
    script:
        "../scripts/carlson2016/exact_check.py"


rule carlson2016_fig1_shard:
    input:
        model=rules.carlson2016_train_mnist.output.model.format(model=f"784x{C16['fig1']['n_hidden']}"),
        data=data("mnist_binary.npz"),
    output:
        npz=results("carlson2016/shards/fig1/{shard}.npz"),
        main=results("carlson2016/shards/fig1/{shard}_main.npz"),
    log:
        logs("carlson2016/fig1_shard_{shard}.log"),
    benchmark:
        benchmarks("carlson2016/fig1_shard_{shard}.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        **C16_BASE,
        code=code_version("carlson2016/fig1_shard.py"),
        cfg=C16_CFG["fig1_shard"],
        repeats=lambda wc: list(shard_repeats(C16["fig1"]["n_seeds"], C16["fig1"]["shard_size"], wc.shard)),
    script:
        "../scripts/carlson2016/fig1_shard.py"


rule carlson2016_fig1:
    input:
        shards=expand(rules.carlson2016_fig1_shard.output.npz, shard=C16_FIG1_SHARDS),
        main=expand(rules.carlson2016_fig1_shard.output.main, shard=C16_FIG1_SHARDS),
    output:
        csv=results("carlson2016/fig1.csv"),
        main=results("carlson2016/fig1_main.csv"),
        png=report(figures("carlson2016/fig1.png"), caption="../report/carlson2016_fig1.rst", category="carlson2016"),
    log:
        logs("carlson2016/fig1.log"),
    benchmark:
        benchmarks("carlson2016/fig1.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("carlson2016/fig1.py"),
        cfg=C16_CFG["fig1"],
        base=C16["base"],
        seed=SEED,
        profile=PROFILE,
    script:
        "../scripts/carlson2016/fig1.py"


rule carlson2016_fig2_shard:
    output:
        npz=results("carlson2016/shards/fig2/{shard}.npz"),
    log:
        logs("carlson2016/fig2_shard_{shard}.log"),
    benchmark:
        benchmarks("carlson2016/fig2_shard_{shard}.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("carlson2016/fig2_shard.py"),
        cfg=C16_CFG["fig2_shard"],
        seed=SEED,
        repeats=lambda wc: list(shard_repeats(C16["fig2"]["n_repeats"], C16["fig2"]["shard_size"], wc.shard)),
    script:
        "../scripts/carlson2016/fig2_shard.py"


rule carlson2016_fig2_reference:
    output:
        npz=results("carlson2016/shards/fig2/reference_{run}.npz"),
    log:
        logs("carlson2016/fig2_reference_{run}.log"),
    benchmark:
        benchmarks("carlson2016/fig2_reference_{run}.tsv")
    wildcard_constraints:
        run=r"\d+",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("carlson2016/fig2_reference.py"),
        cfg=C16_CFG["fig2_reference"],
        seed=SEED,
    script:
        "../scripts/carlson2016/fig2_reference.py"


rule carlson2016_fig2:
    input:
        shards=expand(rules.carlson2016_fig2_shard.output.npz, shard=C16_FIG2_SHARDS),
        references=expand(rules.carlson2016_fig2_reference.output.npz, run=C16_FIG2_REFERENCES),
    output:
        estimates=results("carlson2016/fig2_estimates.csv"),
        reference=results("carlson2016/fig2_reference.csv"),
        csv=results("carlson2016/fig2.csv"),
        png=report(figures("carlson2016/fig2.png"), caption="../report/carlson2016_fig2.rst", category="carlson2016"),
    log:
        logs("carlson2016/fig2.log"),
    benchmark:
        benchmarks("carlson2016/fig2.tsv")
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("carlson2016/fig2.py"),
        cfg=C16_CFG["fig2"],
        caption=C16_CAPTION["fig2"],
        profile=PROFILE,
    script:
        "../scripts/carlson2016/fig2.py"


include: "carlson2016_fig3_fig4.smk"


rule carlson2016_fig5:
    input:
        data=data("dna.npz"),
    output:
        csv=results("carlson2016/fig5.csv"),
        model=results(f"models/carlson2016/dna_180x{C16['fig5']['n_hidden']}.npz"),
        png=report(figures("carlson2016/fig5.png"), caption="../report/carlson2016_fig5.rst", category="carlson2016"),
    log:
        logs("carlson2016/fig5.log"),
    benchmark:
        benchmarks("carlson2016/fig5.tsv")
    conda:
        CONDA_ENV
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
        exact_check=rules.carlson2016_exact_check.output.csv,
        fig1=rules.carlson2016_fig1.output.csv,
        fig1_main=rules.carlson2016_fig1.output.main,
        fig2_estimates=rules.carlson2016_fig2.output.estimates,
        fig2_reference=rules.carlson2016_fig2.output.reference,
        fig3_estimates=rules.carlson2016_fig3.output.estimates,
        fig3_truth=rules.carlson2016_fig3.output.truth,
        fig4_estimates=rules.carlson2016_fig4.output.estimates,
        fig5=rules.carlson2016_fig5.output.csv,
    output:
        claims_file("carlson2016"),
    log:
        logs("carlson2016/claims.log"),
    benchmark:
        benchmarks("carlson2016/claims.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("carlson2016/claims.py"),
        settings=dict(fig3_models=list(C16_FIG3_MODELS), fig1_main_sweeps=C16["fig1"]["main_sweeps"]),
        profile=PROFILE,
    script:
        "../scripts/carlson2016/claims.py"


PAPER_TARGETS["carlson2016"] += [
    *rules.carlson2016_exact_check.output,
    *rules.carlson2016_fig1.output,
    *rules.carlson2016_fig2.output,
    *rules.carlson2016_fig3.output,
    *rules.carlson2016_fig4.output,
    *rules.carlson2016_fig5.output,
]


rule carlson2016:
    input:
        PAPER_TARGETS["carlson2016"],
        claims_file("carlson2016"),
