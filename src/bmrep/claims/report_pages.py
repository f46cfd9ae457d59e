"""The replication summary's pages in the HTML report (``snakemake --report``).

Two pages, both written by the summary job:

* the front page (reStructuredText, the Snakefile's ``report:``): the title,
  the run's profile, commit and time, one line per paper with its count of
  each verdict and **[Re]** / **[~Re]** (as REPLICATION.md's first lines), and
  a link to the full table. It is short on purpose: the report app shows it
  beside the workflow's rule graph and centres its pane vertically, so a long
  page opened in its middle with its first rows out of reach, and a wide one
  ran under the graph (issue 43).
* the full table (a standalone HTML page, a report item of category
  ``Summary``): every claim with its estimate, threshold and coloured
  verdict, in its own pane that scrolls from its first row.
"""

from __future__ import annotations

import html

import pandas as pd

from .summary import VERDICT_ORDER, format_estimate, needed_text
from .verdict import INCONCLUSIVE, NOT_REPRODUCED, NOT_RUN, REPRODUCED, VERDICTS

# Verdict colours (background, text).
COLOURS = {REPRODUCED: ("#d4edda", "#155724"), NOT_REPRODUCED: ("#f8d7da", "#721c24"),
           INCONCLUSIVE: ("#fff3cd", "#856404"), NOT_RUN: ("#e2e3e5", "#383d41")}  # fmt: skip
COLUMNS = ("claim", "statement", "paper's value", "estimate", "threshold", "verdict", "needed repeats")

# The report app (snakemake 9) centres its content pane (`items-center justify-center`): a pane
# taller or wider than the window (the rule graph is both) opens in its middle, its top out of
# reach and its left under the sidebar. This style lives inside the front page, so it holds only
# while the front page is shown: the page then starts at the pane's top left, the graph beside it.
FRONT_STYLE = """<style>
div.h-screen.overflow-auto.items-center { align-items: flex-start; justify-content: flex-start; }
#papers { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
#papers th, #papers td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
#papers td:first-child, #papers th:first-child { text-align: left; }
</style>"""

PAGE_STYLE = """<style>
body { font-family: system-ui, sans-serif; font-size: 14px; margin: 12px; color: #222; }
h1 { font-size: 1.4em; margin: 0 0 0.3em 0; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 3px 6px; vertical-align: top; }
#verdicts { margin-top: 1em; }
#verdicts th { position: sticky; top: 0; background: #f4f4f4; }
#verdicts td:first-child { font-family: monospace; font-size: 0.9em; }
td.n { text-align: right; }
</style>"""


def _e(x) -> str:
    return html.escape(str(x), quote=True)


def _papers(summary: pd.DataFrame, titles: dict[str, str]) -> list[str]:
    return list(dict.fromkeys(list(titles) + list(summary["paper"].unique())))


def paper_rows(summary: pd.DataFrame, titles: dict[str, str]) -> str:
    """One table row per paper: its name, the count of each verdict, [Re] or [~Re] (as paper_line)."""
    rows = []
    for paper in _papers(summary, titles):
        sub = summary[summary["paper"] == paper]
        counts = sub["verdict"].value_counts().to_dict()
        ran = sub[sub["verdict"] != NOT_RUN]
        mark = "[Re]" if len(ran) and (ran["verdict"] == REPRODUCED).all() else "[~Re]"
        cells = "".join(f'<td class="n">{counts.get(v, 0)}</td>' for v in VERDICTS)
        rows.append(f'<tr class="paper"><td title="{_e(titles.get(paper, ""))}">{_e(paper)}</td>{cells}'
                    f"<td><b>{mark}</b></td></tr>")  # fmt: skip
    head = "".join(f"<th>{v}</th>" for v in ("paper", *VERDICTS, ""))
    return f'<table id="papers"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def run_line(profile: str, commit: str | None, when: str) -> str:
    """The run's profile, commit and time, one HTML paragraph."""
    c = f'<span style="font-family: monospace">{_e(commit[:12])}</span>' if commit else "unknown (not a git checkout)"
    return f'<p id="run">Profile <b>{_e(profile)}</b>; commit {c}; summary written {_e(when)}.</p>'


def render_report_front(summary, profile, titles, commit, when, table_key: str, intro: str) -> str:
    """The report's front page (reStructuredText); ``table_key`` is the full table's path in the report."""
    key = _e(table_key.replace("\\", "\\\\").replace("'", "\\'"))
    # Opens the full table as the report's own "view" button does (result info beside, page in the pane).
    click = (f"app.showResultInfo('{key}'); app.setView({{content: 'html', contentPath: results['{key}'].data_uri}});"
             " return false;")  # fmt: skip
    link = (f'<p><a id="full-table" href="#" onclick="{click}">The full table: all {len(summary)} claims</a> '
            "with the paper's value, our estimate, the threshold and the verdict.</p>")  # fmt: skip
    lines = ["Replication verdicts", "=" * 20, "", ".. raw:: html", ""]
    lines += [
        "   " + t
        for t in (*FRONT_STYLE.splitlines(), run_line(profile, commit, when), paper_rows(summary, titles), link)
    ]
    lines += ["", intro.rstrip(), ""]
    return "\n".join(lines)


def render_verdict_page(summary: pd.DataFrame, profile: str, titles: dict[str, str], commit, when) -> str:
    """The full verdict table as a standalone HTML page, one row per claim, worst verdicts of each paper first."""
    rows = []
    for paper in _papers(summary, titles):
        sub = summary[summary["paper"] == paper]
        sub = sub.assign(_o=sub["verdict"].map(VERDICT_ORDER)).sort_values("_o", kind="stable")
        for _, r in sub.iterrows():
            bg, fg = COLOURS[r["verdict"]]
            claim_id = _e(r["claim_id"]).replace("/", "/<wbr>")
            cells = [r["claim"], r["paper_value"], format_estimate(r), r["threshold"]]
            tds = f"<td>{claim_id}</td>" + "".join(f"<td>{_e(c)}</td>" for c in cells)
            verdict = f'<td class="verdict" style="background:{bg};color:{fg}">{_e(r["verdict"])}</td>'
            rows.append(f"<tr>{tds}{verdict}<td>{_e(needed_text(r))}</td></tr>")
    head = "".join(f"<th>{h}</th>" for h in COLUMNS)
    return "\n".join([
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Replication verdicts</title>',
        PAGE_STYLE, "</head><body>",
        f"<h1>Replication verdicts: every claim ({len(summary)})</h1>",
        run_line(profile, commit, when),
        paper_rows(summary, titles),
        f'<table id="verdicts"><thead><tr>{head}</tr></thead><tbody>',
        *rows,
        "</tbody></table></body></html>",
    ])  # fmt: skip


__all__ = [
    "paper_rows",
    "run_line",
    "render_report_front",
    "render_verdict_page",
]
