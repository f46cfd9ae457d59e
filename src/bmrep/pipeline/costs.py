"""Per-rule costs: measured from a run's job logs, extrapolated to another profile, given to SLURM.

Every job logs what it used when it ends (``runtime.RESOURCES_LINE``). From
the logs of a run (normally the default profile's, ``results/logs``) this
module builds one row per rule: jobs, CPU seconds per job (mean and max),
peak memory. For another profile (normally the paper's) each rule's CPU per
job is scaled by the ratio of the config values that set its work
(``config/cost_scaling.yaml``: rule -> dotted config keys, or per output
name -> keys (:func:`rule_keys`); their paper/measured ratios multiply), and multiplied by that profile's job count
(from a Snakemake dry run). The result is ``config/costs.csv`` and the
``set-resources`` block of the SLURM profile (runtime with a safety factor,
memory with headroom). ``make costs`` runs it after a default run.

The SLURM profile's block, and what a rule estimated above the partition's
limit gets, are in :mod:`bmrep.pipeline.slurm_resources`.

This is an extrapolation, not a promise: work that does not scale with the
listed keys (a different model size, a different number of chains) shows in
the ``scaled_by`` column as what was assumed.
"""

from __future__ import annotations

import ast
import copy
import fnmatch
import math
import re
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import yaml

from .config_check import deep_merge
from .slurm_resources import SLURM_PROFILE, memory_request, rehearsal_peaks, runtime_cap, write_slurm_profile

RULE = re.compile(r"bmrep\.\S+ INFO rule (\S+), threads")
OUTPUTS = re.compile(r"INFO rule \S+, threads \d+, outputs (\[.*\])")
USED = re.compile(r"job resources: cpu ([\d.]+) s, wall ([\d.]+) s, max rss ([\d.]+) MB")
# the log line's time (bmrep.pipeline.runtime's format: asctime first) of the resources line: when the job ended
ENDED = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d),(\d{3}) .*job resources: ", re.M)
RUNTIME_FACTOR, RUNTIME_FLOOR_MIN = 2.0, 10  # SLURM kills a job at its runtime: ask twice the estimate


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


def _lookup(config: dict, dotted: str):
    """``config``'s value at ``dotted``.

    A number segment indexes a list (``carlson2016.fig3.models.0.sweeps``);
    ``a|b`` is the value at ``a`` where there is one, else at ``b`` (a
    per-model setting over the section's).
    """
    for key in dotted.split("|"):
        node = config
        for part in key.split("."):
            if isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            elif isinstance(node, dict) and part in node:
                node = node[part]
            else:
                break
        else:
            return node
    raise KeyError(f"config key {dotted!r} not found (config/cost_scaling.yaml)")


# A dtype as work: its item size (a float64 product takes about twice a float32 one's time: benchmarks/README.md)
ITEM_SIZE = {"float32": 4.0, "float64": 8.0}


def work_size(value) -> float:
    """A config value as an amount of work.

    A number itself, a list its sum (or length), a mapping its largest entry, a dtype its item size.
    """
    if isinstance(value, bool) or value is None:
        return 1.0
    if isinstance(value, str):
        return ITEM_SIZE.get(value, 1.0)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dict):
        return max((work_size(v) for v in value.values()), default=1.0)
    if isinstance(value, list):
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return float(sum(value)) or 1.0
        return float(sum(work_size(v) for v in value)) if all(isinstance(v, dict) for v in value) else float(len(value))
    return 1.0


def _ratio(target, measured, entry: str | None = None) -> float:
    # Per-wildcard settings (a mapping per benchmark) scale each job differently: a job's own entry
    # when it is known, else the largest ratio, so that estimates are upper ones, never short.
    if isinstance(target, dict) and isinstance(measured, dict) and set(target) & set(measured):
        if entry in target and entry in measured:
            return _ratio(target[entry], measured[entry])
        return max(_ratio(target[k], measured[k]) for k in set(target) & set(measured))
    return work_size(target) / work_size(measured)


