# salakhutdinov2010: shell until this paper's issue lands. Registers targets in
# PAPER_TARGETS["salakhutdinov2010"] and writes claims_file("salakhutdinov2010").


rule salakhutdinov2010_claims:
    output:
        claims_file("salakhutdinov2010"),
    log:
        logs("salakhutdinov2010/claims.log"),
    params:
        paper="salakhutdinov2010",
        profile=PROFILE,
    script:
        "../scripts/common/not_run_claims.py"


rule salakhutdinov2010:
    input:
        PAPER_TARGETS["salakhutdinov2010"],
        claims_file("salakhutdinov2010"),
