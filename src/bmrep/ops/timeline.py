"""Where a run's time went: its longest jobs, its CPU total, and its critical path.

``make timeline`` (``python -m bmrep.ops.timeline results/logs [snakemake args]``)
reads the resources line every job writes when it ends
(``runtime.RESOURCES_LINE``, parsed by :func:`bmrep.ops.costs.measure_jobs`) and
prints

* the ten longest jobs (wall and CPU seconds, rule, log file);
* the CPU total per paper and overall;
* the critical path: the chain of rules, following the workflow's rule graph
  (``snakemake --rulegraph``), whose longest jobs add up to the most wall time.
  No number of cores finishes the run sooner than that path (it is an upper
  estimate of the true job-level path, since every rule counts its slowest job).

With ``C`` cores a run cannot take less than ``max(CPU total / C, critical
path)``; the gap between that bound and the measured wall time is scheduling
(and, on a shared machine, other load).

* where the run's core-minutes went (:func:`core_minutes`): ``C`` times the
  span from the first job's start to the last job's end, split into the
  jobs' start-up (process start until ``setup_job``: the interpreter,
  Snakemake's script preamble, the script's imports; its CPU from the line
  :data:`bmrep.pipeline.runtime.STARTUP_LINE`, its wall from the log's time stamps),
  their work (the rest of each job) and what no job used (Snakemake's
  scheduling between jobs, its own process, idle cores). ``--cores C``
  (default 2) must be the run's; a logs directory holding several runs
  (resumed ones) overstates the span.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pandas as pd

from .costs import log_time, measure_jobs, paper_of_rule

STAMP = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}) ", re.M)
STARTUP = re.compile(r"job start-up: cpu ([\d.]+) s, wall ([\d.]+) s")
EDGE = re.compile(r"^\s*(\d+)\s*->\s*(\d+)")
NODE = re.compile(r'^\s*(\d+)\[label = "([^"]+)"')


def rule_graph(*snakemake_args: str) -> dict[str, set[str]]:
    """Rule -> the rules it needs, from ``snakemake <args> --rulegraph dot``."""
    cmd = [str(Path(sys.executable).with_name("snakemake")), *snakemake_args, "--rulegraph", "dot", "--quiet"]
    return parse_rule_graph(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)


def parse_rule_graph(dot: str) -> dict[str, set[str]]:
    """Rule -> its input rules, from Snakemake's dot output (an edge ``a -> b``: ``a`` feeds ``b``)."""
    names, needs = {}, {}
    for line in dot.splitlines():
        if m := NODE.match(line):
            names[m.group(1)] = m.group(2)
            needs.setdefault(m.group(2), set())
    for line in dot.splitlines():
        if m := EDGE.match(line):
            needs[names[m.group(2)]].add(names[m.group(1)])
    return needs


def critical_path(needs: dict[str, set[str]], seconds: dict[str, float]) -> tuple[float, list[str]]:
    """The longest chain through ``needs`` weighted by ``seconds`` (rules missing from it weigh 0)."""
    best: dict[str, tuple[float, list[str]]] = {}

    def longest(rule: str) -> tuple[float, list[str]]:
        if rule not in best:
            below = max((longest(r) for r in needs.get(rule, ())), default=(0.0, []), key=lambda t: t[0])
            best[rule] = (below[0] + seconds.get(rule, 0.0), [*below[1], rule])
        return best[rule]

    return max((longest(r) for r in needs), default=(0.0, []), key=lambda t: t[0])


def job_phases(jobs: pd.DataFrame) -> pd.DataFrame:
    """``jobs`` (of :func:`bmrep.ops.costs.measure_jobs`) with each job's times read from its log.

    Added columns: ``start`` (s since the epoch; ``end`` is measure_jobs'), ``startup_wall_s``
    and ``startup_cpu_s`` (NaN where the log has no start-up line).
    """
    rows = []
    # a job's end is measure_jobs' (the time of its resources line, written last), in the same clock as its first line
    for log, wall, end in zip(jobs["log"], jobs["wall_s"], jobs["end"], strict=True):
        text = Path(log).read_text(errors="replace")
        first = STAMP.search(text)
        su = STARTUP.search(text)
        start = end - wall
        rows.append(
            {
                "start": start,
                "startup_wall_s": float(su.group(2)) if su else max(log_time(first.group(1)) - start, 0.0),
                "startup_cpu_s": float(su.group(1)) if su else float("nan"),
            }
        )
    return jobs.reset_index(drop=True).join(pd.DataFrame(rows))