def entries(keys: list[str], measured: dict, target: dict) -> set[str]:
    """The entries (e.g. benchmarks) of the per-entry settings among ``keys``: mapping keys both configs have."""
    found: set[str] = set()
    for k in keys:
        if isinstance(k, dict):  # a one_plus term: plain keys only
            continue
        k = k.removeprefix("1/")
        prefix = k.split(".*", 1)[0]
        a, b = _lookup(measured, prefix), _lookup(target, prefix)
        if isinstance(a, dict) and isinstance(b, dict):
            found |= set(a) & set(b)
    return found


def job_entry(outputs, candidates: set[str]) -> str | None:
    """The one entry that a job's output paths name as a directory or file (``.../learning/bas/...``), else None."""
    parts = {part for path in outputs for part in Path(path).parts}
    named = candidates & parts
    return named.pop() if len(named) == 1 else None


def _key_power(key: str) -> tuple[str, int]:
    """A work key and the power its value enters the work with: ``1/key`` -1 (a period such as ``tt_every``), else 1."""
    return (key[2:], -1) if key.startswith("1/") else (key, 1)


def _one_plus_ratio(term: dict, measured: dict, target: dict) -> float:
    """``{one_plus: w, times: [keys]}``: work per unit ``1 + w x product(keys)``, target over measured.

    For work made of a fixed part and a part that grows with settings: a
    Trans-SAP update is a SAP update (1) plus a tempered transition's 2
    sweeps per level every ``tt_every`` updates (``w`` = one level's two
    sweeps over a SAP update, from ``benchmarks/bench_dbm_update.py``).
    """
    if set(term) != {"one_plus", "times"}:
        raise KeyError(f"a term needs exactly one_plus and times, not {sorted(term)} (config/cost_scaling.yaml)")
    w = float(term["one_plus"])

    def product(config: dict) -> float:
        return math.prod(work_size(_lookup(config, k)) ** power for k, power in map(_key_power, term["times"]))

    return (1 + w * product(target)) / (1 + w * product(measured))


def scale_factor(keys: list, measured: dict, target: dict, entry: str | None = None) -> float:
    """Product over ``keys`` of the target config's work over the measured config's.

    A key written ``1/key`` divides instead (a period such as ``tt_every``).
    A mapping ``{one_plus: w, times: [keys]}`` multiplies by
    ``(1 + w x target's product) / (1 + w x measured's product)``
    (:func:`_one_plus_ratio`).
    A mapping per entry (``{bas: 6000, mnist: 200}``) gives ``entry``'s ratio,
    or without an entry the largest. Keys with a ``*`` segment
    (``bruegge2013.autocorr.models.*.n_steps``) are taken per entry of the
    mapping at the star: their ratios multiply within an entry (a key an entry
    lacks counts 1), and ``entry``'s product is used, or the largest.
    """
    terms = [k for k in keys if isinstance(k, dict)]
    powers = [_key_power(k) for k in keys if not isinstance(k, dict)]  # -1: work falls as the value rises
    plain = [(k, p) for k, p in powers if p == -1 or "*" not in k]

    factor = math.prod(_ratio(_lookup(target, k), _lookup(measured, k), entry) ** p for k, p in plain)
    factor *= math.prod(_one_plus_ratio(t, measured, target) for t in terms)
    starred = [k for k, p in powers if p == 1 and "*" in k]
    if starred:
        prefix = starred[0].split(".*", 1)[0]
        common = set(_lookup(target, prefix)) & set(_lookup(measured, prefix))

        def entry_ratio(key: str, entry: str) -> float:
            concrete = key.replace("*", entry, 1)
            try:
                return _ratio(_lookup(target, concrete), _lookup(measured, concrete))
            except KeyError:
                return 1.0

        if entry in common:
            return factor * math.prod(entry_ratio(k, entry) for k in starred)
        factor *= max(math.prod(entry_ratio(k, e) for k in starred) for e in common)
    return factor


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


def rule_keys(spec, outputs=()) -> list[str]:
    """A rule's scaling keys for one job: ``spec`` itself, or per output name the keys of the job's.

    ``spec`` is a list of keys, or a mapping from an output's file stem or
    directory (``Trans-SAP`` for ``models/.../seed0/Trans-SAP.npz``; a glob
    such as ``784x100_*`` matches stems) to its keys, with ``"*"`` for every
    other job: jobs of one rule whose work grows
    differently (a tempered transition at every update for Trans-SAP, one
    Gibbs sweep for SAP) scale each by their own keys.
    """
    if not isinstance(spec, dict):
        return list(spec or [])
    names = {Path(p).stem for p in outputs} | {part for p in outputs for part in Path(p).parts}
    for name, keys in spec.items():
        if name != "*" and any(fnmatch.fnmatchcase(n, name) for n in names):
            return list(keys)
    return list(spec.get("*", []))


