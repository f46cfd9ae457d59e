# salakhutdinov2010: Learning deep Boltzmann machines using adaptive MCMC (CAST).
#
#   fig2                      the two-node MRF: Gibbs vs FPCD vs Wang-Landau
#   pretrain/{seed}           greedy pretraining, one per seed (shared by the algorithms: common random numbers)
#   train/{seed}/{alg}        one job per (seed, algorithm): SAP, FPCD, Trans-SAP, CAST and the control SAP-50
#                             (SAP on CAST's slow chains' streams), so seeds run in parallel; and the diagnostic
#                             CAST-noswap (CAST without swaps) for the first cast_noswap_seeds seeds, not evaluated
#   (salakhutdinov2010_tempering.smk)
#   cast_tempering            CAST's fast chains over training (level occupancy, shared weights, swaps), all seeds,
#                             and with against without swapping for the CAST-noswap seeds
#   evaluate/{seed}/{alg}     AIS log Z + eq. (3) bound: curve over snapshots, final test bound (replicated AIS)
#   (salakhutdinov2010_checks.smk)
#   ladder_check/{alg}        seed 0's final log Z: one AIS replicate at the profile's ladder, one 5x longer (Table 1)
#   runs_check/{alg}          with runs_check set: seed 0's final log Z from many more AIS replicates, pooled (Table 1)
#   instrument_check/{seed}/{alg}  with evaluation.instrument_check set: each Table 1 model's log Z at a longer
#                             ladder and by reverse AIS (Table 1)
#   table1, fig4_bound        aggregates over seeds (means, s.e. and paired differences)
#   fig4_sampling             Gibbs vs adaptive-ST samples and the temperature trajectory (CAST model)
#   (salakhutdinov2010_exact_check.smk)
#   exact_check_model         an enumerable DBM (784-12-12) trained like the large ones, its exact log Z
#   exact_check_shard/{shard} independent AIS replicates of its log Z (the profile's final AIS)
#   exact_check_diagnostics   the running AIS error along beta and against the number of betas
#   exact_check               the AIS calibration: the replicates' errors against the exact log Z
#   ladder_selection          (not in the default targets) candidate AIS ladders on a second enumerable DBM
#                             (exact_check.selection_seed): the measurement that chose evaluation.final_ais
#   claims                    claims_file("salakhutdinov2010"), from the tables the claims read
#   cast_perchain_tempering   as cast_tempering, for CAST-perchain (one Wang-Landau vector per fast chain), when
#                             it is among the algorithms (the schedule evidence run, the smoke profile)
#   (salakhutdinov2010_published.smk)
#   export_model/{seed}/{alg} the published model of a training (final parameters, CAST's records, its evaluation)
#   adopt_model, adopt_pretrained   with adopt_dir set: a training, its evaluation and a seed's pretraining taken
#                             from their published models instead of being made again (a run over several sessions)
#
# Each rule's cfg holds only the config keys its script reads (settings()), so a change to one
# figure's settings reruns that figure and what consumes it, never the pretraining or training.


import re

from bmrep.papers.salakhutdinov2010.summaries import CALIBRATION_TOLERANCE as S10_CALIBRATION_TOLERANCE
from bmrep.learning.dbm_samplers import NOSWAP as S10_NOSWAP
from bmrep.learning.dbm_samplers import PERCHAIN as S10_PERCHAIN

validate(config["salakhutdinov2010"], "../schemas/salakhutdinov2010.schema.yaml")

S10 = paper_config("salakhutdinov2010")
S10_ALGS = list(S10["algorithms"])
S10_SAMPLING_MODEL = "CAST" if "CAST" in S10_ALGS else S10_ALGS[0]
S10_NORB = [S10["norb_path"]] if S10["norb_path"] else []

PAPER_TARGETS["salakhutdinov2010"] += [
    figures("salakhutdinov2010/fig2.png"),
    results("salakhutdinov2010/fig2.csv"),
    results("salakhutdinov2010/table1.csv"),
    results("salakhutdinov2010/table1_paired.csv"),
    figures("salakhutdinov2010/fig4_samples.png"),
    figures("salakhutdinov2010/fig4_temperature.png"),
    figures("salakhutdinov2010/fig4_bound.png"),
    results("salakhutdinov2010/fig4_bound.csv"),
    figures("salakhutdinov2010/ais_exact_check.png"),
]
S10_CAST = "CAST" in S10_ALGS
if S10_CAST:
    PAPER_TARGETS["salakhutdinov2010"].append(figures("salakhutdinov2010/cast_tempering.png"))
    PAPER_FIGURES["salakhutdinov2010"].append(figures("salakhutdinov2010/cast_tempering.png"))
