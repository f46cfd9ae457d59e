"""Where a run's time went: its longest jobs, its CPU total, and its critical path.

``make timeline`` (``python -m bmrep.timeline results/logs [snakemake args]``)
reads the resources line every job writes when it ends
(``runtime.RESOURCES_LINE``, parsed by :func:`bmrep.costs.measure_jobs`) and
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
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pandas as pd

from .costs import measure_jobs, paper_of_rule

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


def report(jobs: pd.DataFrame, needs: dict[str, set[str]], n: int = 10) -> str:
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
    for cores in (1, 2, 4, 16):
        lines.append(f"  {cores:>2} cores: at least {max(total / cores, length) / 60:.1f} min")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """``python -m bmrep.timeline LOGS_DIR [snakemake args for the rule graph]``."""
    if not argv:
        print("usage: python -m bmrep.timeline LOGS_DIR [target --configfile ...]   (e.g. results/logs all)")
        return 2
    jobs = measure_jobs(argv[0])
    print(report(jobs, rule_graph(*(argv[1:] or ["all"]))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
