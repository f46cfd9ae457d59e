# salakhutdinov2010: Learning deep Boltzmann machines using adaptive MCMC (CAST).
#
#   fig2                      the two-node MRF: Gibbs vs FPCD vs Wang-Landau
#   pretrain -> train/{alg}   one cached model per algorithm (SAP, FPCD, Trans-SAP, CAST)
#   evaluate/{alg}            AIS log Z + eq. (3) bound: curve over snapshots, final test bound
#   table1, fig4_bound        aggregates of the evaluations
#   fig4_sampling             Gibbs vs adaptive-ST samples and the temperature trajectory (CAST model)
#   exact_check               AIS vs exact log Z on an enumerable DBM trained on the same data,
#                             with the error along beta and against the number of betas
#   claims                    claims_file("salakhutdinov2010"), from the tables the claims read
#
# Each rule's cfg holds only the config keys its script reads (settings()), so a change to one
# figure's settings reruns that figure and what consumes it, never the pretraining or training.


import re

validate(config["salakhutdinov2010"], "../schemas/salakhutdinov2010.schema.yaml")

S10 = paper_config("salakhutdinov2010")
S10_ALGS = list(S10["algorithms"])
S10_SAMPLING_MODEL = "CAST" if "CAST" in S10_ALGS else S10_ALGS[0]
S10_NORB = [S10["norb_path"]] if S10.get("norb_path") else []

PAPER_TARGETS["salakhutdinov2010"] += [
    figures("salakhutdinov2010/fig2.png"),
    results("salakhutdinov2010/fig2.csv"),
    results("salakhutdinov2010/table1.csv"),
    figures("salakhutdinov2010/fig4_samples.png"),
    figures("salakhutdinov2010/fig4_temperature.png"),
    figures("salakhutdinov2010/fig4_bound.png"),
    results("salakhutdinov2010/fig4_bound.csv"),
    figures("salakhutdinov2010/ais_exact_check.png"),
]
PAPER_FIGURES["salakhutdinov2010"] += [
    figures("salakhutdinov2010/fig2.png"),
    figures("salakhutdinov2010/fig4_samples.png"),
    figures("salakhutdinov2010/fig4_temperature.png"),
    figures("salakhutdinov2010/fig4_bound.png"),
    figures("salakhutdinov2010/ais_exact_check.png"),
]
S10_ALG_PATTERN = "|".join(re.escape(a) for a in S10_ALGS)


rule salakhutdinov2010_fig2:
    output:
        fig=report(
            figures("salakhutdinov2010/fig2.png"),
            caption="../report/salakhutdinov2010_fig2.rst",
            category="salakhutdinov2010",
        ),
        csv=results("salakhutdinov2010/fig2.csv"),
        occupation=results("salakhutdinov2010/fig2_occupation.csv"),
    log:
        logs("salakhutdinov2010/fig2.log"),
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/fig2.py"),
        cfg=settings("salakhutdinov2010", "fig2"),
        seed=SEED,
        profile=PROFILE,
    script:
        "../scripts/salakhutdinov2010/fig2.py"


rule salakhutdinov2010_pretrain:
    input:
        data=data("mnist_binary.npz"),
    output:
        model=results("models/salakhutdinov2010/pretrained.npz"),
    log:
        logs("salakhutdinov2010/pretrain.log"),
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/pretrain.py"),
        cfg=settings(
            "salakhutdinov2010",
            "n_validation",
            "n_visible",
            "n_hidden1",
            "n_hidden2",
            "batch_size",
            "dtype",
            "pretrain",
        ),
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/pretrain.py"


rule salakhutdinov2010_train:
    input:
        data=data("mnist_binary.npz"),
        pretrained=rules.salakhutdinov2010_pretrain.output.model,
    output:
        model=results("models/salakhutdinov2010/{algorithm}.npz"),
    log:
        logs("salakhutdinov2010/train_{algorithm}.log"),
    wildcard_constraints:
        algorithm=S10_ALG_PATTERN,
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/train.py"),
        cfg=settings("salakhutdinov2010", "n_validation", "batch_size", "train"),
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/train.py"


rule salakhutdinov2010_evaluate:
    input:
        data=data("mnist_binary.npz"),
        model=rules.salakhutdinov2010_train.output.model,
    output:
        curve=results("salakhutdinov2010/eval/{algorithm}_curve.csv"),
        final=results("salakhutdinov2010/eval/{algorithm}_final.json"),
    log:
        logs("salakhutdinov2010/evaluate_{algorithm}.log"),
    wildcard_constraints:
        algorithm=S10_ALG_PATTERN,
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/evaluate.py"),
        cfg=settings("salakhutdinov2010", "n_validation", "evaluation"),
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/evaluate.py"


