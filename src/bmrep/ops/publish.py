"""``make publish PROFILE=default|paper``: a finished run's results, written beside the code.

From the results of one profile (``results_dir``, ``figures_dir`` of its
config) this writes ``docs/results/<profile>/``:

* ``replication_summary.csv`` and ``REPLICATION.md``: the papers' claims files
  merged by the summary's own code (:mod:`bmrep.claims.summary`); a paper the
  run did not reach (the paper profile may be run one paper at a time) keeps
  every claim its code declares for the profile, as ``not run``, with the
  core-hours its jobs would take (:func:`core_hours_per_paper`: the rehearsal's
  prediction at the paper's shapes, ``docs/paper-rehearsal.csv``);
* ``figures/``: every figure of the papers that ran and the report's
  screenshots (``<figures_dir>/report/``), as PNG at most :data:`MAX_WIDTH`
  pixels wide;
* ``RUN.md``: commit, profile, config digest, machine, and the wall time and
  core-minutes per paper measured from the job logs (:func:`bmrep.ops.costs.measure_jobs`).

It then rewrites the README's block between :data:`README_BEGIN` and
:data:`README_END` from ``docs/results/*/`` (:mod:`bmrep.ops.published`),
and every measured figure the pages quote from its record
(:mod:`bmrep.ops.quoted`).

It refuses, with one line, a run that is incomplete or was made by other code:
``snakemake -n`` of the run's targets must have nothing to do. Every rule
carries the digest of the library code its script imports as its ``code``
param (:mod:`bmrep.pipeline.code_digest`) and Snakemake reruns a job whose params,
script, inputs or outputs changed, so "nothing to do" means every output
exists and was made by the code of this checkout. The checkout itself must
have no uncommitted changes (``RUN.md`` names its commit); ``--dirty`` allows
them for a trial publication and says so in ``RUN.md``.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
import yaml
from PIL import Image

from ..claims.summary import PAPER_TITLES, read_claims, write_summary
from ..pipeline import provenance
from ..pipeline.config_check import deep_merge
from ..pipeline.memory import REHEARSAL_TABLE
from ..pipeline.records import COSTS
from . import evidence, published, quoted
from .costs import measure_jobs, paper_of_rule

MAX_WIDTH = 1000  # pixels: a figure as wide as a web page's text column, a few MB for all of them
PUBLISHED = Path("docs/results")
KEPT = ("models",)  # subdirectories of a publication that a new publication keeps (an evidence run's models)
DECLARED = "claims/declared.csv"  # rule declared_claims (workflow/rules/report.smk)
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


class Refused(RuntimeError):
    """A run that cannot be published, with the one-line reason."""


def profile_args(profile: str, overrides: list[str]) -> list[str]:
    """Snakemake's arguments for a profile and plain ``key=value`` overrides."""
    args = [] if profile == "default" else [f"--configfile=config/{profile}.yaml"]
    return args + (["--config", *overrides] if overrides else [])


def load_config(profile: str, overrides: list[str]) -> dict:
    """The run's config: config/config.yaml, the profile's file over it, then the overrides."""
    cfg = yaml.safe_load(Path("config/config.yaml").read_text())
    if profile != "default":
        path = Path(f"config/{profile}.yaml")
        if not path.is_file():
            raise Refused(f"no profile {profile!r} (config/{profile}.yaml)")
        cfg = deep_merge(copy.deepcopy(cfg), yaml.safe_load(path.read_text()))
    for entry in overrides:
        key, _, value = entry.partition("=")
        cfg[key] = yaml.safe_load(value)
    return cfg


def config_digest(cfg: dict) -> str:
    """A 16-hex-digit digest of the merged config (keys sorted), as RUN.md states it."""
    return hashlib.sha256(json.dumps(cfg, sort_keys=True, default=str).encode()).hexdigest()[:16]


def snakemake(*args: str, timeout: float = 1800) -> subprocess.CompletedProcess:
    """Snakemake (of this environment) in the current directory, its output captured."""
    return subprocess.run([SNAKEMAKE, *args], capture_output=True, text=True, timeout=timeout)


