# salakhutdinov2010: published models (included by salakhutdinov2010.smk; issue 51's schedule evidence run).


# Published models (issue 51): a training's final parameters, CAST's records and its evaluation, for a run that
# outlives the machine it started on. export_model writes them under results; a run whose config names their
# directory (adopt_dir) takes every training and pretraining found there instead of making it again.
S10_PUBLISHED = "salakhutdinov2010/published_models/seed{repeat}"


rule salakhutdinov2010_export_model:
    input:
        model=rules.salakhutdinov2010_train.output.model,
        curve=rules.salakhutdinov2010_evaluate.output.curve,
        final=rules.salakhutdinov2010_evaluate.output.final,
    output:
        model=results(f"{S10_PUBLISHED}/{{algorithm}}.npz"),
        curve=results(f"{S10_PUBLISHED}/{{algorithm}}_curve.csv"),
        final=results(f"{S10_PUBLISHED}/{{algorithm}}_final.json"),
    log:
        logs("salakhutdinov2010/export_model_seed{repeat}_{algorithm}.log"),
    benchmark:
        benchmarks("salakhutdinov2010/export_model_seed{repeat}_{algorithm}.tsv")
    wildcard_constraints:
        algorithm=S10_ALG_PATTERN,
        repeat=r"\d+",
    conda:
        CONDA_ENV
    params:
        code=code_version("salakhutdinov2010/export_model.py"),
        cfg=settings("salakhutdinov2010", "evaluation"),
    script:
        "../scripts/salakhutdinov2010/export_model.py"


S10_ADOPT_DIR = (S10["adopt_dir"] or "").rstrip("/")
S10_ADOPTED = adopted_models(S10_ADOPT_DIR, S10_SEEDS, S10_ALGS)

if S10_ADOPTED["pretrained"]:

    rule salakhutdinov2010_adopt_pretrained:
        input:
            model=f"{S10_ADOPT_DIR}/seed{{repeat}}/pretrained.npz",
            data=data("mnist_stochastic.npz"),
        output:
            model=rules.salakhutdinov2010_pretrain.output.model,
        log:
            logs("salakhutdinov2010/adopt_pretrained_seed{repeat}.log"),
        wildcard_constraints:
            repeat="|".join(map(str, S10_ADOPTED["pretrained"])),
        conda:
            CONDA_ENV
        params:
            code=code_version("salakhutdinov2010/adopt_pretrained.py"),
            cfg=rules.salakhutdinov2010_pretrain.params.cfg,
            seed=SEED,
        script:
            "../scripts/salakhutdinov2010/adopt_pretrained.py"

    ruleorder: salakhutdinov2010_adopt_pretrained > salakhutdinov2010_pretrain


if S10_ADOPTED["published"]:

    rule salakhutdinov2010_adopt_model:
        input:
            model=f"{S10_ADOPT_DIR}/seed{{repeat}}/{{algorithm}}.npz",
            data=data("mnist_stochastic.npz"),
            curve=f"{S10_ADOPT_DIR}/seed{{repeat}}/{{algorithm}}_curve.csv",
            final=f"{S10_ADOPT_DIR}/seed{{repeat}}/{{algorithm}}_final.json",
        output:
            model=rules.salakhutdinov2010_train.output.model,
            curve=rules.salakhutdinov2010_evaluate.output.curve,
            final=rules.salakhutdinov2010_evaluate.output.final,
        log:
            logs("salakhutdinov2010/adopt_model_seed{repeat}_{algorithm}.log"),
        wildcard_constraints:
            algorithm="|".join(re.escape(a) for a in sorted({a for v in S10_ADOPTED["published"].values() for a in v})),
            repeat=adopted_pairs_constraint(S10_ADOPTED["published"], [".npz", "_curve.csv", "_final.json"]),
        conda:
            CONDA_ENV
        params:
            code=code_version("salakhutdinov2010/adopt_model.py"),
            cfg=settings("salakhutdinov2010", "n_validation", "training_images", "train", "evaluation"),
            seed=SEED,
        script:
            "../scripts/salakhutdinov2010/adopt_model.py"

    ruleorder: salakhutdinov2010_adopt_model > salakhutdinov2010_train
    ruleorder: salakhutdinov2010_adopt_model > salakhutdinov2010_evaluate
