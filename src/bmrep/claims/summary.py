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

# The sections' titles, as REPLICATION.md and the report name them.
PAPER_TITLES = {
    "saul1996": "Saul, Jaakkola & Jordan (1996), Mean field theory for sigmoid belief networks",
    "yokoyama2019": "Yokoyama, Katsumata & Yasuda (2019), RBMs with multivalued hidden variables",
    "salakhutdinov2010": "Salakhutdinov (2010), Learning deep Boltzmann machines using adaptive MCMC",
    "carlson2016": "Carlson, Stinson, Pakman & Paninski (2016), "
    "Partition functions from Rao-Blackwellized tempered sampling",
    "bruegge2013": "Brügge, Fischer & Igel (2013), The flip-the-state transition operator for RBMs",
    "calibration": "Beyond the papers: partition-function estimators against exact log Z (issue 23)",
}
MARK = {REPRODUCED: "✅", NOT_REPRODUCED: "❌", INCONCLUSIVE: "❔", NOT_RUN: "⏸"}
# A paper's claims are listed not reproduced first, then inconclusive, reproduced, not run.
VERDICT_ORDER = {NOT_REPRODUCED: 0, INCONCLUSIVE: 1, REPRODUCED: 2, NOT_RUN: 3}
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


def needed_text(row) -> str:
    """The needed-repeats cell: a count for an inconclusive row, why not where more would not decide it."""
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


def render_markdown(
    summary: pd.DataFrame, figures: dict[str, list[str]], profile: str, titles: dict[str, str], notes=None
) -> str:
    """REPLICATION.md; ``figures`` maps paper -> figure paths relative to the file.

    ``notes`` maps a paper that was not run to the line that says so (its
    summary line, and its section's first line, instead of its claims' details).
    """
    notes = notes or {}
    papers = list(dict.fromkeys(list(titles) + list(summary["paper"].unique())))
    lines = ["# Replication summary", "", f"Profile: **{profile}**. Claims: {len(summary)}.", ""]
    lines += [f"- {p}: {notes[p]}" if p in notes else paper_line(p, summary[summary["paper"] == p]) for p in papers]
    lines += [
        "",
        "Every row is decided by the pipeline from the results of this run (spec: 'Claims, verdicts and",
        "the replication summary'); a claim that is not reproduced is a finding, not an error of the pipeline.",
        "",
    ]
    for paper in papers:
        sub = summary[summary["paper"] == paper]
        lines += [f"## {paper}: {titles.get(paper, '')}".rstrip(": "), ""]
        if paper in notes:
            lines += [notes[paper][0].upper() + notes[paper][1:] + ".", ""]
        if figures.get(paper):
            lines += ["Figures: " + ", ".join(f"[{Path(f).name}]({f})" for f in figures[paper]), ""]
        if len(sub) == 0:
            lines += ["No claims recorded (paper not enabled in this profile).", ""]
            continue
        sub = sub.assign(_o=sub["verdict"].map(VERDICT_ORDER)).sort_values("_o", kind="stable")
        lines += [
            "| claim | statement | paper | estimate | threshold | verdict | needed repeats |",
            "|---|---|---|---|---|---|---|",
        ]
        for _, r in sub.iterrows():
            cells = [r["claim_id"], r["claim"], r["paper_value"], format_estimate(r), r["threshold"],
                     f"{MARK[r['verdict']]} {r['verdict']}", needed_text(r)]  # fmt: skip
            lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
        details = [(r["claim_id"], r["details"]) for _, r in sub.iterrows() if r["details"] and paper not in notes]
        if details:
            lines.append("")
            lines += [f"- `{cid}`: {d}" for cid, d in details]
        lines.append("")
    return "\n".join(lines)


def declared_rows(claims: Iterable[Claim], profile: str) -> pd.DataFrame:
    """The claims the code declares, as summary rows with verdict ``not run`` (nothing computed)."""
    return claims_frame(ClaimResult(c, NOT_RUN, None, None, profile, "declared; not run") for c in claims)


def write_summary(csv_path, md_path, summary: pd.DataFrame, figures, profile, titles, notes=None) -> None:
    """Write the verdicts table as CSV and its rendered report page (:func:`render_markdown`) as text."""
    write_csv(csv_path, summary)
    write_text(md_path, render_markdown(summary, figures, profile, titles, notes))


__all__ = [
    "claims_frame",
    "write_claims",
    "decide_and_write",
    "read_claims",
    "format_value",
    "format_estimate",
    "needed_text",
    "paper_line",
    "render_markdown",
    "declared_rows",
    "write_summary",
]
