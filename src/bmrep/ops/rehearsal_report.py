"""The rehearsal's table: one row per rule of the paper profile, and the page it is written to.

Per rule (spec "Rehearsal of the paper profile", issue 52): its jobs in the
paper profile, the memory and runtime the SLURM profile requests, the peak
measured and at the paper's counts, the paper core-hours predicted from the
default (the cost table, :data:`bmrep.pipeline.records.COSTS`) and from the rehearsal
(:func:`bmrep.ops.rehearsal.predict_jobs`), their ratio; and what does
not hold yet (peaks above requests, requests beyond the node, predictions
more than 2x apart, runtimes too short). ``docs/paper-rehearsal.md``.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import yaml

from ..pipeline.memory import SLURM_PROFILE
from .slurm_resources import MEM_BY_WILDCARD

COST_FLOOR_H = 1.0  # rules above this many paper core-hours must agree within AGREE x (the spec)
AGREE = 2.0
# A job's CPU time moves up to 1.6x with what runs on the other vCPU (docs/cluster.md): with the second cut's
# CPU time r times the first's, the line's slope can be off by (r - 1.6) / (r - 1) to (1.6r - 1) / (r - 1),
# 0.7-1.9x at r = 3 (0.4-2.2x at 2). A rule whose jobs grew less is named: its line is within that noise.
GROWTH_FLOOR = 3.0


def requests(profile: Path = SLURM_PROFILE) -> tuple[dict, dict]:
    """The SLURM profile's memory (MB) and runtime (min) per rule, its default-resources for the others."""
    doc = yaml.safe_load(profile.read_text())
    default, per_rule = doc.get("default-resources", {}), doc.get("set-resources", {})
    mem = {r: int(v.get("mem_mb", default["mem_mb"])) for r, v in per_rule.items()}
    runtime = {r: int(v.get("runtime", default["runtime"])) for r, v in per_rule.items()}
    return {"*": int(default["mem_mb"]), **mem}, {"*": int(default["runtime"]), **runtime}


def rehearsal_table(jobs: pd.DataFrame, counts: dict, default_costs: pd.DataFrame, node_mem_mb: int) -> pd.DataFrame:
    """One row per rule of the paper profile: jobs, request, peaks, both core-hour predictions and their ratio."""
    mem_req, runtime_req = requests()
    # a rule asked per wildcard has no mem_mb in the profile: its largest job's request, the cost table's, is the
    # one its peak (that largest job's) is compared with
    largest = default_costs.set_index("rule").get("mem_mb", pd.Series(dtype=float)).dropna()
    mem_req |= {r: int(largest[r]) for r in MEM_BY_WILDCARD if r in largest.index}
    before = default_costs.set_index("rule")["paper_core_hours"]
    rows = []
    for rule, n_jobs in sorted(counts.items()):
        d = jobs[jobs["rule"] == rule]
        row = {"rule": rule, "paper_jobs": n_jobs, "mem_requested_mb": mem_req.get(rule, mem_req["*"])}
        row["runtime_requested_min"] = runtime_req.get(rule, runtime_req["*"])
        row["core_hours_from_default"] = float(before.get(rule, math.nan))
        if d.empty:
            rows.append({**row, "rehearsal_jobs": 0})
            continue
        row |= {
            "rehearsal_jobs": len(d),
            "cuts": int(d["cuts"].max()),
            "peak_measured_mb": round(float(d["peak_mb"].max()), 1),
            "peak_at_paper_mb": round(float(d["peak_paper_mb"].max()), 1),
            "longest_job_at_paper_min": round(float(d["cpu_paper_s"].max()) / 60, 1),
            "core_hours_from_rehearsal": round(n_jobs * float(d["cpu_paper_s"].mean()) / 3600, 3),
            "growth": round(float(d["cpu_growth"].median()), 2) if d["cpu_growth"].notna().any() else math.nan,
        }
        before_h = row["core_hours_from_default"]
        row["ratio"] = round(row["core_hours_from_rehearsal"] / before_h, 2) if before_h > 0 else math.nan
        row["peak_over_request"] = row["peak_at_paper_mb"] > row["mem_requested_mb"]
        row["request_over_node"] = row["mem_requested_mb"] > node_mem_mb
        row["runtime_over_request"] = row["longest_job_at_paper_min"] > row["runtime_requested_min"]
        rows.append(row)
    return pd.DataFrame(rows)


def _big(table: pd.DataFrame) -> pd.Series:
    """Rules above :data:`COST_FLOOR_H` paper core-hours by either prediction."""
    return table[["core_hours_from_default", "core_hours_from_rehearsal"]].max(axis=1) > COST_FLOOR_H