def _described(spec) -> str:
    def term(k) -> str:
        return f"(1 + {k['one_plus']} x {' x '.join(k['times'])})" if isinstance(k, dict) else k

    if not isinstance(spec, dict):
        return " x ".join(map(term, spec or [])) or "(same work)"
    return "; ".join(f"{name}: {' x '.join(map(term, keys)) or '(same work)'}" for name, keys in spec.items())


def extrapolate(
    jobs: pd.DataFrame, scaling: dict, measured_config: dict, target_config: dict, counts: dict, peaks=None
):  # noqa: E501
    """The cost table for the target profile (one row per rule it runs) and its SLURM resources.

    ``jobs`` is :func:`measure_jobs`' table. Each measured job is scaled by
    its own factor: a rule whose work is set per entry (a benchmark's
    updates) scales each job by the entry its outputs name (:func:`job_entry`;
    the largest entry's ratio when they name none). The target's jobs are
    assumed to fall on the entries as the measured ones do: its core-hours
    are its job count times the mean scaled job, its SLURM runtime twice
    the largest scaled job; its memory :func:`memory_request` of the measured
    peak and of ``peaks`` (rule -> the rehearsal's peak at the target's shapes).
    """
    rows, peaks = [], peaks or {}
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
                "runtime_min": max(RUNTIME_FLOOR_MIN, math.ceil(RUNTIME_FACTOR * per_job / 60)),
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
    """Rules measured in ``previous`` (the committed config/costs.csv) that ``table`` could not measure.

    A run stopped part way (or the logs of another profile) leaves most rules without a log; writing its
    table would replace their measured costs by "not measured", so :func:`main` refuses it.
    """
    unmeasured = set(table.loc[table["scaled_by"] == "not measured", "rule"])
    measured_before = previous.loc[previous["scaled_by"] != "not measured", "rule"]
    return sorted(unmeasured.intersection(measured_before))


def main(argv: list[str]) -> int:
    """``python -m bmrep.pipeline.costs LOGS_DIR``: write config/costs.csv and the SLURM resources; print totals.

    ``python -m bmrep.pipeline.costs --slurm-profile``: only rewrite the profile's block from config/costs.csv
    (after a change of ``runtime_cap_min`` in profiles/slurm/partition.yaml).
    """
    if len(argv) != 1:
        print("usage: python -m bmrep.pipeline.costs LOGS_DIR | --slurm-profile   (LOGS_DIR: a default run's job logs)")
        return 2
    paper = paper_config()
    if argv[0] == "--slurm-profile":
        write_slurm_profile(pd.read_csv("config/costs.csv"), paper)
        print(f"wrote {SLURM_PROFILE} from config/costs.csv (cap {runtime_cap()} min)")
        return 0
    default = yaml.safe_load(Path("config/config.yaml").read_text())
    scaling = yaml.safe_load(Path("config/cost_scaling.yaml").read_text()) or {}
    counts = job_counts("all", "--configfile", "config/paper.yaml")
    table = extrapolate(measure_jobs(argv[0]), scaling, default, paper, counts, rehearsal_peaks())
    lost = lost_rules(table, pd.read_csv("config/costs.csv")) if Path("config/costs.csv").exists() else []
    if lost:
        print(
            f"make costs: {argv[0]} has no job log of {len(lost)} rules measured in config/costs.csv "
            f"({', '.join(lost[:3])}{', ...' if len(lost) > 3 else ''}); finish the default run first "
            "(make run); nothing written"
        )
        return 2
    table.to_csv("config/costs.csv", index=False)
    write_slurm_profile(table, paper)
    paper_of = paper_of_rule(table["rule"])
    totals = table.groupby(paper_of)["paper_core_hours"].sum()
    print(table.to_string(index=False))
    print("\npaper profile, core-hours per paper:")
    print(totals.round(1).to_string())
    print(f"total: {totals.sum():.1f} core-hours; wrote config/costs.csv and {SLURM_PROFILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
