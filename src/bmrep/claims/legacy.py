"""Claims: machine-checkable statements about a paper's results.

Each paper's workflow evaluates its claims from the results it produced and
writes them with :func:`write_claims` to ``<results>/claims/<paper>.csv``;
the report rule merges those files into ``replication_summary.csv`` and
``REPLICATION.md`` (see ``shared/spec/replication-targets.md``, "Claims").

A claim's status is computed from the reproduced value and the test, never
typed in: use :func:`check_range`, :func:`check_less`, ... or pass an explicit
boolean obtained from the results. ``None`` means the claim could not be
evaluated in this run (status ``not run``), which is reported as such.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import pandas as pd

from ..io import write_csv, write_text

COLUMNS = ["paper", "target", "claim", "paper_value", "reproduced_value", "test", "profile", "status", "details"]
STATUSES = ("pass", "fail", "not run")


@dataclass(frozen=True)
class Claim:
    """One row of the replication summary."""

    paper: str
    target: str
    claim: str
    paper_value: str
    reproduced_value: str
    test: str
    profile: str
    passed: bool | None
    details: str = field(default="")

    @property
    def status(self) -> str:
        if self.passed is None:
            return "not run"
        return "pass" if bool(self.passed) else "fail"

    def row(self) -> dict:
        d = asdict(self)
        del d["passed"]
        d["status"] = self.status
        return {k: d[k] for k in COLUMNS}


def fmt(x, digits: int = 4) -> str:
    """Format a number (or a sequence of numbers) for the summary."""
    if isinstance(x, str):
        return x
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(fmt(v, digits) for v in x) + "]"
    if x is None:
        return "n/a"
    x = float(x)
    if math.isnan(x):
        return "nan"
    return f"{x:.{digits}g}" if abs(x) >= 1e4 or (x != 0 and abs(x) < 1e-3) else f"{x:.{digits}f}"


def check_range(value: float, low: float, high: float) -> bool:
    """``low <= value <= high``; NaN fails."""
    return bool(low <= value <= high)


def check_close(value: float, target: float, tol: float) -> bool:
    """``|value - target| <= tol``; NaN fails."""
    return bool(abs(value - target) <= tol)


def check_less(a: float, b: float) -> bool:
    """``a < b``; NaN fails."""
    return bool(a < b)


def claims_frame(claims: Iterable[Claim]) -> pd.DataFrame:
    rows = [c.row() for c in claims]
    return pd.DataFrame(rows, columns=COLUMNS)


def write_claims(path: str | Path, claims: Sequence[Claim]) -> None:
    """Write a paper's claims as CSV (atomically)."""
    if not claims:
        raise ValueError(f"no claims to write to {path}")
    write_csv(path, claims_frame(claims))


def read_claims(paths: Iterable[str | Path]) -> pd.DataFrame:
    frames = []
    for p in paths:
        df = pd.read_csv(p, dtype=str, keep_default_na=False)
        missing = set(COLUMNS) - set(df.columns)
        if missing:
            raise ValueError(f"{p}: claims file lacks columns {sorted(missing)}")
        bad = set(df["status"]) - set(STATUSES)
        if bad:
            raise ValueError(f"{p}: unknown claim status {sorted(bad)}; expected one of {STATUSES}")
        frames.append(df[COLUMNS])
    if not frames:
        return pd.DataFrame(columns=COLUMNS)
    return pd.concat(frames, ignore_index=True)


def render_markdown(summary: pd.DataFrame, figures: dict[str, list[str]], profile: str, titles: dict[str, str]) -> str:
    """Render the summary grouped by paper, with links to each paper's figures.

    ``figures`` maps paper -> list of figure paths relative to the markdown file.
    """
    counts = summary["status"].value_counts().to_dict() if len(summary) else {}
    lines = [
        "# Replication summary",
        "",
        f"Profile: **{profile}**. Claims: {len(summary)} — "
        + ", ".join(f"{counts.get(s, 0)} {s}" for s in STATUSES)
        + ".",
        "",
        "Every row was evaluated by the pipeline from the results it produced in this run;",
        "a failing claim is a finding, not an error of the pipeline.",
        "",
    ]
    papers = list(dict.fromkeys(list(titles) + list(summary["paper"].unique() if len(summary) else [])))
    for paper in papers:
        sub = summary[summary["paper"] == paper]
        lines += [f"## {paper}: {titles.get(paper, '')}".rstrip(": "), ""]
        figs = figures.get(paper, [])
        if figs:
            lines.append("Figures: " + ", ".join(f"[{Path(f).name}]({f})" for f in figs))
            lines.append("")
        if len(sub) == 0:
            lines += ["No claims recorded (paper not enabled in this profile).", ""]
            continue
        lines.append("| target | claim | paper | reproduced | test | status |")
        lines.append("|---|---|---|---|---|---|")
        for _, r in sub.iterrows():
            status = {"pass": "✅ pass", "fail": "❌ fail", "not run": "⏸ not run"}[r["status"]]
            cells = [r["target"], r["claim"], r["paper_value"], r["reproduced_value"], r["test"], status]
            lines.append("| " + " | ".join(str(c).replace("|", "\\|").replace("\n", " ") for c in cells) + " |")
        details = list(dict.fromkeys((r["target"], r["details"]) for _, r in sub.iterrows() if r["details"]))
        if details:
            lines.append("")
            for target, d in details:
                lines.append(f"- *{target}*: {d}")
        lines.append("")
    return "\n".join(lines)


def write_summary(csv_path, md_path, summary: pd.DataFrame, figures, profile, titles) -> None:
    write_csv(csv_path, summary)
    write_text(md_path, render_markdown(summary, figures, profile, titles))
