"""Measured figures quoted in the pages, written from their records (issue 65).

A time or a cost typed by hand goes stale when the run it came from is
replaced: the README said 74.1 minutes where RUN.md said 72.2, docs/cluster.md
"estimated 1484 minutes" where the cost table said 2064. Every such figure
is listed here (:data:`QUOTES`: a page, a pattern whose one group is the
figure, the record it comes from), read from its record (:func:`records`:
the publications' RUN.md, the rehearsal's table, the cost table and the
default run's jobs; the paper profile's longest chain of dependent jobs from
its rule graph and each rule's longest job) and written into the page by ``make publish``
(:func:`rewrite`, also ``python -m bmrep.ops.quoted --write``);
``tests/ops/test_quoted.py`` fails when a page's figure differs from its record,
or a listed quote is no longer found. docs/cluster.md quotes the last
rehearsal only (its wall time, both predictions, how far they agree), from its
table; the dated figures of the rehearsals before it, which had no record left,
were removed (the page's git history keeps them).
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ..pipeline.memory import fig4_shard_mb
from ..pipeline.records import COSTS
from .costs import paper_config, paper_of_rule
from .records import DEFAULT_JOBS
from .rehearsal_report import COST_FLOOR_H
from .timeline import critical_path, parse_rule_graph

DEFAULT_RUN, PAPER_RUN = Path("docs/results/default/RUN.md"), Path("docs/results/paper/RUN.md")
REHEARSAL_MD = Path("docs/paper-rehearsal.md")
REHEARSAL_CSV = Path("docs/paper-rehearsal.csv")


@dataclass(frozen=True)
class _Wildcards:
    """A job's wildcards, as a per-wildcard memory request reads them."""

    K: int


@dataclass(frozen=True)
class Quote:
    """A figure on a page: ``pattern``'s one group, to be ``records()[record]``."""

    page: str
    pattern: str
    record: str


def _search(pattern: str, text: str, where: Path) -> re.Match:
    m = re.search(pattern, text, re.M)
    if m is None:
        raise ValueError(f"{where}: no line matches {pattern!r}")
    return m


def _run(path: Path) -> dict[str, str]:
    """A publication's RUN.md: the jobs' wall minutes, job count, core-minutes, and each paper's core-minutes."""
    text = path.read_text(encoding="utf-8")
    m = _search(r"end: ([\d.]+) min; (\d+) jobs, ([\d.]+) core-minutes", text, path)
    out = {"wall_min": m.group(1), "jobs": m.group(2), "core_min": m.group(3)}
    for paper, core_min in re.findall(r"^\| (\w+) \| \d+ \| ([\d.]+) \| [\d.]+ \|$", text, re.M):
        out[f"{paper}_core_min"] = core_min
    return out


def longest_job_h(root: Path = Path(".")) -> dict[str, float]:
    """Each rule's longest paper-profile job in hours, the larger of the two records' estimates.

    The cost table's ``paper_cpu_h_per_job`` (the default's slowest job scaled) and the rehearsal's
    ``longest_job_at_paper_min`` (``docs/paper-rehearsal.csv``), as the SLURM runtime requests take them.
    """
    costs = pd.read_csv(COSTS).set_index("rule")["paper_cpu_h_per_job"].fillna(0.0)
    rehearsal = pd.read_csv(root / REHEARSAL_CSV).set_index("rule")["longest_job_at_paper_min"].fillna(0.0) / 60
    return {r: max(costs.get(r, 0.0), rehearsal.get(r, 0.0)) for r in set(costs.index) | set(rehearsal.index)}


def paper_rule_graph(root: Path = Path(".")) -> dict[str, set[str]]:
    """The paper profile's rule graph (rule -> the rules it needs), from Snakemake run in ``root``."""
    cmd = [str(Path(sys.executable).with_name("snakemake")), "all", "--configfile", "config/paper.yaml"]
    dot = subprocess.run([*cmd, "--rulegraph", "dot", "--quiet"], cwd=root, capture_output=True, text=True, check=True)
    return parse_rule_graph(dot.stdout)


def critical_path_h(needs: dict[str, set[str]], root: Path = Path(".")) -> tuple[float, list[str]]:
    """The paper profile's longest chain of dependent jobs in hours, and its rules: no number of cores is faster."""
    hours, chain = critical_path(needs, longest_job_h(root))
    return hours, [r for r in chain if not r.startswith("data") and r != "all"]