rule salakhutdinov2010_table1:
    input:
        finals=expand(rules.salakhutdinov2010_evaluate.output.final, algorithm=S10_ALGS),
        norb=S10_NORB,
    output:
        table=results("salakhutdinov2010/table1.csv"),
    log:
        logs("salakhutdinov2010/table1.log"),
    conda:
        CONDA_ENV
    params:
        code=code_version("salakhutdinov2010/table1.py"),
        cfg=settings("salakhutdinov2010", "norb_path"),
    script:
        "../scripts/salakhutdinov2010/table1.py"


rule salakhutdinov2010_fig4_bound:
    input:
        curves=expand(rules.salakhutdinov2010_evaluate.output.curve, algorithm=S10_ALGS),
    output:
        fig=report(
            figures("salakhutdinov2010/fig4_bound.png"),
            caption="../report/salakhutdinov2010_fig4_bound.rst",
            category="salakhutdinov2010",
        ),
        csv=results("salakhutdinov2010/fig4_bound.csv"),
    log:
        logs("salakhutdinov2010/fig4_bound.log"),
    conda:
        CONDA_ENV
    params:
        code=code_version("salakhutdinov2010/fig4_bound.py"),
        cfg=settings("salakhutdinov2010", "n_visible", "n_hidden1", "n_hidden2", "train", "evaluation"),
        profile=PROFILE,
    script:
        "../scripts/salakhutdinov2010/fig4_bound.py"


rule salakhutdinov2010_fig4_sampling:
    input:
        data=data("mnist_binary.npz"),
        model=expand(rules.salakhutdinov2010_train.output.model, algorithm=S10_SAMPLING_MODEL)[0],
    output:
        samples=report(
            figures("salakhutdinov2010/fig4_samples.png"),
            caption="../report/salakhutdinov2010_fig4_samples.rst",
            category="salakhutdinov2010",
        ),
        temperature=report(
            figures("salakhutdinov2010/fig4_temperature.png"),
            caption="../report/salakhutdinov2010_fig4_temperature.rst",
            category="salakhutdinov2010",
        ),
        npz=results("salakhutdinov2010/fig4_sampling.npz"),
        summary=results("salakhutdinov2010/fig4_sampling.json"),
    log:
        logs("salakhutdinov2010/fig4_sampling.log"),
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/fig4_sampling.py"),
        cfg=settings("salakhutdinov2010", "n_validation", "samples"),
        seed=SEED,
        profile=PROFILE,
    script:
        "../scripts/salakhutdinov2010/fig4_sampling.py"


rule salakhutdinov2010_exact_check:
    input:
        data=data("mnist_binary.npz"),
    output:
        json=results("salakhutdinov2010/exact_check.json"),
        fig=report(
            figures("salakhutdinov2010/ais_exact_check.png"),
            caption="../report/salakhutdinov2010_ais_exact_check.rst",
            category="salakhutdinov2010",
        ),
    log:
        logs("salakhutdinov2010/exact_check.log"),
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/exact_check.py"),
        cfg=settings(
            "salakhutdinov2010", "n_validation", "batch_size", "pretrain", "train", "evaluation", "exact_check"
        ),
        seed=SEED,
        profile=PROFILE,
    script:
        "../scripts/salakhutdinov2010/exact_check.py"


rule salakhutdinov2010_claims:
    input:
        fig2=rules.salakhutdinov2010_fig2.output.csv,
        fig2_occupation=rules.salakhutdinov2010_fig2.output.occupation,
        finals=expand(rules.salakhutdinov2010_evaluate.output.final, algorithm=S10_ALGS),
        curves=rules.salakhutdinov2010_fig4_bound.output.csv,
        sampling=rules.salakhutdinov2010_fig4_sampling.output.summary,
        exact_check=rules.salakhutdinov2010_exact_check.output.json,
    output:
        claims_file("salakhutdinov2010"),
    log:
        logs("salakhutdinov2010/claims.log"),
    conda:
        CONDA_ENV
    params:
        code=code_version("salakhutdinov2010/claims.py"),
        settings=settings("salakhutdinov2010"),
        profile=PROFILE,
    script:
        "../scripts/salakhutdinov2010/claims.py"


rule salakhutdinov2010:
    input:
        PAPER_TARGETS["salakhutdinov2010"],
        claims_file("salakhutdinov2010"),
