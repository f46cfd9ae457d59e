"""Each rule's memory request (``mem_mb``), in every profile, and a local run's memory budget.

Snakemake starts a job when its cores are free; without a ``mem_mb`` per rule
and a ``--resources mem_mb=`` budget it knows nothing of memory, so ``make run
PROFILE=paper CORES=32`` would start about 32 calibration shards of about 3 GB
at once beside carlson2016's Fig. 4 shards of about 10 GB (issue 65). Here:

- :func:`declare` gives every rule of the workflow a ``mem_mb`` (the
  Snakefile calls it after the rules are defined, so no rule file repeats a
  number): the paper profile's request of the cost table (:data:`.records.COSTS`, what the SLURM
  profile asks: :func:`memory_request`, which ``make costs`` writes into the
  SLURM profile too), and
  for the default and smoke profiles the request from the default run's
  measured peak alone (their jobs are the default's or smaller). A rule whose
  memory differs by wildcard is declared per wildcard (:data:`PER_WILDCARD`),
  under the SLURM profile too (its block, written by
  :mod:`bmrep.ops.slurm_resources`, gives such a rule no ``mem_mb``). Any other ``mem_mb``
  given to Snakemake (``--set-resources``, a profile) wins.
- :func:`budget_mb` is the budget ``bmrep-run`` passes to a local run
  (``--resources mem_mb=``) unless the user gives one: the machine's available
  memory less a margin for the Snakemake process itself.

The requests are upper estimates from records (the default run's peaks, the
rehearsal's peaks at the paper's shapes), not guarantees; ``make cluster-test``
shows what happens to a job above its request under SLURM (docs/cluster.md).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import yaml

from .records import COSTS

REHEARSAL_TABLE = Path("docs/paper-rehearsal.csv")
SLURM_PROFILE = Path("profiles/slurm/config.yaml")
# What a SLURM job of profiles/slurm holds besides its script: the batch step's Snakemake and the job step's
# (srun), each with the whole workflow parsed; the rehearsal measured 419 MB for the two together
# (docs/paper-rehearsal.md). SLURM counts them with the script against the job's memory request.
SNAKEMAKE_MB = 450
MEM_FACTOR, MEM_FLOOR_MB = 1.5, 1000  # headroom over the default run's script peak, and the least any job asks
REHEARSAL_FACTOR = 1.25  # headroom over a peak measured at the paper's shapes (make paper-rehearsal)
# A rule in neither the cost table nor profiles/slurm's set-resources (new since the last `make costs`) asks
# what that profile's default-resources ask.
UNMEASURED_MB = 4000
# The profiles whose jobs are the default run's or smaller: their requests come from its measured peaks.
SMALL_PROFILES = ("default", "smoke")
# What the Snakemake process of a local run holds itself (the workflow parsed, the DAG): left out of the budget.
CONTROLLER_MB = 1000


def memory_request(script_rss_mb: float, paper_peak_mb: float = math.nan) -> int:
    """The MB a rule's jobs ask for, in whole 100 MB.

    The larger of: 1.5x the script's peak in the run it was measured in
    (the default profile, the cost table's ``measured_rss_mb``) plus the Snakemake processes
    of its SLURM job; 1.25x the SLURM job's whole peak that ``make
    paper-rehearsal`` measured at the paper's shapes, extrapolated to its
    counts (``docs/paper-rehearsal.csv``, NaN where not measured); 1000.
    """
    asked = [MEM_FLOOR_MB, MEM_FACTOR * script_rss_mb + SNAKEMAKE_MB]
    if not math.isnan(paper_peak_mb):
        asked.append(REHEARSAL_FACTOR * paper_peak_mb)
    return math.ceil(max(asked) / 100) * 100


def requests(profile: str, costs: pd.DataFrame, slurm: dict | None = None) -> dict[str, int]:
    """Each rule's ``mem_mb`` in ``profile``: the paper's request, or the default run's for the small profiles.

    A profile not in :data:`SMALL_PROFILES` (paper, an evidence overlay that reruns a part bigger) asks
    the paper profile's request, which is at least the default's. A rule that ``costs`` has no row for
    asks what ``slurm`` (profiles/slurm's ``set-resources``) gives it, where it gives one.
    """
    out = {rule: int(res["mem_mb"]) for rule, res in (slurm or {}).items() if "mem_mb" in res}
    for r in costs.itertuples():
        if profile in SMALL_PROFILES:
            rss = r.measured_rss_mb
            out[r.rule] = MEM_FLOOR_MB if pd.isna(rss) else memory_request(float(rss))
        else:
            out[r.rule] = MEM_FLOOR_MB if pd.isna(r.mem_mb) else int(r.mem_mb)
    return out


def fig4_shard_mb(config: dict, costs: pd.DataFrame, rehearsal: pd.DataFrame) -> Callable:
    """carlson2016 Fig. 4's shard request as a function of its ``K`` wildcard (paper-sized profiles).

    Its memory is MBAR's, a K x samples matrix of reduced energies and its
    copies: linear in K at the paper's ``mbar_samples``, and none for a K above
    ``mbar_max_K`` (no MBAR there). The rehearsal measured the shard at the
    largest K that runs MBAR (its peak at its first cut, small samples: the
    part that does not grow) and extrapolated the peak to the paper's samples
    (``docs/paper-rehearsal.csv``); the line through the two in K gives each
    K's peak, asked with the rehearsal's 1.25x, at least the default run's
    request. At the largest K this is the cost table's request (the
    largest of the paper profile); the 20 shards at smaller K ask a fraction,
    under SLURM as in a local run (the SLURM profile gives this rule no ``mem_mb``).
    """
    rule = "carlson2016_fig4_shard"
    row = rehearsal.set_index("rule").loc[rule]
    base, top = float(row["peak_measured_mb"]), float(row["peak_at_paper_mb"])
    fig4 = config["carlson2016"]["fig4"]
    k_ref = max(k for k in fig4["Ks"] if k <= fig4["mbar_max_K"])
    rss = float(costs.set_index("rule").loc[rule, "measured_rss_mb"])

    def mem_mb(wildcards) -> int:
        k = int(wildcards.K)
        peak = base if k > fig4["mbar_max_K"] else base + (top - base) * k / k_ref
        return max(memory_request(rss), math.ceil(REHEARSAL_FACTOR * peak / 100) * 100)

    return mem_mb


# Rules whose request differs by wildcard: name -> the function of (config, costs, rehearsal) that makes it. The
# SLURM profile leaves their mem_mb to it (bmrep.ops.slurm_resources.MEM_BY_WILDCARD, these names).
PER_WILDCARD = {"carlson2016_fig4_shard": fig4_shard_mb}


def declare(workflow, profile: str, config: dict, root: Path = Path(".")) -> None:
    """Set ``mem_mb`` on every rule of ``workflow`` that has none from Snakemake's own settings."""
    costs = pd.read_csv(COSTS)
    slurm = yaml.safe_load((root / SLURM_PROFILE).read_text()).get("set-resources", {})
    asked = requests(profile, costs, slurm)
    rehearsal = pd.read_csv(root / REHEARSAL_TABLE) if (root / REHEARSAL_TABLE).exists() else None
    given = workflow.resource_settings.overwrite_resources
    for rule in workflow.rules:
        if "mem_mb" in given.get(rule.name, {}) or "mem" in given.get(rule.name, {}):
            continue
        value = asked.get(rule.name, UNMEASURED_MB)
        if rule.name in PER_WILDCARD and profile not in SMALL_PROFILES and rehearsal is not None:
            value = PER_WILDCARD[rule.name](config, costs, rehearsal)
        rule.resources.update({"mem_mb": value})


def available_mb(meminfo: Path = Path("/proc/meminfo")) -> int | None:
    """The machine's available memory in MB (``MemAvailable``), None where it cannot be read."""
    try:
        for line in meminfo.read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def budget_mb(available: int | None) -> int | None:
    """A local run's ``mem_mb`` budget: the available memory less the controller's share (None if unknown)."""
    if available is None:
        return None
    return max(MEM_FLOOR_MB, available - CONTROLLER_MB)