def records(root: Path = Path("."), needs: dict[str, set[str]] | None = None) -> dict[str, str]:
    """Every quotable figure, as the pages print it, by name (``needs``: the paper profile's rule graph).

    The publications and the rehearsal's table are read under ``root``, the cost table and the default run's
    jobs from the package's records (:data:`COSTS`, :data:`DEFAULT_JOBS`).
    """
    out = {f"default_{k}": v for k, v in _run(root / DEFAULT_RUN).items()}
    out |= {f"paper_{k}": v for k, v in _run(root / PAPER_RUN).items()}
    text = (root / REHEARSAL_MD).read_text(encoding="utf-8")
    wall = _search(r"^Wall time of the rehearsal: ([\d.]+) min", text, REHEARSAL_MD)
    out["rehearsal_wall_min"] = f"{float(wall[1]):.0f}"
    m = _search(
        r"^Total paper core-hours: ([\d.]+) predicted from the default, ([\d.]+) from the rehearsal", text, REHEARSAL_MD
    )
    out["predicted_core_h_default"], out["predicted_core_h_rehearsal"] = f"{float(m[1]):.0f}", f"{float(m[2]):.0f}"
    out["rehearsal_wall_min_1"] = f"{float(wall[1]):.1f}"
    out["predicted_core_h_default_1"], out["predicted_core_h_rehearsal_1"] = f"{float(m[1]):.1f}", f"{float(m[2]):.1f}"
    # how far the two predictions agree over the rules the rehearsal judges (above 1 core-hour by either)
    table = pd.read_csv(root / REHEARSAL_CSV)
    hours = table[["core_hours_from_default", "core_hours_from_rehearsal"]].max(axis=1)
    ratios = table.loc[hours > COST_FLOOR_H, "ratio"].dropna()
    out["rehearsal_ratio_min"], out["rehearsal_ratio_max"] = f"{ratios.min():.2f}", f"{ratios.max():.2f}"
    costs = pd.read_csv(COSTS).set_index("rule")
    out["salakhutdinov2010_train_runtime_min"] = f"{costs.loc['salakhutdinov2010_train', 'runtime_min']:.0f}"
    out["largest_mem_gb"] = f"{costs['mem_mb'].max() / 1000:.1f}"
    paper = paper_config(root)
    fig4_mb = fig4_shard_mb(paper, costs.reset_index(), table)
    out["fig4_smallest_k_mem_gb"] = f"{fig4_mb(_Wildcards(min(paper['carlson2016']['fig4']['Ks']))) / 1000:.1f}"
    hours = costs["paper_core_hours"].groupby(paper_of_rule(costs.index.to_series())).sum()
    out["costs_core_h"] = f"{hours.sum():.0f}"
    for paper, h in hours.items():
        out[f"costs_core_h_{paper}"] = f"{h:.1f}" if h < 10 else f"{h:.0f}"
    hours, chain = critical_path_h(paper_rule_graph(root) if needs is None else needs, root)
    out["critical_path_h"], out["critical_path"] = f"{hours:.1f}", " -> ".join(chain)
    longest = longest_job_h(root)
    out |= {f"longest_h_{r}": f"{h:.1f}" for r, h in longest.items()}
    jobs = pd.read_csv(DEFAULT_JOBS)
    out["costs_run_jobs"], out["costs_run_core_min"] = str(len(jobs)), f"{jobs['cpu_s'].sum() / 60:.1f}"
    return out


