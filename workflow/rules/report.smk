# Replication summary: every enabled paper's claims merged into
# <results>/replication_summary.csv and <results>/REPLICATION.md, and the HTML
# report's two pages of verdicts (bmrep.claims.report_pages): the short front
# page (the Snakefile's report:) and the full table, a report item of its own.

from bmrep.claims.summary import PAPER_TITLES


rule summary:
    input:
        intro="workflow/report/workflow.rst",
        claims=[claims_file(p) for p in PAPERS if enabled(p)],
        figures=[f for p in PAPERS if enabled(p) for f in PAPER_FIGURES[p]],
    output:
        csv=report(
            results("replication_summary.csv"),
            caption="../report/summary.rst",
            category="Summary",
        ),
        md=results("REPLICATION.md"),
        # The report's front page (Snakefile: report:): one line per paper, a link to the table.
        front=results("report_front.rst"),
        table=report(
            results("verdicts.html"),
            caption="../report/verdicts.rst",
            category="Summary",
        ),
    log:
        logs("summary.log"),
    benchmark:
        benchmarks("summary.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("common/summary.py"),
        profile=PROFILE,
        titles={p: PAPER_TITLES[p] for p in PAPERS if enabled(p)},
        # plain paths: rule outputs carry their report() flags, which do not pickle
        figures={p: [str(f) for f in PAPER_FIGURES[p]] for p in PAPERS if enabled(p)},
    script:
        "../scripts/common/summary.py"


# Every claim the code declares for this profile (not run), whether the run reached it or not:
# make publish fills a partial run's missing papers with them; tests/ops/test_published.py checks
# published summaries against them.
rule declared_claims:
    output:
        results("claims/declared.csv"),
    log:
        logs("declared_claims.log"),
    benchmark:
        benchmarks("declared_claims.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("common/declared_claims.py"),
        profile=PROFILE,
        settings={p: getattr(rules, f"{p}_claims").params.settings for p in PAPERS if enabled(p)},
    script:
        "../scripts/common/declared_claims.py"