def jobs_left(targets: list[str], args: list[str]) -> str | None:
    """None when ``snakemake -n`` of ``targets`` has nothing to do, else a one-line account of what is left."""
    proc = snakemake("-n", *targets, *args)
    out = proc.stdout + proc.stderr
    if proc.returncode != 0:
        last = [line for line in out.splitlines() if line.strip()][-1:] or ["(no output)"]
        raise Refused(f"snakemake -n {' '.join(targets)} failed: {last[0]}")
    if "Nothing to be done" in out:
        return None
    total = re.search(r"^total\s+(\d+)", out, re.M)
    rule = re.search(r"^rule (\w+):", out, re.M)
    reason = re.search(r"^\s+reason: (.+)$", out, re.M)
    what = f"rule {rule.group(1)}: {reason.group(1)}" if rule and reason else "see snakemake -n"
    return f"{total.group(1) if total else 'some'} jobs left ({what})"


def declared_claims(results_dir: Path, args: list[str]) -> pd.DataFrame:
    """Every claim the code declares for the profile, as ``not run`` rows (rule declared_claims makes them)."""
    target = str(results_dir / DECLARED)
    proc = snakemake("-c1", target, *args)
    if proc.returncode != 0:
        raise Refused(f"could not list the declared claims ({target}): see snakemake {target}")
    return pd.read_csv(target, dtype=str, keep_default_na=False)


# where a paper that did not run takes its core-hours from (core_hours_per_paper), as RUN.md says it
HOURS_FROM = "predicted by the rehearsal at the paper's shapes, docs/paper-rehearsal.md"


def core_hours_per_paper(costs_csv: str | Path = COSTS, rehearsal_csv: str | Path = REHEARSAL_TABLE) -> pd.Series:
    """Paper-profile core-hours per paper.

    Each rule's prediction measured at the paper's shapes where ``make paper-rehearsal`` made one (its
    table), else the cost table's extrapolation from the default.
    """
    table = pd.read_csv(costs_csv).set_index("rule")["paper_core_hours"]
    if Path(rehearsal_csv).exists():
        measured = pd.read_csv(rehearsal_csv).set_index("rule")["core_hours_from_rehearsal"].dropna()
        table = measured.combine_first(table)
    return table.groupby(paper_of_rule(table.index.to_series())).sum()


