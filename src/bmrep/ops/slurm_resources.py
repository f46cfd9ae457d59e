"""The SLURM profile's per-rule resources, from the cost table of :mod:`bmrep.ops.costs`.

Its block (``set-resources``) holds each rule's runtime request (:func:`runtime_request`) and memory
request (:func:`bmrep.pipeline.memory.memory_request`, the rule a local run's requests follow too).

No submission asks for more than the partition allows: the profile's
``partition.yaml`` sets ``runtime_cap_min`` (24 h). A rule estimated longer
asks for the cap and is listed in ``preemptible-rules``, Snakemake's per-rule
retries (``preemptible-retries`` of them): SLURM kills it at the time limit,
Snakemake submits it again, and it resumes from its last checkpoint
(``checkpoint_every.<rule>``), so it finishes over several submissions. A rule
estimated longer that does not checkpoint gets the cap and a warning (retrying
it would start it over). ``python -m bmrep.ops.costs --slurm-profile`` rewrites the
profile from the cost table (:data:`bmrep.pipeline.records.COSTS`) after the cap is changed, no run needed.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pandas as pd
import yaml

from ..pipeline.memory import PER_WILDCARD, REHEARSAL_TABLE, SLURM_PROFILE

RUNTIME_FACTOR, RUNTIME_FLOOR_MIN = 2.0, 10  # SLURM kills a job at its runtime: ask twice the estimate
BEGIN, END = "# >>> set-resources from src/bmrep/pipeline/records/costs.csv (make costs) >>>", "# <<< set-resources <<<"
PARTITION = Path("profiles/slurm/partition.yaml")
# Rules whose memory differs by wildcard (carlson2016 Fig. 4's shards by K: MBAR's matrix is K x samples). The
# profile's block gives them no mem_mb, since a set-resources value would win over the Snakefile's request per
# wildcard (bmrep.pipeline.memory.PER_WILDCARD) and ask every job for the largest one's.
MEM_BY_WILDCARD = tuple(PER_WILDCARD)


def submissions(runtime_min: float, cap_min: int) -> int:
    """SLURM submissions a job of ``runtime_min`` minutes needs under a limit of ``cap_min`` per submission."""
    return max(1, math.ceil(runtime_min / cap_min))


def runtime_request(per_job_s: float, paper_longest_min: float = math.nan) -> int:
    """The minutes a rule's jobs ask for: twice the longer of its two estimates of its slowest job, at least 10.

    The default run's slowest job scaled to the paper profile (``per_job_s``,
    :func:`bmrep.ops.costs.extrapolate`), and the longest job that ``make
    paper-rehearsal`` extrapolated from two cuts at the paper's shapes
    (``docs/paper-rehearsal.csv``, NaN where not measured): the rehearsal's
    salakhutdinov2010_ladder_check took 30.9 min where the default's scaled
    job asked 30.
    """
    longest_min = per_job_s / 60 if math.isnan(paper_longest_min) else max(per_job_s / 60, paper_longest_min)
    return max(RUNTIME_FLOOR_MIN, math.ceil(RUNTIME_FACTOR * longest_min))


def rehearsal_measured(column: str, path: Path = REHEARSAL_TABLE) -> dict[str, float]:
    """Each rule's ``column`` of the committed rehearsal table (empty without one).

    ``peak_at_paper_mb``: its SLURM jobs' peak at the paper's shapes; ``longest_job_at_paper_min``: its longest job.
    """
    if not path.exists():
        return {}
    table = pd.read_csv(path).dropna(subset=[column])
    return dict(zip(table["rule"], table[column].astype(float), strict=True))


def slurm_block(table: pd.DataFrame, cap_min: int | None = None, checkpointed: set[str] = frozenset()) -> str:
    """The SLURM profile's block, between its markers: ``set-resources``, and retries for rules above the cap.

    Each rule asks its ``runtime_min``, at most ``cap_min`` (None: no cap). A
    rule in ``checkpointed`` whose estimate is above the cap is listed in
    ``preemptible-rules`` (Snakemake retries those rules, and only those,
    ``preemptible-retries`` times): enough retries for its estimate at the cap,
    plus one for the work each submission loses after its last checkpoint.
    A rule of :data:`MEM_BY_WILDCARD` gets its runtime only (its memory is
    declared per wildcard by the Snakefile).
    """
    res, resumed = {}, {}
    for r in table.itertuples():
        if pd.isna(getattr(r, "runtime_min", float("nan"))):
            continue
        runtime = int(r.runtime_min)
        if cap_min is not None and runtime > cap_min:
            if r.rule in checkpointed:
                resumed[r.rule] = submissions(runtime, cap_min)
            runtime = cap_min
        res[r.rule] = (
            {"runtime": runtime} if r.rule in MEM_BY_WILDCARD else {"runtime": runtime, "mem_mb": int(r.mem_mb)}
        )
    body = yaml.safe_dump({"set-resources": res}, sort_keys=True, default_flow_style=None)
    if any(r in res for r in MEM_BY_WILDCARD):
        body += f"# no mem_mb for {', '.join(MEM_BY_WILDCARD)}: asked per wildcard (bmrep.pipeline.memory)\n"
    if resumed:  # never an empty list: Snakemake reads `preemptible-rules: []` as every rule
        body += (
            f"# estimated above the {cap_min}-minute cap: several submissions, each resuming from the checkpoint\n"
            + yaml.safe_dump(
                {"preemptible-rules": sorted(resumed), "preemptible-retries": max(resumed.values())},
                sort_keys=False,
                default_flow_style=None,
            )
        )
    return f"{BEGIN}\n{body}{END}\n"


def over_cap_without_checkpoint(table: pd.DataFrame, cap_min: int, checkpointed: set[str]) -> list[str]:
    """Rules estimated above the cap that cannot resume: a retry would start them over."""
    over = table[table["runtime_min"].fillna(0) > cap_min]
    return [r for r in over["rule"] if r not in checkpointed]


def runtime_cap(path: Path = PARTITION) -> int:
    """The largest runtime per SLURM submission, in minutes (``runtime_cap_min`` of ``partition.yaml``)."""
    cap = (yaml.safe_load(path.read_text()) or {}).get("runtime_cap_min")
    if not isinstance(cap, int) or isinstance(cap, bool) or cap < 1:
        raise ValueError(f"{path}: runtime_cap_min must be a whole number of minutes >= 1, got {cap!r}")
    return cap


def checkpointed_rules(config: dict) -> set[str]:
    """The rules that save checkpoints in ``config`` (``checkpoint_every.<rule>`` above 0)."""
    return {rule for rule, every in (config.get("checkpoint_every") or {}).items() if every}


def write_slurm_profile(table: pd.DataFrame, config: dict, profile: Path = SLURM_PROFILE) -> list[str]:
    """Rewrite the profile's block from ``table``; the rules above the cap that cannot resume (warned about)."""
    cap, resumable = runtime_cap(profile.with_name(PARTITION.name)), checkpointed_rules(config)
    profile.write_text(replace_block(profile.read_text(), slurm_block(table, cap, resumable)))
    stuck = over_cap_without_checkpoint(table, cap, resumable)
    for rule in stuck:
        print(
            f"warning: {rule} is estimated above the {cap}-minute cap and saves no checkpoint: it asks for the cap "
            "and would be killed there; give it a smaller shard_size or a partition with a longer limit",
            file=sys.stderr,
        )
    return stuck


def replace_block(profile_text: str, block: str) -> str:
    """``profile_text`` with its marked block replaced by ``block`` (appended if there is none)."""
    if BEGIN in profile_text and END in profile_text:
        head, rest = profile_text.split(BEGIN, 1)
        tail = rest.split(END, 1)[1].lstrip("\n")
        return head + block + tail
    return profile_text.rstrip("\n") + "\n" + block
