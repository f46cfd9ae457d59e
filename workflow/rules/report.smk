# Replication summary: every enabled paper's claims merged into
# <results>/replication_summary.csv and <results>/REPLICATION.md.

PAPER_TITLES = {
    "saul1996": "Saul, Jaakkola & Jordan (1996), Mean field theory for sigmoid belief networks",
    "yokoyama2019": "Yokoyama, Katsumata & Yasuda (2019), RBMs with multivalued hidden variables",
    "salakhutdinov2010": "Salakhutdinov (2010), Learning deep Boltzmann machines using adaptive MCMC",
    "carlson2016": "Carlson, Stinson, Pakman & Paninski (2016), Partition functions from Rao-Blackwellized tempered sampling",
    "bruegge2013": "Brügge, Fischer & Igel (2013), The flip-the-state transition operator for RBMs",
    "calibration": "Beyond the papers: partition-function estimators against exact log Z (issue 23)",
}


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
        # The report's front page (Snakefile: report:), the verdict table.
        front=results("report_front.rst"),
    log:
        logs("summary.log"),
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
