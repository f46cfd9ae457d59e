"""The paper profile's rehearsal: its jobs at the papers' shapes, measured, beside the cost model.

Spec "Rehearsal of the paper profile" (issue 52). ``make paper-rehearsal``
(``ci/paper_rehearsal.sh``) runs every rule of the paper profile through
``profiles/slurm`` on a one-node SLURM with only iteration and repeat counts
cut (``config/rehearsal.yaml``, the first cut), then the rules that matter
for the cost or whose memory grows with a cut count again at a second cut
(``config/rehearsal_cut2.yaml``: :func:`second_cut_rules`). This module reads
both runs' job records and writes ``docs/paper-rehearsal.md`` (and its
``.csv``), one row per rule.

Per job it takes the CPU time and peak memory of two records: Snakemake's
``benchmark:`` file (the job's whole process tree, the jobstep's Snakemake
included, which is what SLURM counts against a memory request; but polled,
every 0.5 s for 15 s and every 30 s after, so its CPU time can be up to 30 s
stale and a short peak can fall between polls) and the job's own resources
line (``getrusage`` at its end: the script's exact CPU time and peak). Peak
memory is the larger of the two; CPU time is the script's.

Prediction at the paper's settings, per job (jobs of the two cuts paired by
their log's path): with ``x`` the cut's work as a fraction of the paper's
(1 / the ratio of ``records/cost_scaling.yaml``'s keys), the line through the
two cuts' ``(x, CPU time)`` taken at ``x = 1``. That leaves out what a job
spends whatever its size, which a single cut scaled by 1000x would multiply
too. A job run at one cut only is scaled as :mod:`bmrep.ops.costs` scales
the default's (an upper estimate). Peak memory is extrapolated the same way
along ``records/memory_scaling.yaml``'s counts; a rule not listed there runs at
the paper's shapes, and its measured peak is its peak.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path

import pandas as pd
import yaml

from ..pipeline.config_check import deep_merge
from ..pipeline.memory import SLURM_PROFILE, memory_request
from ..pipeline.records import COSTS
from .costs import job_counts, measure_jobs, paper_config
from .records import COST_SCALING, MEMORY_SCALING, REHEARSAL_KINDS
from .rehearsal_report import COST_FLOOR_H, markdown, rehearsal_table
from .slurm_resources import runtime_cap, runtime_request, write_slurm_profile
from .work_keys import entries, job_entry, rule_keys, scale_factor

CUTS = ("config/rehearsal.yaml", "config/rehearsal_cut2.yaml")
REPORT = Path("docs/paper-rehearsal.md")
PER_RULE = 3  # first-cut jobs per rule run again at the second cut (its costliest) ...
ALL_JOBS_UP_TO = 6  # ... or all of them where it has no more (jobs of other shapes: the calibration's models)
TWO_CUTS_ABOVE = 10.0  # a rule whose paper work is more than this many times its first cut's runs at both cuts
# Jobs of one rule per SLURM submission (a Snakemake group job, run one after another). Each submission starts
# Snakemake twice (the batch step, then the job step) before its script: about 4 s of CPU, which over the
# rehearsal's 275 jobs of a few seconds each was as much CPU as the jobs' own work.
GROUP_SIZE = 4


def cut_config(n: int, root: Path = Path(".")) -> dict:
    """The config of cut ``n`` (1 or 2): the paper profile with the rehearsal's overlays up to that cut."""
    config = paper_config(root)
    for overlay in CUTS[:n]:
        config = deep_merge(config, yaml.safe_load((root / overlay).read_text()))
    return config


SLURM_JOB = re.compile(r" INFO slurm job (\d+)$", re.M)
JOB_MEMORY = "job_memory.csv"  # bmrep.ops.job_memory's table, in the run's results directory


