# carlson2016: shell until this paper's issue lands. Registers targets in
# PAPER_TARGETS["carlson2016"] and writes claims_file("carlson2016").


rule carlson2016_claims:
    output:
        claims_file("carlson2016"),
    log:
        logs("carlson2016/claims.log"),
    params:
        paper="carlson2016",
        profile=PROFILE,
    script:
        "../scripts/common/not_run_claims.py"


rule carlson2016:
    input:
        PAPER_TARGETS["carlson2016"],
        claims_file("carlson2016"),
