# bruegge2013: shell until this paper's issue lands. Registers targets in
# PAPER_TARGETS["bruegge2013"] and writes claims_file("bruegge2013").


rule bruegge2013_claims:
    output:
        claims_file("bruegge2013"),
    log:
        logs("bruegge2013/claims.log"),
    params:
        paper="bruegge2013",
        profile=PROFILE,
    script:
        "../scripts/common/not_run_claims.py"


rule bruegge2013:
    input:
        PAPER_TARGETS["bruegge2013"],
        claims_file("bruegge2013"),
