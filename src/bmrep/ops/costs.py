"""Per-rule costs: measured from a run's job logs, extrapolated to another profile, given to SLURM.

Every job logs what it used when it ends (``runtime.RESOURCES_LINE``). From
the logs of a run (normally the default profile's, ``results/logs``) this
module builds one row per rule: jobs, CPU seconds per job (mean and max),
peak memory. For another profile (normally the paper's) each rule's CPU per
job is scaled by the ratio of the config values that set its work
(``records/cost_scaling.yaml``: rule -> dotted config keys, or per output
name -> keys, read by :mod:`bmrep.ops.work_keys`; their paper/measured
ratios multiply), and multiplied by that profile's job count (from a
Snakemake dry run). The result is the cost table (:data:`bmrep.pipeline.records.COSTS`) and the
``set-resources`` block of the SLURM profile (runtime with a safety factor,
memory with headroom). ``make costs`` runs it after a default run.

The SLURM profile's block, and what a rule estimated above the partition's
limit gets, are in :mod:`bmrep.ops.slurm_resources`.

This is an extrapolation, not a promise: work that does not scale with the
listed keys (a different model size, a different number of chains) shows in
the ``scaled_by`` column as what was assumed.
"""

from __future__ import annotations

import ast
import copy
import math
import re
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import yaml

from ..pipeline.config_check import deep_merge
from ..pipeline.memory import SLURM_PROFILE, memory_request
from ..pipeline.records import COSTS
from .records import COST_SCALING, DEFAULT_JOBS
from .slurm_resources import rehearsal_measured, runtime_cap, runtime_request, write_slurm_profile
from .work_keys import _described, entries, job_entry, rule_keys, scale_factor

RULE = re.compile(r"bmrep\.\S+ INFO rule (\S+), threads")
OUTPUTS = re.compile(r"INFO rule \S+, threads \d+, outputs (\[.*\])")
USED = re.compile(r"job resources: cpu ([\d.]+) s, wall ([\d.]+) s, max rss ([\d.]+) MB")
# the log line's time (bmrep.pipeline.runtime's format: asctime first) of the resources line: when the job ended
ENDED = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) .*job resources: ", re.M)
# The default run's jobs as measured (one row per job, records.DEFAULT_JOBS), written by every `make costs` from
# logs: a change of records/cost_scaling.yaml is extrapolated again from it (`make costs COSTS_FROM=` that file)
# without a 75-minute default run.
JOB_COLUMNS = ["rule", "cpu_s", "wall_s", "rss_mb", "outputs"]


def log_time(stamp: str) -> float:
    """Seconds since the epoch of a log line's time stamp ``YYYY-mm-dd HH:MM:SS,mmm`` (local time)."""
    date, ms = stamp.split(",")
    return time.mktime(time.strptime(date, "%Y-%m-%d %H:%M:%S")) + int(ms) / 1e3


def measure_jobs(logs_dir: str | Path) -> pd.DataFrame:
    """One row per finished job from the logs under ``logs_dir``: rule, cpu_s, wall_s, rss_mb, log, outputs, end.

    ``end`` is when the job ended (seconds since the epoch, local time of the log), NaN if its line has no time.
    """
    rows = []
    for log in sorted(Path(logs_dir).rglob("*.log")):
        text = log.read_text(errors="replace")
        rule, used, outs = RULE.search(text), USED.findall(text), OUTPUTS.search(text)
        if rule and used:
            cpu, wall, rss = map(float, used[-1])
            outputs = tuple(ast.literal_eval(outs.group(1))) if outs else ()
            ended = ENDED.findall(text)
            end = log_time(",".join(ended[-1])) if ended else math.nan
            rows.append(
                {
                    "rule": rule.group(1),
                    "cpu_s": cpu,
                    "wall_s": wall,
                    "rss_mb": rss,
                    "log": str(log),
                    "outputs": outputs,
                    "end": end,
                }
            )
    if not rows:
        raise FileNotFoundError(f"{logs_dir}: no job log with a resources line (run the profile first)")
    return pd.DataFrame(rows)