README, CLUSTER, CATALOG = "README.md", "docs/cluster.md", ".snakemake-workflow-catalog.yml"
EPYC = r"min of jobs on 2 cores of an AMD EPYC"
_PAPERS_COSTS = [
    Quote(CLUSTER, rf"upper estimates, about \d+ core-hours in all:.*?\b{p} ([\d.]+)", f"costs_core_h_{p}")
    for p in ("salakhutdinov2010", "carlson2016", "bruegge2013", "calibration", "yokoyama2019", "saul1996")
]
QUOTES = [
    Quote(README, rf"\| ([\d.]+) {EPYC}", "default_wall_min"),
    Quote(README, rf"{EPYC}, (\d+) jobs", "default_jobs"),
    Quote(README, rf"{EPYC}, \d+ jobs, ([\d.]+) core-minutes", "default_core_min"),
    Quote(README, r"the cost table's run: ([\d.]+) core-minutes on an Intel Xeon", "costs_run_core_min"),
    Quote(README, r"about (\d+) core-hours predicted by the rehearsal", "predicted_core_h_rehearsal"),
    Quote(README, r"the default's extrapolation says (\d+)", "predicted_core_h_default"),
    Quote(README, r"saul1996 and yokoyama2019 alone ([\d.]+) min", "paper_wall_min"),
    Quote(README, r"saul1996 and yokoyama2019 alone [\d.]+ min, ([\d.]+) core-minutes", "paper_core_min"),
    Quote(README, r"local one-node SLURM, as root, about (\d+) minutes on 2 cores", "rehearsal_wall_min"),
    Quote(README, r"the largest request, ([\d.]+) GB", "largest_mem_gb"),
    Quote(README, r"MBAR's matrix is K x samples: ([\d.]+) GB at K", "fig4_smallest_k_mem_gb"),
    Quote("Makefile", r"not in CI: about (\d+) minutes on 2 cores", "rehearsal_wall_min"),
    Quote("ci/paper_rehearsal.sh", r"root, 2 cores: about (\d+) minutes", "rehearsal_wall_min"),
    Quote(CATALOG, r"default profile \(([\d.]+) core-minutes", "default_core_min"),
    Quote(CATALOG, r"default profile \([\d.]+ core-minutes, ([\d.]+) min of jobs", "default_wall_min"),
    Quote(
        "docs/calibration.md", r"calibration +# ([\d.]+) core-minutes in the default", "default_calibration_core_min"
    ),
    Quote(CLUSTER, r"upper estimates, about (\d+) core-hours in all", "costs_core_h"),
    *_PAPERS_COSTS,
    Quote(CLUSTER, r"`salakhutdinov2010_train` \(estimated (\d+) minutes", "salakhutdinov2010_train_runtime_min"),
    Quote(CLUSTER, rf"\| ([\d.]+) {EPYC}", "default_wall_min"),
    Quote(CLUSTER, rf"{EPYC}, (\d+) jobs", "default_jobs"),
    Quote(CLUSTER, rf"{EPYC}, \d+ jobs, ([\d.]+) core-minutes", "default_core_min"),
    Quote(CLUSTER, r"about (\d+) core-hours by the rehearsal at the papers' shapes", "predicted_core_h_rehearsal"),
    Quote(CLUSTER, r"(\d+) by `make costs` from the quiet default run", "predicted_core_h_default"),
    Quote(CLUSTER, r"yokoyama2019 alone: ([\d.]+) min of jobs on 2 cores", "paper_wall_min"),
    Quote(CLUSTER, r"yokoyama2019 alone: [\d.]+ min of jobs on 2 cores, ([\d.]+) core-minutes", "paper_core_min"),
    Quote(CLUSTER, r"not included\), of which salakhutdinov2010 ([\d.]+) core", "default_salakhutdinov2010_core_min"),
    Quote(CLUSTER, r"the cost table's run: ([\d.]+) core-minutes on an Intel Xeon", "costs_run_core_min"),
    Quote(CLUSTER, r"longest chain of dependent jobs is about ([\d.]+) hours", "critical_path_h"),
    Quote(CLUSTER, r"whatever the number of cores: (\S.*?)\. Each rule counts", "critical_path"),
    Quote(CLUSTER, r"`salakhutdinov2010_train` about ([\d.]+) h", "longest_h_salakhutdinov2010_train"),
    Quote(CLUSTER, r"`salakhutdinov2010_evaluate` ([\d.]+) h", "longest_h_salakhutdinov2010_evaluate"),
    Quote(CLUSTER, r"`carlson2016_fig3_truth` ([\d.]+) h", "longest_h_carlson2016_fig3_truth"),
    Quote(CLUSTER, r"`carlson2016_fig5` ([\d.]+) h", "longest_h_carlson2016_fig5"),
    Quote(CLUSTER, r"`bmrep.ops.quoted`\) took ([\d.]+) minutes on 2 cores", "rehearsal_wall_min_1"),
    Quote(CLUSTER, r"it predicts ([\d.]+) core-hours against", "predicted_core_h_rehearsal_1"),
    Quote(CLUSTER, r"core-hours against ([\d.]+) from the default run", "predicted_core_h_default_1"),
    Quote(CLUSTER, r"core-hour agree within ([\d.]+)-[\d.]+x", "rehearsal_ratio_min"),
    Quote(CLUSTER, r"core-hour agree within [\d.]+-([\d.]+)x", "rehearsal_ratio_max"),
]


def _regex(pattern: str) -> re.Pattern:
    """``pattern`` with each space matching any run of white space (a quote may wrap), ``.`` any character."""
    return re.compile(re.sub(r" (?![*+?{])", r"\\s+", pattern), re.M | re.S)


def mismatches(root: Path = Path("."), needs: dict | None = None) -> list[str]:
    """One line per quote whose page does not print its record (or no longer has the quote)."""
    rec, out = records(root, needs), []
    for q in QUOTES:
        text = (root / q.page).read_text(encoding="utf-8")
        found = [m.group(1) for m in _regex(q.pattern).finditer(text)]
        if not found:
            out.append(f"{q.page}: no quote matches {q.pattern!r} (the figure {q.record} = {rec[q.record]})")
        out += [f"{q.page}: {v} where {q.record} is {rec[q.record]}" for v in found if v != rec[q.record]]
    return out


def _with_figure(m: re.Match, figure: str) -> str:
    """The match's text with its group 1 replaced by ``figure``."""
    start, end = m.start(1) - m.start(0), m.end(1) - m.start(0)
    return m.group(0)[:start] + figure + m.group(0)[end:]


def rewrite(root: Path = Path("."), needs: dict | None = None) -> list[str]:
    """Write every quote's record into its page; the pages changed."""
    rec, changed = records(root, needs), []
    for q in QUOTES:
        path = root / q.page
        text = path.read_text(encoding="utf-8")
        new = _regex(q.pattern).sub(lambda m, figure=rec[q.record]: _with_figure(m, figure), text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(q.page)
    return sorted(set(changed))


def main(argv: list[str]) -> int:
    """``python -m bmrep.ops.quoted [--write]``: list the stale figures (exit 1 if any), or rewrite them."""
    if argv == ["--write"]:
        for page in rewrite():
            print(f"wrote the measured figures of {page}")
        return 0
    stale = mismatches()
    print("\n".join(stale) if stale else "every quoted figure is its record's")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