def shrink(src: Path, dst: Path, max_width: int = MAX_WIDTH) -> None:
    """Copy a PNG, downscaled (Lanczos) to at most ``max_width`` pixels wide, aspect kept."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    with Image.open(src) as im:
        if im.width <= max_width:
            shutil.copyfile(src, dst)
            return
        small = im.resize((max_width, round(im.height * max_width / im.width)), Image.Resampling.LANCZOS)
    small.save(dst, optimize=True)


# a pause longer than this between one job's end and the next job's start splits a run into sittings (sessions)
SITTING_GAP_S = 30 * 60


def sittings(starts: pd.Series, ends: pd.Series, gap_s: float = SITTING_GAP_S) -> tuple[int, float]:
    """How many sittings the jobs ran in, and the minutes in which at least one job ran.

    A sitting ends at a pause longer than ``gap_s`` with no job running; the busy minutes are the length of the
    union of the jobs' intervals.

    A run made over several sessions (an evidence run beside trainings) spans hours from its first job to its last
    while its jobs ran for a fraction of them; the span alone would read as the run's duration.
    """
    count, busy, cur_start, cur_end = 0, 0.0, None, None
    for a, b in sorted(zip(starts, ends, strict=True)):
        if cur_end is None or a > cur_end:
            if cur_end is not None:
                busy += cur_end - cur_start
                count += a - cur_end > gap_s
            cur_start, cur_end = a, b
        else:
            cur_end = max(cur_end, b)
    if cur_end is None:
        return 0, 0.0
    return count + 1, (busy + cur_end - cur_start) / 60


def cost_table(logs_dir: Path, papers: list[str]) -> pd.DataFrame:
    """Per paper: jobs, core-minutes (CPU of its jobs) and wall minutes (first job's start to last job's end).

    The row of all jobs also has the sittings and busy minutes of :func:`sittings`.
    """
    jobs = measure_jobs(logs_dir)
    jobs = jobs.assign(paper=paper_of_rule(jobs["rule"]), start=jobs["end"] - jobs["wall_s"])
    rows = []
    # the whole run's wall time spans the papers' jobs: the summary and report jobs rerun when `make publish`
    # makes the report (after a later `make costs`, say), and their time is not the run's
    papers_jobs = jobs[jobs["paper"].isin(papers)]
    for name, sub in [*((p, jobs[jobs["paper"] == p]) for p in papers), ("all jobs", jobs)]:
        if len(sub):
            span = papers_jobs if name == "all jobs" and len(papers_jobs) else sub
            wall = (span["end"].max() - span["start"].min()) / 60
            row = {"paper": name, "jobs": len(sub), "core-minutes": sub["cpu_s"].sum() / 60, "wall minutes": wall}
            if name == "all jobs":
                row["sittings"], row["busy minutes"] = sittings(span["start"], span["end"])
            rows.append(row)
    return pd.DataFrame(rows)


def run_md(profile, commit, dirty, digest, costs: pd.DataFrame, not_run: dict[str, float], extra=()) -> str:
    """RUN.md: where and how the published run was made, its cost per paper (``extra``: a paragraph after it)."""
    title = f"Evidence run {profile.removeprefix(evidence.PREFIX)}" if evidence.is_evidence(profile) else None
    lines = [f"# {title or f'Run of the {profile} profile'}", ""]
    lines += [f"- commit: `{commit}`" + (" with uncommitted changes (a trial publication)" if dirty else "")]
    lines += [f"- profile: {profile} (config digest `{digest}`)", f"- machine: {provenance.machine()}"]
    span = costs[costs["paper"] == "all jobs"]
    if len(span):
        r = span.iloc[0]
        lines += [f"- wall time, the papers' first job's start to their last job's end: {r['wall minutes']:.1f} min; "
                  f"{int(r['jobs'])} jobs, {r['core-minutes']:.1f} core-minutes"]  # fmt: skip
        if r.get("sittings", 1) > 1:
            lines[-1] += (f" (the jobs ran in {int(r['sittings'])} sittings, over {SITTING_GAP_S // 60} min apart: "
                          f"{r['busy minutes']:.1f} min with a job running)")  # fmt: skip
    lines += ["", "Per paper, from the resources line each job logs when it ends (`results/logs`):", ""]
    lines += ["| paper | jobs | core-minutes | wall minutes |", "|---|---|---|---|"]
    for _, r in costs[costs["paper"] != "all jobs"].iterrows():
        lines.append(f"| {r['paper']} | {int(r['jobs'])} | {r['core-minutes']:.1f} | {r['wall minutes']:.1f} |")
    for paper, hours in not_run.items():
        lines.append(f"| {paper} | not run | about {hours:.1f} core-hours (paper profile, {HOURS_FROM}) | |")
    # extra lines are a paragraph of their own: Markdown would join a line to the table right above it
    return "\n".join([*lines, *([""] if extra else []), *extra]) + "\n"


def publish(profile: str, out: Path, overrides: list[str] = (), dirty_ok: bool = False, readme: bool = True) -> Path:
    """Publish the finished run of ``profile`` to ``out``; see the module docstring. Raises :class:`Refused`."""
    overrides = list(overrides)
    cfg, args = load_config(profile, overrides), profile_args(profile, overrides)
    results_dir, figures_dir = Path(cfg["results_dir"]), Path(cfg["figures_dir"])
    changed = provenance.changed_files(".", ignore=(str(PUBLISHED), "README.md"))
    if changed and not dirty_ok:
        raise Refused(f"uncommitted changes ({', '.join(changed[:3])}{', ...' if len(changed) > 3 else ''}): "
                      "commit them first, RUN.md names the commit")  # fmt: skip
    enabled = [p for p in cfg["papers"]]
    ran = [p for p in enabled if (results_dir / "claims" / f"{p}.csv").is_file()]
    if not ran:
        raise Refused(f"no claims under {results_dir}/claims: run the {profile} profile first")
    partial = [p for p in enabled if p not in ran]
    if partial and profile == "default":
        raise Refused(f"incomplete {profile} run: no claims for {', '.join(partial)} (run `all` to the end)")
    targets = ["all"] if not partial else ran
    left = jobs_left(targets, args)
    if left:
        raise Refused(f"incomplete run or made by other code: snakemake -n {' '.join(targets)}: {left}")
    declared = declared_claims(results_dir, args)
    summary = read_claims([results_dir / "claims" / f"{p}.csv" for p in ran])
    hours = core_hours_per_paper().to_dict() if partial else {}
    not_run = {p: float(hours.get(p, float("nan"))) for p in partial}
    rows = declared[declared["paper"].isin(partial)].copy()
    for p in partial:
        rows.loc[rows["paper"] == p, "details"] = (
            f"not run in this publication: its paper-profile jobs take about {not_run[p]:.1f} core-hours"
        )
    summary = pd.concat([summary, rows[summary.columns]], ignore_index=True) if len(rows) else summary
    summary = summary.assign(_o=summary["paper"].map({p: i for i, p in enumerate(enabled)}))
    summary = summary.sort_values("_o", kind="stable").drop(columns="_o").reset_index(drop=True)
    if not partial:  # the run's own summary, made by the same functions, must agree
        own = pd.read_csv(results_dir / "replication_summary.csv", dtype=str, keep_default_na=False)
        if not own.equals(summary):
            raise Refused(f"{results_dir}/replication_summary.csv differs from its claims files: rerun `all`")
    staging = Path(tempfile.mkdtemp(prefix=".publish-", dir=out.parent if out.parent.exists() else None))
    try:
        figures = {}
        for p in ran:
            for src in sorted((figures_dir / p).rglob("*.png")):
                rel = Path("figures") / src.relative_to(figures_dir)
                shrink(src, staging / rel)
                figures.setdefault(p, []).append(str(rel))
        for src in sorted((figures_dir / "report").glob("*.png")):
            shrink(src, staging / "figures" / "report" / src.name)
        titles = {p: PAPER_TITLES[p] for p in enabled}
        notes = {p: f"not run in this publication (about {h:.1f} core-hours in the paper profile)"
                 for p, h in not_run.items()}  # fmt: skip
        write_summary(staging / "replication_summary.csv", staging / "REPLICATION.md", summary, figures, profile,
                      titles, notes=notes)  # fmt: skip
        commit = provenance.commit(".") or "unknown"
        costs = cost_table(results_dir / "logs", ran)
        extra = evidence.run_md_lines(cfg, "models/") if evidence.is_evidence(profile) else []
        (staging / "RUN.md").write_text(
            run_md(profile, commit, bool(changed), config_digest(cfg), costs, not_run, extra)
        )
        for keep in KEPT:  # what the run itself read from the publication: the published models it adopted
            if (out / keep).is_dir():
                shutil.move(out / keep, staging / keep)
        if out.exists():
            shutil.rmtree(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        staging.rename(out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    if readme:
        published.rewrite_readme(Path("README.md"), published.root_of(out, profile))
        quoted.rewrite()  # the measured figures the pages quote, from the records this publication may have changed
    return out


def main(argv: list[str]) -> int:
    """``python -m bmrep.ops.publish PROFILE [--out DIR] [--config key=value ...] [--dirty]``."""
    ap = argparse.ArgumentParser(prog="python -m bmrep.ops.publish", description=__doc__.split("\n\n")[0])
    ap.add_argument("profile", help="default, paper or evidence/<name> (smoke only with --out)")
    ap.add_argument("--out", type=Path, help="where to write (default docs/results/<profile>)")
    ap.add_argument("--config", nargs="*", default=[], help="plain key=value overrides, as given to the run")
    ap.add_argument("--dirty", action="store_true", help="allow uncommitted changes (RUN.md says so)")
    a = ap.parse_args(argv)
    if a.out is None and a.profile not in ("default", "paper") and not evidence.is_evidence(a.profile):
        print(f"make publish: only the default and paper profiles and evidence runs go to {PUBLISHED} "
              f"(got {a.profile!r})")  # fmt: skip
        return 2
    out = a.out or PUBLISHED / a.profile
    try:
        publish(a.profile, out, a.config, a.dirty, readme=a.out is None)
    except Refused as why:
        print(f"make publish: refused: {why}")
        return 1
    print(f"published {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
