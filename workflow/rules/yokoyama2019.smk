# yokoyama2019: shell until this paper's issue lands. Registers targets in
# PAPER_TARGETS["yokoyama2019"] and writes claims_file("yokoyama2019").


rule yokoyama2019_claims:
    output:
        claims_file("yokoyama2019"),
    log:
        logs("yokoyama2019/claims.log"),
    params:
        paper="yokoyama2019",
        profile=PROFILE,
    script:
        "../scripts/common/not_run_claims.py"


rule yokoyama2019:
    input:
        PAPER_TARGETS["yokoyama2019"],
        claims_file("yokoyama2019"),
