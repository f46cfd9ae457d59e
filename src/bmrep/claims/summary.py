"""The replication summary: claim rows to CSV, and REPLICATION.md.

Columns and layout follow the spec ("The summary files"): one row per claim
keyed by claim id; REPLICATION.md opens with one line per paper (counts of
each verdict, **[Re]** when every claim that ran was reproduced, **[~Re]**
otherwise), then per paper the not-reproduced and inconclusive claims first,
each with its details, then the others.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path

import pandas as pd

from ..io import load_tables, write_csv, write_text
from .core import COLUMNS, NOT_APPLICABLE, Claim, ClaimResult, Results, evaluate
from .verdict import INCONCLUSIVE, NOT_REPRODUCED, NOT_RUN, REPRODUCED, VERDICTS

MARK = {REPRODUCED: "✅", NOT_REPRODUCED: "❌", INCONCLUSIVE: "❔", NOT_RUN: "⏸"}
# Units whose values are whole numbers (a count, a median number of steps).
INTEGER_UNITS = ("count", "steps", "updates", "switches")


def claims_frame(results: Iterable[ClaimResult]) -> pd.DataFrame:
    """The decided claims as a table, one row per claim, columns :data:`COLUMNS`."""
    return pd.DataFrame([r.row() for r in results], columns=COLUMNS)


def write_claims(path: str | Path, results: list[ClaimResult]) -> None:
    """Write a paper's decided claims as CSV (atomically)."""
    if not results:
        raise ValueError(f"no claims to write to {path}")
    write_csv(path, claims_frame(results))


def decide_and_write(
    claims: Callable[[dict], list[Claim]], inputs, params, output: str | Path, log
) -> list[ClaimResult]:
    """A paper's claims job: load its named result tables, decide every claim, log and write them.

    ``claims`` is the paper module's ``claims(settings)``; ``inputs`` the job's
    named inputs; ``params`` carries ``settings`` and ``profile``.
    """
    results = Results(load_tables(inputs), settings=params.settings, profile=params.profile)
    decided = evaluate(claims(params.settings), results)
    for d in decided:
        r = d.row()
        log.info(
            "%s | %s | %s +- %s (n = %s) | %s",
            r["claim_id"],
            r["verdict"],
            r["estimate"],
            r["std_error"],
            r["n"],
            r["details"],
        )
    write_claims(output, decided)
    return decided


def read_claims(paths: Iterable[str | Path]) -> pd.DataFrame:
    """Read and concatenate the papers' claims files, checking their columns and verdicts.

    Raises
    ------
    ValueError
        If a file lacks a column of :data:`COLUMNS` or holds an unknown verdict, or two
        files share a claim id.
    """
    frames = []
    for p in paths:
        df = pd.read_csv(p, dtype=str, keep_default_na=False)
        missing = set(COLUMNS) - set(df.columns)
        if missing:
            raise ValueError(f"{p}: claims file lacks columns {sorted(missing)}")
        bad = set(df["verdict"]) - set(VERDICTS)
        if bad:
            raise ValueError(f"{p}: unknown verdict {sorted(bad)}; expected one of {VERDICTS}")
        frames.append(df[COLUMNS])
    if not frames:
        return pd.DataFrame(columns=COLUMNS)
    out = pd.concat(frames, ignore_index=True)
    dup = out["claim_id"][out["claim_id"].duplicated()].tolist()
    if dup:
        raise ValueError(f"duplicate claim ids across claims files: {dup}")
    return out


def format_value(x: float, unit: str) -> str:
    """A number as the summary shows it: counts as integers, rates with their unit."""
    if not math.isfinite(x):
        return str(x)
    if unit in INTEGER_UNITS:
        return f"{round(x):d}"
    text = f"{x:.4g}" if abs(x) >= 1e4 or (x != 0 and abs(x) < 1e-3) else f"{x:.4f}".rstrip("0").rstrip(".")
    if unit == "%":
        return f"{text}%"
    return f"{text} {unit}" if unit else text


def format_estimate(row) -> str:
    """``d +- s (n = N)`` for a statistical row, ``d`` for an exact one."""
    if row["estimate"] == "":
        return "—"
    unit = row["unit"]
    d = format_value(float(row["estimate"]), unit)
    if row["kind"] == "ordering":
        d = f"difference {d}"
    if row["std_error"] == "":
        return d if row["kind"] == "exact" else f"{d} (n = {row['n']})"
    s = format_value(float(row["std_error"]), "" if unit in INTEGER_UNITS else unit)
    return f"{d} +- {s} (n = {row['n']})"


def _needed(row) -> str:
    if row["verdict"] != INCONCLUSIVE:
        return ""
    if row["needed_repeats"] == NOT_APPLICABLE:
        return "n/a (more repeats would not decide it: see details)"
    return row["needed_repeats"] or "> 10^6 (effect too small to decide)"


def _cell(x) -> str:
    return str(x).replace("|", "\\|").replace("\n", " ")