def write_jobs(jobs: pd.DataFrame, path: Path = DEFAULT_JOBS) -> None:
    """Keep ``jobs`` (:func:`measure_jobs`' table) as a CSV: its rule, CPU, wall, peak and outputs (space-joined)."""
    kept = jobs[JOB_COLUMNS].assign(outputs=jobs["outputs"].map(" ".join))
    kept.sort_values(["rule", "outputs"]).to_csv(path, index=False)


def read_jobs(source: str | Path) -> pd.DataFrame:
    """The measured jobs of a run: from its logs directory (:func:`measure_jobs`) or a table of :func:`write_jobs`."""
    if Path(source).suffix != ".csv":
        return measure_jobs(source)
    if not Path(source).is_file():
        raise FileNotFoundError(f"no job table {source}: `make costs` from a default run's logs writes it")
    jobs = pd.read_csv(source, keep_default_na=False)
    return jobs.assign(outputs=jobs["outputs"].map(lambda s: tuple(s.split())))


def job_counts(*snakemake_args: str) -> dict[str, int]:
    """Jobs per rule that a from-scratch run would make (Snakemake's dry-run job stats, every job forced)."""
    cmd = [str(Path(sys.executable).with_name("snakemake")), "-n", "--forceall", "--quiet", "rules", *snakemake_args]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    counts, started = {}, False
    for line in out.splitlines():
        if line.startswith("job ") and "count" in line:
            started = True
            continue
        if started:
            parts = line.split()
            if len(parts) == 2 and parts[1].isdigit() and parts[0] != "total":
                counts[parts[0]] = int(parts[1])
            elif parts and parts[0] == "total":
                break
    return counts


def extrapolate(
    jobs: pd.DataFrame,
    scaling: dict,
    measured_config: dict,
    target_config: dict,
    counts: dict,
    peaks=None,
    longest=None,
):
    """The cost table for the target profile (one row per rule it runs) and its SLURM resources.

    ``jobs`` is :func:`measure_jobs`' table. Each measured job is scaled by
    its own factor: a rule whose work is set per entry (a benchmark's
    updates) scales each job by the entry its outputs name (:func:`job_entry`;
    the largest entry's ratio when they name none). The target's jobs are
    assumed to fall on the entries as the measured ones do: its core-hours
    are its job count times the mean scaled job; its SLURM runtime
    :func:`runtime_request` of the largest scaled job and of ``longest``
    (rule -> the rehearsal's longest job at the target's shapes, minutes);
    its memory :func:`memory_request` of the measured peak and of ``peaks``
    (rule -> the rehearsal's peak at the target's shapes).
    """
    rows, peaks, longest = [], peaks or {}, longest or {}
    for rule, n_jobs in sorted(counts.items()):
        d = jobs[jobs["rule"] == rule]
        if d.empty:
            rows.append({"rule": rule, "paper_jobs": n_jobs, "scaled_by": "not measured"})
            continue
        spec = scaling.get(rule, [])
        f = []
        for o in d["outputs"]:
            keys = rule_keys(spec, o)
            candidates = entries(keys, measured_config, target_config)
            f.append(scale_factor(keys, measured_config, target_config, job_entry(o, candidates)))
        scaled = d["cpu_s"].to_numpy() * f
        per_job = float(scaled.max())
        rows.append(
            {
                "rule": rule,
                "measured_jobs": len(d),
                "measured_cpu_s_per_job": round(float(d["cpu_s"].mean()), 2),
                "measured_rss_mb": round(float(d["rss_mb"].max()), 1),
                "scaled_by": _described(spec),
                "scale": round(float(scaled.sum() / max(d["cpu_s"].sum(), 1e-9)), 3),  # CPU-weighted over its jobs
                "paper_jobs": n_jobs,
                "paper_cpu_h_per_job": round(per_job / 3600, 4),
                "paper_core_hours": round(n_jobs * float(scaled.mean()) / 3600, 3),
                "runtime_min": runtime_request(per_job, longest.get(rule, math.nan)),
                "mem_mb": memory_request(float(d["rss_mb"].max()), peaks.get(rule, math.nan)),
            }
        )
    return pd.DataFrame(rows)