def disagreements(table: pd.DataFrame) -> pd.DataFrame:
    """Rules above 1 core-hour (by either prediction) whose two predictions differ by more than 2x."""
    off = (table["ratio"] > AGREE) | (table["ratio"] < 1 / AGREE)
    return table[_big(table) & off]


def weak_lines(table: pd.DataFrame) -> pd.DataFrame:
    """Rules above 1 core-hour run at two cuts whose jobs' CPU time grew less than :data:`GROWTH_FLOOR` x."""
    return table[_big(table) & (table["growth"] < GROWTH_FLOOR)]


def _number(v) -> str:
    """A table cell: a whole number without its ``.0``."""
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def markdown(table: pd.DataFrame, wall_s: float | None, node_mem_mb: int) -> str:
    """docs/paper-rehearsal.md: what was run, the per-rule table and what it found."""
    t = table.copy()
    cols = {
        "rule": "rule",
        "paper_jobs": "paper jobs",
        "mem_requested_mb": "memory requested (MB)",
        "mem_request_after_mb": "requested after (MB)",
        "peak_measured_mb": "peak measured (MB)",
        "peak_at_paper_mb": "peak at the paper's counts (MB)",
        "core_hours_from_default": "core-hours from default",
        "core_hours_from_rehearsal": "core-hours from rehearsal",
        "ratio": "ratio",
        "longest_job_at_paper_min": "longest job at paper (min)",
        "runtime_requested_min": "runtime requested (min)",
        "cuts": "cuts",
        "growth": "CPU growth at the second cut",
    }
    over = t[t["peak_over_request"].fillna(False).astype(bool)]["rule"].tolist()
    beyond = t[t["request_over_node"].fillna(False).astype(bool)]["rule"].tolist()
    off = disagreements(t)["rule"].tolist()
    weak = weak_lines(t)["rule"].tolist() if "growth" in t else []
    slow = t[t.get("runtime_over_request", pd.Series(False, t.index)).fillna(False).astype(bool)]["rule"].tolist()
    lines = [
        "# The paper profile's rehearsal",
        "",
        'Written by `make paper-rehearsal` (`bmrep.ops.rehearsal`; spec "Rehearsal of the paper',
        'profile"): every rule of the paper profile run through `profiles/slurm` on a one-node SLURM at the',
        "papers' shapes, iteration and repeat counts cut (`config/rehearsal.yaml`); the rows with `cuts` 2 ran",
        "again at a second cut (`config/rehearsal_cut2.yaml`). Peak: the SLURM job's, all its processes (its",
        "two Snakemake processes and the script; `bmrep.ops.job_memory`, the script's exact peak and",
        "Snakemake's benchmark record); at the paper's counts: along",
        "`src/bmrep/ops/records/memory_scaling.yaml` through the two cuts, else as measured (the shapes are the",
        "paper's). Core-hours from the rehearsal: each job's CPU time on the line through its two cuts at the",
        "paper's work (`src/bmrep/ops/records/cost_scaling.yaml`), or its one cut scaled; from the default:",
        "`src/bmrep/pipeline/records/costs.csv`. CPU growth: the median over a rule's jobs of their second",
        f"cut's CPU time over their first's; below {GROWTH_FLOOR:g} the line is within the noise of what runs beside",
        "a job (`config/rehearsal_cut2.yaml`).",
        "",
        f"Wall time of the rehearsal: {f'{wall_s / 60:.1f} min' if wall_s else 'not recorded'}.",
        f"Total paper core-hours: {t['core_hours_from_default'].sum():.1f} predicted from the default, "
        f"{t['core_hours_from_rehearsal'].sum():.1f} from the rehearsal.",
        f"Peaks above their request: {', '.join(over) or 'none'}. Requests above a {node_mem_mb} MB node: "
        f"{', '.join(beyond) or 'none'}. Rules above {COST_FLOOR_H:g} core-hour whose predictions differ by more "
        f"than {AGREE:g}x: {', '.join(off) or 'none'}. Longest job predicted above its runtime request (one "
        f"submission; a checkpointed rule is resubmitted, docs/cluster.md): {', '.join(slow) or 'none'}. Rules "
        f"above {COST_FLOOR_H:g} core-hour whose CPU grew less than {GROWTH_FLOOR:g}x at the second cut: "
        f"{', '.join(weak) or 'none'}.",
        "",
        "| " + " | ".join(cols.values()) + " |",
        "|" + "---|" * len(cols),
    ]
    for r in t.itertuples():
        values = {k: getattr(r, k, math.nan) for k in cols}
        cells = ["" if pd.isna(v) else f"`{v}`" if k == "rule" else _number(v) for k, v in values.items()]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