S10_CAST_PERCHAIN = S10_PERCHAIN in S10_ALGS
if S10_CAST_PERCHAIN:
    PAPER_TARGETS["salakhutdinov2010"].append(figures("salakhutdinov2010/cast_perchain_tempering.png"))
    PAPER_FIGURES["salakhutdinov2010"].append(figures("salakhutdinov2010/cast_perchain_tempering.png"))
PAPER_FIGURES["salakhutdinov2010"] += [
    figures("salakhutdinov2010/fig2.png"),
    figures("salakhutdinov2010/fig4_samples.png"),
    figures("salakhutdinov2010/fig4_temperature.png"),
    figures("salakhutdinov2010/fig4_bound.png"),
    figures("salakhutdinov2010/ais_exact_check.png"),
]
S10_ALG_PATTERN = "|".join(re.escape(a) for a in S10_ALGS)
S10_SEEDS = list(range(int(S10["n_seeds"])))
# An algorithm named in algorithm_seeds is trained for its first N seeds only (the schedule evidence run: FPCD and
# Trans-SAP for seed 0); every other for all n_seeds. S10_RUNS: the (algorithm, seed) trainings Table 1 reads.
S10_ALG_SEEDS = {a: S10_SEEDS[: int(S10["algorithm_seeds"].get(a, len(S10_SEEDS)))] for a in S10_ALGS}
S10_RUNS = [(a, r) for a in S10_ALGS for r in S10_ALG_SEEDS[a]]


# The diagnostic CAST-noswap (spec, section 3): trained for the first cast_noswap_seeds seeds, only for
# cast_tempering (not evaluated, not in Table 1), so the training rule alone accepts it.
S10_NOSWAP_SEEDS = S10_SEEDS[: int(S10["cast_noswap_seeds"])] if S10_CAST else []
S10_TRAIN_PATTERN = "|".join(re.escape(a) for a in [*S10_ALGS, S10_NOSWAP])
# The final AIS of the Table 1 models is the one the calibration judges: one config entry, passed to both.
S10_FINAL_AIS = {"ais": S10["evaluation"]["final_ais"], "ais_state": S10["evaluation"]["ais_state"]}


rule salakhutdinov2010_fig2:
    output:
        fig=report(
            figures("salakhutdinov2010/fig2.png"),
            caption="../report/salakhutdinov2010_fig2.rst",
            category="salakhutdinov2010",
        ),
        csv=results("salakhutdinov2010/fig2.csv"),
        runs=results("salakhutdinov2010/fig2_runs.csv"),
        occupation=results("salakhutdinov2010/fig2_occupation.csv"),
    log:
        logs("salakhutdinov2010/fig2.log"),
    benchmark:
        benchmarks("salakhutdinov2010/fig2.tsv")
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
        data=data("mnist_stochastic.npz"),
        grey=data("mnist.npz"),  # read with training_images: redrawn
    output:
        model=results("models/salakhutdinov2010/seed{repeat}/pretrained.npz"),
    log:
        logs("salakhutdinov2010/pretrain_seed{repeat}.log"),
    benchmark:
        benchmarks("salakhutdinov2010/pretrain_seed{repeat}.tsv")
    wildcard_constraints:
        repeat=r"\d+",
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
            "training_images",
            "pretrain",
        ),
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/pretrain.py"


rule salakhutdinov2010_train:
    input:
        data=data("mnist_stochastic.npz"),
        grey=data("mnist.npz"),  # read with training_images: redrawn
        pretrained=rules.salakhutdinov2010_pretrain.output.model,
    output:
        model=results("models/salakhutdinov2010/seed{repeat}/{algorithm}.npz"),
    log:
        logs("salakhutdinov2010/train_seed{repeat}_{algorithm}.log"),
    benchmark:
        benchmarks("salakhutdinov2010/train_seed{repeat}_{algorithm}.tsv")
    wildcard_constraints:
        algorithm=S10_TRAIN_PATTERN,
        repeat=r"\d+",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/train.py"),
        cfg=settings("salakhutdinov2010", "n_validation", "batch_size", "training_images", "train"),
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/train.py"