def job_records(results_dir: str | Path, node_table: Path | None = None) -> pd.DataFrame:
    """The run's finished jobs (:func:`measure_jobs`), with their benchmark records and peak memory.

    Adds ``key`` (the log's path under ``logs/``, which pairs a job across
    cuts), ``bench_rss_mb`` (the benchmark record's polled peak of the
    script's processes, NaN without one), ``script_peak_mb`` (the larger of
    that and the script's exact peak), ``snakemake_mb`` (its SLURM job's
    Snakemake processes, from :mod:`bmrep.ops.job_memory`'s table; NaN
    for a job that did not run under SLURM) and ``peak_mb``: the SLURM job's
    peak, the larger of the polled sum of its processes and the script's
    peak plus its Snakemake processes (the script's alone off SLURM).
    """
    logs = Path(results_dir) / "logs"
    jobs = measure_jobs(logs)
    table = node_table or Path(results_dir) / JOB_MEMORY
    node = pd.read_csv(table, dtype={"slurm_job": str}).set_index("slurm_job") if table.exists() else None
    rows = []
    for log in jobs["log"]:
        key = str(Path(log).relative_to(logs).with_suffix(""))
        bench = logs / "benchmarks" / f"{key}.tsv"
        rss = math.nan
        if bench.exists():  # "-" where Snakemake could not measure
            rss = pd.to_numeric(pd.read_csv(bench, sep="\t")["max_rss"], errors="coerce").max()
        found = SLURM_JOB.search(Path(log).read_text(errors="replace"))
        slurm_job = found.group(1) if found else None
        seen = node.loc[slurm_job] if slurm_job and node is not None and slurm_job in node.index else None
        rows.append(
            {
                "key": key,
                "slurm_job": slurm_job,
                "bench_rss_mb": float(rss),
                "node_peak_mb": math.nan if seen is None else float(seen["peak_mb"]),
                "snakemake_mb": math.nan if seen is None else float(seen["snakemake_mb"]),
            }
        )
    rows = pd.DataFrame(rows)
    # A group job (ci/paper_rehearsal.sh) runs several jobs one after another under one SLURM job: its polled
    # peak is its largest job's, not each one's. Each keeps its own: its script's peak plus the Snakemake processes.
    grouped = rows["slurm_job"].notna() & rows["slurm_job"].duplicated(keep=False)
    rows.loc[grouped, "node_peak_mb"] = math.nan
    jobs = pd.concat([jobs.reset_index(drop=True), rows.drop(columns="slurm_job")], axis=1)
    jobs["script_peak_mb"] = jobs[["rss_mb", "bench_rss_mb"]].max(axis=1)
    with_snakemake = jobs["script_peak_mb"] + jobs["snakemake_mb"].fillna(0.0)
    jobs["peak_mb"] = pd.concat([with_snakemake, jobs["node_peak_mb"]], axis=1).max(axis=1)
    return jobs


def slope(v1: float, x1: float, v2: float, x2: float) -> float:
    """What one paper job's worth of work adds (the line through two cuts), 0 where no growth was measured.

    A slope <= 0 is noise on work that does not grow measurably.
    """
    return 0.0 if math.isclose(x1, x2) else max(0.0, (v2 - v1) / (x2 - x1))


def at_paper(v1: float, x1: float, v2: float, x2: float) -> float:
    """The line through ``(x1, v1)`` and ``(x2, v2)`` at ``x = 1`` (the paper's setting), never below the larger."""
    s = slope(v1, x1, v2, x2)
    return max(v1, v2) if s == 0 else v1 + s * (1.0 - x1)  # no growth measured: keep the larger measurement


def _fraction(keys: list, cut: dict, paper: dict, outputs) -> float:
    """The cut's work (or count) as a fraction of the paper's for one job: 1 / the keys' paper-over-cut ratio."""
    return 1.0 / scale_factor(keys, cut, paper, job_entry(outputs, entries(keys, cut, paper)))


def fixed_part(v1: float, x1: float, v2: float, x2: float) -> float:
    """What the line through two cuts gives at no work (a job's cost whatever its size), within [0, v1]."""
    s = slope(v1, x1, v2, x2)
    return max(v1, v2) if s == 0 else min(v1, max(0.0, v1 - s * x1))  # no growth measured: all of it is fixed


def job_kind(rule: str, key: str, kinds: dict) -> str:
    """A job's kind: the groups that ``kinds[rule]`` (a regex on the log key) finds, else the key itself.

    Jobs of one kind do the same work per unit (records/rehearsal_kinds.yaml: bruegge2013's learning shards
    of one benchmark and algorithm at three learning rates); the second cut runs one of each kind and the
    others take its slope.
    """
    found = re.search(kinds[rule], key) if rule in kinds else None
    return "/".join(found.groups()) or found.group(0) if found else key