def paper_of_rule(rules: pd.Series) -> pd.Series:
    """The paper (or the calibration section) a rule belongs to, from its name; ``data/report`` for the rest."""
    return rules.str.extract(r"^([a-z]+\d{4}|calibration)")[0].fillna("data/report")


def paper_config(root: Path = Path(".")) -> dict:
    """The paper profile's config: config/paper.yaml merged over config/config.yaml."""
    default = yaml.safe_load((root / "config/config.yaml").read_text())
    return deep_merge(copy.deepcopy(default), yaml.safe_load((root / "config/paper.yaml").read_text()))


def lost_rules(table: pd.DataFrame, previous: pd.DataFrame) -> list[str]:
    """Rules measured in ``previous`` (the committed cost table) that ``table`` could not measure.

    A run stopped part way (or the logs of another profile) leaves most rules without a log; writing its
    table would replace their measured costs by "not measured", so :func:`main` refuses it.
    """
    unmeasured = set(table.loc[table["scaled_by"] == "not measured", "rule"])
    measured_before = previous.loc[previous["scaled_by"] != "not measured", "rule"]
    return sorted(unmeasured.intersection(measured_before))


def main(argv: list[str]) -> int:
    """``python -m bmrep.ops.costs LOGS_DIR``: write the cost table and the SLURM resources; print totals.

    ``LOGS_DIR`` may instead be :data:`DEFAULT_JOBS`, the jobs the last ``make costs`` measured (it keeps
    them there): the same table again under a changed :data:`COST_SCALING`, without a run.

    ``python -m bmrep.ops.costs --slurm-profile``: only rewrite the profile's block from the cost table
    (after a change of ``runtime_cap_min`` in profiles/slurm/partition.yaml).
    """
    if len(argv) != 1:
        print(
            f"usage: python -m bmrep.ops.costs LOGS_DIR | {DEFAULT_JOBS} | --slurm-profile"
            "   (LOGS_DIR: a default run's job logs)"
        )
        return 2
    paper = paper_config()
    if argv[0] == "--slurm-profile":
        write_slurm_profile(pd.read_csv(COSTS), paper)
        print(f"wrote {SLURM_PROFILE} from {COSTS} (cap {runtime_cap()} min)")
        return 0
    try:
        jobs = read_jobs(argv[0])
    except FileNotFoundError as e:
        print(f"make costs: {e}; nothing written")
        return 2
    default = yaml.safe_load(Path("config/config.yaml").read_text())
    scaling = yaml.safe_load(COST_SCALING.read_text()) or {}
    counts = job_counts("all", "--configfile", "config/paper.yaml")
    table = extrapolate(
        jobs,
        scaling,
        default,
        paper,
        counts,
        rehearsal_measured("peak_at_paper_mb"),
        rehearsal_measured("longest_job_at_paper_min"),
    )
    lost = lost_rules(table, pd.read_csv(COSTS)) if COSTS.exists() else []
    if lost:
        print(
            f"make costs: {argv[0]} has no job log of {len(lost)} rules measured in {COSTS} "
            f"({', '.join(lost[:3])}{', ...' if len(lost) > 3 else ''}); finish the default run first "
            "(make run); nothing written"
        )
        return 2
    table.to_csv(COSTS, index=False)
    from_logs = Path(argv[0]).resolve() != DEFAULT_JOBS.resolve()
    if from_logs:
        write_jobs(jobs, DEFAULT_JOBS)
    write_slurm_profile(table, paper)
    paper_of = paper_of_rule(table["rule"])
    totals = table.groupby(paper_of)["paper_core_hours"].sum()
    print(table.to_string(index=False))
    print("\npaper profile, core-hours per paper:")
    print(totals.round(1).to_string())
    wrote = f"{COSTS}{f', {DEFAULT_JOBS}' * from_logs} and {SLURM_PROFILE}"
    print(f"total: {totals.sum():.1f} core-hours; wrote {wrote}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