rule salakhutdinov2010_evaluate:
    input:
        data=data("mnist_stochastic.npz"),
        model=rules.salakhutdinov2010_train.output.model,
    output:
        curve=results("salakhutdinov2010/eval/seed{repeat}/{algorithm}_curve.csv"),
        final=results("salakhutdinov2010/eval/seed{repeat}/{algorithm}_final.json"),
    log:
        logs("salakhutdinov2010/evaluate_seed{repeat}_{algorithm}.log"),
    benchmark:
        benchmarks("salakhutdinov2010/evaluate_seed{repeat}_{algorithm}.tsv")
    wildcard_constraints:
        algorithm=S10_ALG_PATTERN,
        repeat=r"\d+",
    conda:
        CONDA_ENV
    threads: 1
    params:
        code=code_version("salakhutdinov2010/evaluate.py"),
        cfg=settings("salakhutdinov2010", "n_validation", "evaluation"),
        seed=SEED,
    script:
        "../scripts/salakhutdinov2010/evaluate.py"


include: "salakhutdinov2010_checks.smk"


rule salakhutdinov2010_table1:
    input:
        finals=pairs_expand(S10_RUNS, rules.salakhutdinov2010_evaluate.output.final),
        ladder_checks=expand(rules.salakhutdinov2010_ladder_check.output.json, algorithm=S10_ALGS),
        norb=S10_NORB,
    output:
        table=results("salakhutdinov2010/table1.csv"),
        paired=results("salakhutdinov2010/table1_paired.csv"),
        ladder_check=results("salakhutdinov2010/table1_ladder_check.csv"),
    log:
        logs("salakhutdinov2010/table1.log"),
    benchmark:
        benchmarks("salakhutdinov2010/table1.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("salakhutdinov2010/table1.py"),
        cfg=settings("salakhutdinov2010", "norb_path"),
    script:
        "../scripts/salakhutdinov2010/table1.py"


rule salakhutdinov2010_fig4_bound:
    input:
        curves=pairs_expand(S10_RUNS, rules.salakhutdinov2010_evaluate.output.curve),
    output:
        fig=report(
            figures("salakhutdinov2010/fig4_bound.png"),
            caption="../report/salakhutdinov2010_fig4_bound.rst",
            category="salakhutdinov2010",
        ),
        csv=results("salakhutdinov2010/fig4_bound.csv"),
    log:
        logs("salakhutdinov2010/fig4_bound.log"),
    benchmark:
        benchmarks("salakhutdinov2010/fig4_bound.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("salakhutdinov2010/fig4_bound.py"),
        cfg=settings("salakhutdinov2010", "n_visible", "n_hidden1", "n_hidden2", "train", "evaluation"),
        profile=PROFILE,
    script:
        "../scripts/salakhutdinov2010/fig4_bound.py"


include: "salakhutdinov2010_tempering.smk"


rule salakhutdinov2010_fig4_sampling:
    input:
        data=data("mnist_stochastic.npz"),
        model=expand(rules.salakhutdinov2010_train.output.model, algorithm=S10_SAMPLING_MODEL, repeat=0)[0],
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
    benchmark:
        benchmarks("salakhutdinov2010/fig4_sampling.tsv")
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


include: "salakhutdinov2010_exact_check.smk"


rule salakhutdinov2010_claims:
    input:
        **S10_CAST_TABLES,
        fig2=rules.salakhutdinov2010_fig2.output.csv,
        fig2_runs=rules.salakhutdinov2010_fig2.output.runs,
        fig2_occupation=rules.salakhutdinov2010_fig2.output.occupation,
        finals=pairs_expand(S10_RUNS, rules.salakhutdinov2010_evaluate.output.final),
        ladder_check=rules.salakhutdinov2010_table1.output.ladder_check,
        runs_checks=S10_RUNS_CHECKS,
        instrument_checks=S10_INSTRUMENT_CHECKS,
        curves=rules.salakhutdinov2010_fig4_bound.output.csv,
        sampling=rules.salakhutdinov2010_fig4_sampling.output.summary,
        exact_check=rules.salakhutdinov2010_exact_check.output.json,
    output:
        claims_file("salakhutdinov2010"),
    log:
        logs("salakhutdinov2010/claims.log"),
    benchmark:
        benchmarks("salakhutdinov2010/claims.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("salakhutdinov2010/claims.py"),
        settings=settings("salakhutdinov2010"),
        profile=PROFILE,
    script:
        "../scripts/salakhutdinov2010/claims.py"


include: "salakhutdinov2010_published.smk"


rule salakhutdinov2010:
    input:
        PAPER_TARGETS["salakhutdinov2010"],
        claims_file("salakhutdinov2010"),