def predict_jobs(cut1: pd.DataFrame, cut2: pd.DataFrame, scaling: dict, memory: dict, configs, kinds=None):
    """Each first-cut job's CPU seconds and peak MB predicted at the paper's settings.

    A job run at both cuts: the line through its two measurements (:func:`at_paper`). A job run at the first
    only, of a kind (:func:`job_kind`) one of whose jobs ran at both: its own measurement plus its kind's
    median :func:`slope` times the work still missing (``1 - x1``), so that its start-up is not multiplied.
    Else its rule's fixed part (the median of :func:`fixed_part` over the rule's jobs run at both, 0 where
    none did) plus the rest scaled by the paper's work (or count) over the cut's. Columns ``cpu_paper_s``,
    ``peak_paper_mb``, ``kind``, ``cuts`` (2 where the job ran at both cuts, else 1) and ``cpu_growth`` (its
    second cut's CPU time over its first's: how far its line stands above the noise of co-scheduling).
    """
    c1, c2, paper = configs
    kinds = kinds or {}
    second = cut2.set_index("key") if not cut2.empty else pd.DataFrame()
    rows = []
    for job in cut1.itertuples():
        keys = rule_keys(scaling.get(job.rule, []), job.outputs)
        mkeys = list(memory.get(job.rule, []))
        x1 = _fraction(keys, c1, paper, job.outputs)
        m1 = _fraction(mkeys, c1, paper, job.outputs) if mkeys else 1.0
        row = {"x1": x1, "m1": m1, "cuts": 1, "kind": job_kind(job.rule, job.key, kinds)}
        row |= {"cpu_fixed": math.nan, "mem_fixed": math.nan, "cpu_slope": math.nan, "mem_slope": math.nan}
        row["cpu_growth"] = math.nan
        if job.key in second.index:
            other = second.loc[job.key]
            x2 = _fraction(keys, c2, paper, job.outputs)
            m2 = _fraction(mkeys, c2, paper, job.outputs) if mkeys else 1.0
            row |= {
                "cuts": 2,
                "cpu_paper_s": at_paper(job.cpu_s, x1, other.cpu_s, x2),
                "cpu_fixed": fixed_part(job.cpu_s, x1, other.cpu_s, x2),
                "cpu_slope": slope(job.cpu_s, x1, other.cpu_s, x2),
                "cpu_growth": other.cpu_s / job.cpu_s if job.cpu_s > 0 else math.nan,
                "peak_paper_mb": at_paper(job.peak_mb, m1, other.peak_mb, m2),
                "mem_fixed": fixed_part(job.peak_mb, m1, other.peak_mb, m2),
                "mem_slope": slope(job.peak_mb, m1, other.peak_mb, m2),
            }
        rows.append(row)
    out = pd.concat([cut1.reset_index(drop=True), pd.DataFrame(rows)], axis=1)
    for what, value, frac in (("cpu", "cpu_s", "x1"), ("mem", "peak_mb", "m1")):
        fixed = out.groupby("rule")[f"{what}_fixed"].transform("median").fillna(0.0)
        scaled = fixed + (out[value] - fixed).clip(lower=0.0) / out[frac]
        kind_slope = out.groupby(["rule", "kind"])[f"{what}_slope"].transform("median")
        scaled = scaled.where(kind_slope.isna(), out[value] + kind_slope * (1.0 - out[frac]))
        target = "cpu_paper_s" if what == "cpu" else "peak_paper_mb"
        out[target] = out[target].where(out["cuts"] == 2, scaled)
    return out


