# saul1996: shell until this paper's issue lands. Registers targets in
# PAPER_TARGETS["saul1996"] and writes claims_file("saul1996").


rule saul1996_claims:
    output:
        claims_file("saul1996"),
    log:
        logs("saul1996/claims.log"),
    params:
        paper="saul1996",
        profile=PROFILE,
    script:
        "../scripts/common/not_run_claims.py"


rule saul1996:
    input:
        PAPER_TARGETS["saul1996"],
        claims_file("saul1996"),