def core_minutes(jobs: pd.DataFrame, cores: int) -> dict[str, float]:
    """Core-minutes of a run on ``cores`` cores: available, jobs' start-up and work (wall and CPU), unused."""
    p = jobs if "start" in jobs else job_phases(jobs)
    span = p["end"].max() - p["start"].min()
    startup_cpu = p["startup_cpu_s"].where(p["startup_cpu_s"].notna(), p["startup_wall_s"].clip(upper=p["cpu_s"]))
    return {
        "span_min": span / 60,
        "available": cores * span / 60,
        "startup_wall": p["startup_wall_s"].sum() / 60,
        "work_wall": (p["wall_s"] - p["startup_wall_s"]).sum() / 60,
        "unused": (cores * span - p["wall_s"].sum()) / 60,
        "startup_cpu": startup_cpu.sum() / 60,
        "work_cpu": (p["cpu_s"] - startup_cpu).sum() / 60,
        "cpu_measured": bool(p["startup_cpu_s"].notna().all()),
    }


def startup_report(jobs: pd.DataFrame, cores: int, small_cpu_s: float = 5.0) -> str:
    """The lines of :func:`report` on start-up, work and unused core-minutes (module docstring)."""
    p = job_phases(jobs)
    cm = core_minutes(p, cores)
    small = p[p["cpu_s"] < small_cpu_s]
    su = p["startup_cpu_s"] if cm["cpu_measured"] else p["startup_wall_s"]
    how = "CPU" if cm["cpu_measured"] else "wall (no start-up line in some logs: CPU unknown)"
    return "\n".join(
        [
            f"\ncore-minutes on {cores} cores over the jobs' span ({cm['span_min']:.1f} min): {cm['available']:.1f}",
            f"  jobs' start-up (interpreter, Snakemake preamble, imports): {cm['startup_wall']:.1f} wall, "
            f"{cm['startup_cpu']:.1f} CPU",
            f"  jobs' work: {cm['work_wall']:.1f} wall, {cm['work_cpu']:.1f} CPU",
            f"  no job (Snakemake between jobs, its own process, idle cores): {cm['unused']:.1f}",
            f"  start-up per job ({how}): median {su.median():.2f} s, max {su.max():.2f} s",
            f"  {len(small)} jobs under {small_cpu_s:g} s CPU: {small['cpu_s'].sum() / 60:.1f} core-min CPU, "
            f"of it start-up {su[small.index].sum() / 60:.1f}",
        ]
    )


def report(jobs: pd.DataFrame, needs: dict[str, set[str]], n: int = 10, cores: int | None = None) -> str:
    """The text ``make timeline`` prints for the jobs of one run."""
    top = jobs.sort_values("wall_s", ascending=False).head(n)
    paper = paper_of_rule(jobs["rule"])
    per_paper = jobs.groupby(paper)["cpu_s"].sum().div(60).round(1)
    length, chain = critical_path(needs, jobs.groupby("rule")["wall_s"].max().to_dict())
    total = jobs["cpu_s"].sum()
    lines = [
        f"{len(jobs)} jobs; CPU total {total / 60:.1f} core-min",
        f"\n{n} longest jobs (wall s, cpu s):",
        top[["wall_s", "cpu_s", "rule", "log"]].to_string(index=False),
        "\nCPU per paper (core-min):",
        per_paper.to_string(),
        f"\ncritical path ({length / 60:.1f} min, each rule's slowest job): " + " -> ".join(chain),
    ]
    for c in (1, 2, 4, 16):
        lines.append(f"  {c:>2} cores: at least {max(total / c, length) / 60:.1f} min")
    if cores:
        lines.append(startup_report(jobs, cores))
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """``python -m bmrep.ops.timeline LOGS_DIR [--cores C] [snakemake args for the rule graph]``."""
    if not argv:
        print(
            "usage: python -m bmrep.ops.timeline LOGS_DIR [--cores C] [target --configfile ...]"
            "  (e.g. results/logs all)"
        )
        return 2
    args, cores = list(argv[1:]), 2
    if "--cores" in args:
        i = args.index("--cores")
        cores = int(args[i + 1])
        del args[i : i + 2]
    jobs = measure_jobs(argv[0])
    print(report(jobs, rule_graph(*(args or ["all"])), cores=cores))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