def raise_requests(table: pd.DataFrame, default_costs: pd.DataFrame, paper: dict) -> list[float]:
    """Each rule's memory and runtime requests from now on, with what was measured here.

    Memory: :func:`memory_request` of the default's peak and this peak at the paper's shapes. Runtime: the
    default's request, or twice this longest job at the paper's shapes where that is longer
    (:func:`runtime_request`). Rewrites the cost table and the SLURM profile's block where a request
    changes, and says which; returns the memory requests in ``table``'s order.
    """
    measured_here = table.set_index("rule").reindex(columns=["peak_at_paper_mb", "longest_job_at_paper_min"])
    peaks, longest = (measured_here[c].astype(float).to_dict() for c in measured_here.columns)
    new = default_costs.copy()
    measured = new["measured_rss_mb"].notna()
    for i in new.index[measured]:
        rule = new.at[i, "rule"]
        new.at[i, "mem_mb"] = memory_request(new.at[i, "measured_rss_mb"], peaks.get(rule, math.nan))
        # ceil is monotone: the larger of the two requests is runtime_request of the larger estimate
        new.at[i, "runtime_min"] = max(new.at[i, "runtime_min"], runtime_request(0.0, longest.get(rule, math.nan)))
    changed = False
    for column, unit in (("mem_mb", "MB"), ("runtime_min", "min")):
        for r in new[measured & (new[column] != default_costs[column])].itertuples():
            print(f"{column} of {r.rule}: {default_costs.at[r.Index, column]:.0f} -> {getattr(r, column):.0f} {unit}")
            changed = True
    if changed:
        new.to_csv(COSTS, index=False)
        write_slurm_profile(new, paper)
    after = dict(zip(new["rule"], new["mem_mb"], strict=True))
    return [after.get(rule, math.nan) for rule in table["rule"]]


def second_cut_rules(default_costs: pd.DataFrame, memory: dict, scaling: dict, configs) -> list[str]:
    """The rules run at the second cut.

    Those above 1 paper core-hour in the cost table, those with memory that grows with a cut count, and those
    whose first cut does less than a quarter of a paper job's work (:data:`TWO_CUTS_ABOVE`): scaled from one cut,
    their fixed costs would be multiplied too (the first rehearsal's calibration_model: a 146 s enumeration of
    2^25 states scaled by its training's 1500x).
    """
    big = set(default_costs.loc[default_costs["paper_core_hours"].fillna(0) > COST_FLOOR_H, "rule"])
    c1, paper = configs[0], configs[2]
    for rule, spec in scaling.items():
        key_lists = [*spec.values()] if isinstance(spec, dict) else [spec]
        if max((scale_factor(keys, c1, paper) for keys in key_lists if keys), default=1.0) > TWO_CUTS_ABOVE:
            big.add(rule)
    return sorted(big | set(memory))


def second_cut_targets(cut1: pd.DataFrame, rules: list[str], configs, kinds=None, per_rule: int = PER_RULE):
    """The second cut's targets: per rule in ``rules``, the outputs of its ``per_rule`` costliest first-cut jobs.

    All of them for a rule of at most :data:`ALL_JOBS_UP_TO` jobs; the costliest of each kind for a rule with
    kinds (:func:`job_kind`). A job's outputs are its log's (``runtime``'s
    rule line), moved from the first cut's results and figures directories to the second's. The other jobs of
    the rule take its fixed part from these (:func:`predict_jobs`): running all 72 learning shards of
    bruegge2013 again would cost the rehearsal minutes of SLURM and Snakemake start-up (about 10 CPU seconds a
    job) for no other measurement.
    """
    moves = [
        (c[k].rstrip("/") + "/", configs[1][k].rstrip("/") + "/")
        for c in configs[:1]
        for k in ("results_dir", "figures_dir")
    ]
    kinds, logs = kinds or {}, Path(configs[0]["results_dir"]) / "logs"
    targets = []
    for rule in rules:
        jobs = cut1[cut1["rule"] == rule].sort_values(["cpu_s", "log"], ascending=[False, True])
        if rule in kinds:  # the costliest of each kind
            keys = jobs["log"].map(lambda log: str(Path(log).relative_to(logs).with_suffix("")))
            jobs = jobs[~keys.map(lambda key, rule=rule: job_kind(rule, key, kinds)).duplicated()]
        elif len(jobs) > ALL_JOBS_UP_TO:
            jobs = jobs.head(per_rule)
        for outputs in jobs["outputs"]:
            for path in outputs:
                for old, new in moves:
                    if path.startswith(old):
                        targets.append(new + path[len(old) :])
                        break
    return targets


def local_rules(root: Path = Path(".")) -> set[str]:
    """The rules named in a ``localrules:`` directive of the Snakefile or ``workflow/rules/*.smk``.

    They run where Snakemake runs, not through SLURM, so they belong to no group job.
    """
    names: set[str] = set()
    for path in [root / "Snakefile", *sorted((root / "workflow" / "rules").glob("*.smk"))]:
        for block in re.findall(r"^localrules:\s*\n((?:[ \t]+\w+,?[ \t]*\n)+)", path.read_text(), re.M):
            names |= set(re.findall(r"\w+", block))
    return names


