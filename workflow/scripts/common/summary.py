"""Merge the papers' decided claims into replication_summary.csv and REPLICATION.md."""

import os

from bmrep.claims.summary import read_claims, render_report_front, write_summary
from bmrep.io import write_text
from bmrep.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
out, p = snakemake.output, snakemake.params  # noqa: F821
summary = read_claims(snakemake.input.claims)  # noqa: F821
md_dir = os.path.dirname(os.path.abspath(out.md))
figures = {paper: [os.path.relpath(os.path.abspath(f), md_dir) for f in figs] for paper, figs in p.figures.items()}
write_summary(out.csv, out.md, summary, figures, p.profile, dict(p.titles))
with open(snakemake.input.intro) as f:  # noqa: F821
    write_text(out.front, render_report_front(summary, p.profile, dict(p.titles), f.read()))
log.info("%d claims: %s", len(summary), summary["verdict"].value_counts().to_dict())