def paper_line(paper: str, sub: pd.DataFrame) -> str:
    """One summary line for a paper: its count per verdict, and [Re] if every claim that ran reproduced."""
    counts = sub["verdict"].value_counts().to_dict()
    ran = sub[sub["verdict"] != NOT_RUN]
    mark = "**[Re]**" if len(ran) and (ran["verdict"] == REPRODUCED).all() else "**[~Re]**"
    return f"- {paper}: " + ", ".join(f"{counts.get(v, 0)} {v}" for v in VERDICTS) + f" {mark}"


def render_markdown(summary: pd.DataFrame, figures: dict[str, list[str]], profile: str, titles: dict[str, str]) -> str:
    """REPLICATION.md; ``figures`` maps paper -> figure paths relative to the file."""
    papers = list(dict.fromkeys(list(titles) + list(summary["paper"].unique())))
    lines = ["# Replication summary", "", f"Profile: **{profile}**. Claims: {len(summary)}.", ""]
    lines += [paper_line(p, summary[summary["paper"] == p]) for p in papers]
    lines += [
        "",
        "Every row is decided by the pipeline from the results of this run (spec: 'Claims, verdicts and",
        "the replication summary'); a claim that is not reproduced is a finding, not an error of the pipeline.",
        "",
    ]
    order = {NOT_REPRODUCED: 0, INCONCLUSIVE: 1, REPRODUCED: 2, NOT_RUN: 3}
    for paper in papers:
        sub = summary[summary["paper"] == paper]
        lines += [f"## {paper}: {titles.get(paper, '')}".rstrip(": "), ""]
        if figures.get(paper):
            lines += ["Figures: " + ", ".join(f"[{Path(f).name}]({f})" for f in figures[paper]), ""]
        if len(sub) == 0:
            lines += ["No claims recorded (paper not enabled in this profile).", ""]
            continue
        sub = sub.assign(_o=sub["verdict"].map(order)).sort_values("_o", kind="stable")
        lines += [
            "| claim | statement | paper | estimate | threshold | verdict | needed repeats |",
            "|---|---|---|---|---|---|---|",
        ]
        for _, r in sub.iterrows():
            cells = [r["claim_id"], r["claim"], r["paper_value"], format_estimate(r), r["threshold"],
                     f"{MARK[r['verdict']]} {r['verdict']}", _needed(r)]  # fmt: skip
            lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
        details = [(r["claim_id"], r["details"]) for _, r in sub.iterrows() if r["details"]]
        if details:
            lines.append("")
            lines += [f"- `{cid}`: {d}" for cid, d in details]
        lines.append("")
    return "\n".join(lines)


# Verdict colours of the HTML report (background, text).
COLOURS = {REPRODUCED: ("#d4edda", "#155724"), NOT_REPRODUCED: ("#f8d7da", "#721c24"),
           INCONCLUSIVE: ("#fff3cd", "#856404"), NOT_RUN: ("#e2e3e5", "#383d41")}  # fmt: skip


def _html(x) -> str:
    return str(x).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def render_report_front(summary: pd.DataFrame, profile: str, titles: dict[str, str], intro: str) -> str:
    """The front page of ``snakemake --report`` (reStructuredText): the verdict table.

    One line per paper as in REPLICATION.md, then every claim with its verdict
    cell coloured, then ``intro`` (the workflow's description).
    """
    papers = list(dict.fromkeys(list(titles) + list(summary["paper"].unique())))
    order = {NOT_REPRODUCED: 0, INCONCLUSIVE: 1, REPRODUCED: 2, NOT_RUN: 3}
    rows = []
    for paper in papers:
        sub = summary[summary["paper"] == paper]
        sub = sub.assign(_o=sub["verdict"].map(order)).sort_values("_o", kind="stable")
        for _, r in sub.iterrows():
            bg, fg = COLOURS[r["verdict"]]
            cells = [r["claim_id"], r["claim"], r["paper_value"], format_estimate(r), r["threshold"]]
            tds = "".join(f"<td>{_html(c)}</td>" for c in cells)
            verdict = f'<td class="verdict" style="background:{bg};color:{fg}">{_html(r["verdict"])}</td>'
            rows.append(f"<tr>{tds}{verdict}<td>{_html(_needed(r))}</td></tr>")
    head = "".join(
        f"<th>{h}</th>" for h in ("claim", "statement", "paper", "estimate", "threshold", "verdict", "needed repeats")
    )
    lines = [f"Replication verdicts, profile {profile}", "=" * 60, ""]
    lines += [paper_line(p, summary[summary["paper"] == p]) for p in papers]
    # One row a line: docutils refuses lines over 10000 characters.
    table = [
        '<table id="verdicts" border="1" cellpadding="4">',
        f"<thead><tr>{head}</tr></thead><tbody>",
        *rows,
        "</tbody></table>",
    ]
    lines += ["", ".. raw:: html", "", *("   " + t for t in table), "", intro.rstrip(), ""]
    return "\n".join(lines)


def write_summary(csv_path, md_path, summary: pd.DataFrame, figures, profile, titles) -> None:
    """Write the verdicts table as CSV and its rendered report page (:func:`render_markdown`) as text."""
    write_csv(csv_path, summary)
    write_text(md_path, render_markdown(summary, figures, profile, titles))
