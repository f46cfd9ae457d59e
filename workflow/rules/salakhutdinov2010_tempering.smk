# salakhutdinov2010: CAST's fast chains over training, for CAST and CAST-perchain (included by
# salakhutdinov2010.smk; the tables its claims read are S10_CAST_TABLES).


rule salakhutdinov2010_cast_tempering:
    input:
        models=expand(rules.salakhutdinov2010_train.output.model, algorithm="CAST", repeat=S10_SEEDS),
        noswap=expand(rules.salakhutdinov2010_train.output.model, algorithm=S10_NOSWAP, repeat=S10_NOSWAP_SEEDS),
    output:
        fig=report(
            figures("salakhutdinov2010/cast_tempering.png"),
            caption="../report/salakhutdinov2010_cast_tempering.rst",
            category="salakhutdinov2010",
        ),
        occupancy=results("salakhutdinov2010/cast_occupancy.csv"),
        swaps=results("salakhutdinov2010/cast_swaps.csv"),
        noswap_occupancy=results("salakhutdinov2010/cast_noswap_occupancy.csv"),
        comparison=results("salakhutdinov2010/cast_swap_comparison.csv"),
    log:
        logs("salakhutdinov2010/cast_tempering.log"),
    benchmark:
        benchmarks("salakhutdinov2010/cast_tempering.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("salakhutdinov2010/cast_tempering.py"),
        cfg=settings("salakhutdinov2010", "n_seeds", "train", "cast_noswap_seeds"),
        profile=PROFILE,
        variant="CAST",
    script:
        "../scripts/salakhutdinov2010/cast_tempering.py"


rule salakhutdinov2010_cast_perchain_tempering:
    input:
        models=expand(rules.salakhutdinov2010_train.output.model, algorithm=S10_PERCHAIN, repeat=S10_SEEDS),
        noswap=[],
    output:
        fig=report(
            figures("salakhutdinov2010/cast_perchain_tempering.png"),
            caption="../report/salakhutdinov2010_cast_perchain_tempering.rst",
            category="salakhutdinov2010",
        ),
        occupancy=results("salakhutdinov2010/cast_perchain_occupancy.csv"),
        swaps=results("salakhutdinov2010/cast_perchain_swaps.csv"),
        first_reach=results("salakhutdinov2010/cast_perchain_first_reach.csv"),
    log:
        logs("salakhutdinov2010/cast_perchain_tempering.log"),
    benchmark:
        benchmarks("salakhutdinov2010/cast_perchain_tempering.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("salakhutdinov2010/cast_tempering.py"),
        cfg=settings("salakhutdinov2010", "n_seeds", "train"),
        profile=PROFILE,
        variant=S10_PERCHAIN,
    script:
        "../scripts/salakhutdinov2010/cast_tempering.py"


S10_CAST_TABLES = (
    {
        "cast_occupancy": rules.salakhutdinov2010_cast_tempering.output.occupancy,
        "cast_swaps": rules.salakhutdinov2010_cast_tempering.output.swaps,
        "cast_swap_comparison": rules.salakhutdinov2010_cast_tempering.output.comparison,
    }
    if S10_CAST
    else {}
)
S10_CAST_TABLES.update(
    {
        "cast_perchain_occupancy": rules.salakhutdinov2010_cast_perchain_tempering.output.occupancy,
        "cast_perchain_swaps": rules.salakhutdinov2010_cast_perchain_tempering.output.swaps,
        "cast_perchain_first_reach": rules.salakhutdinov2010_cast_perchain_tempering.output.first_reach,
    }
    if S10_CAST_PERCHAIN
    else {}
)