def group_args(
    runtimes: dict[str, float], counts: dict[str, int], local: set[str], cap_min: int, size: int = GROUP_SIZE
) -> list[str]:
    """Snakemake arguments that submit a rule's jobs up to ``size`` at a time (one group per rule).

    Only a rule with at least ``2 x size`` jobs in the run (``counts``) is grouped: many short jobs are
    where two Snakemake starts a submission cost as much as the work, and a rule of a few long jobs
    (the DBM evaluations) would run them one after another on one CPU, the other idle (the first
    acceptance run's second cut ended on four evaluations in a row). Local rules never reach SLURM.
    One rule per group keeps a submission's request the rule's own (Snakemake takes the largest memory of
    jobs run one after another, and ``--cores 1`` makes them run one after another): the rehearsal still
    checks each rule's request. Its runtime request is the sum of its jobs' (``runtimes``, minutes a job),
    which must stay within the partition's limit ``cap_min`` (SLURM refuses the submission otherwise): a
    rule takes as many jobs a group as fit, and one that fits fewer than two is not grouped.
    """
    sizes = {
        r: min(size, int(cap_min // max(float(t), 1.0)))
        for r, t in runtimes.items()
        if r not in local and counts.get(r, 0) >= 2 * size
    }
    grouped = sorted(r for r, n in sizes.items() if n >= 2)
    if not grouped:
        return []
    return ["--groups", *(f"{r}=g_{r}" for r in grouped), "--group-components", *(f"g_{r}={sizes[r]}" for r in grouped)]


def main(argv: list[str]) -> int:
    """``python -m bmrep.ops.rehearsal report [WALL_S]``, ``... second-cut-rules``, ``... group-args``."""
    if argv[:1] == ["group-args"]:  # the first cut's rules of many jobs, at the SLURM profile's runtime requests
        profile = yaml.safe_load(SLURM_PROFILE.read_text())
        default = profile["default-resources"]["runtime"]
        runtimes = {r: res.get("runtime", default) for r, res in profile.get("set-resources", {}).items()}
        counts = job_counts("all", "--configfile", "config/paper.yaml", CUTS[0])
        print(" ".join(group_args(runtimes, counts, local_rules(), runtime_cap())))
        return 0
    default_costs = pd.read_csv(COSTS)
    memory = yaml.safe_load(MEMORY_SCALING.read_text()) or {}
    configs = (cut_config(1), cut_config(2), paper_config())
    scaling = yaml.safe_load(COST_SCALING.read_text()) or {}
    kinds = yaml.safe_load(REHEARSAL_KINDS.read_text()) or {}
    rules = second_cut_rules(default_costs, memory, scaling, configs)
    if argv[:1] == ["second-cut-rules"]:
        print(" ".join(rules))
        return 0
    if argv[:1] == ["second-cut-targets"]:
        cut1 = measure_jobs(Path(configs[0]["results_dir"]) / "logs")
        print(" ".join(second_cut_targets(cut1, rules, configs, kinds)))
        return 0
    if argv[:1] != ["report"]:
        subcommands = "report [WALL_S] | second-cut-rules | second-cut-targets | group-args"
        print(f"usage: python -m bmrep.ops.rehearsal {subcommands}")
        return 2
    cut1_dir, cut2_dir = (Path(c["results_dir"]) for c in configs[:2])
    node = cut1_dir / JOB_MEMORY  # one table for both cuts (one cluster, so distinct job ids)
    cut2 = job_records(cut2_dir, node) if (cut2_dir / "logs").exists() else pd.DataFrame()
    jobs = predict_jobs(job_records(cut1_dir, node), cut2, scaling, memory, configs, kinds)
    node_mem = int(yaml.safe_load(SLURM_PROFILE.with_name("partition.yaml").read_text())["node_mem_mb"])
    table = rehearsal_table(jobs, job_counts("all", "--configfile", "config/paper.yaml"), default_costs, node_mem)
    table = table.assign(mem_request_after_mb=raise_requests(table, default_costs, paper=configs[2]))
    table.to_csv(REPORT.with_suffix(".csv"), index=False)
    REPORT.write_text(markdown(table, float(argv[1]) if len(argv) > 1 else None, node_mem))
    print(REPORT.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
