"""Merge the papers' decided claims into replication_summary.csv and REPLICATION.md, and the report's pages."""

import os
import time

from bmrep.claims.report_pages import render_report_front, render_verdict_page
from bmrep.claims.summary import read_claims, write_summary
from bmrep.io import write_text
from bmrep.pipeline.provenance import commit
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)
out, p = snakemake.output, snakemake.params
summary = read_claims(snakemake.input.claims)
md_dir = os.path.dirname(os.path.abspath(out.md))
figures = {paper: [os.path.relpath(os.path.abspath(f), md_dir) for f in figs] for paper, figs in p.figures.items()}
titles = dict(p.titles)
write_summary(out.csv, out.md, summary, figures, p.profile, titles)
# Provenance, not params: a new commit alone reruns nothing, so this is the commit the summary was made at.
sha, when = commit(snakemake.scriptdir), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
write_text(out.table, render_verdict_page(summary, p.profile, titles, sha, when))
with open(snakemake.input.intro) as f:
    write_text(out.front, render_report_front(summary, p.profile, titles, sha, when, out.table, f.read()))
log.info("%d claims: %s", len(summary), summary["verdict"].value_counts().to_dict())
