"""Every rule declares its memory, and a local run has a budget (issue 65).

Without ``mem_mb`` per rule and ``--resources mem_mb=``, ``make run PROFILE=paper CORES=32`` would start as many
jobs as cores whatever they hold: about 32 calibration shards of about 3 GB beside carlson2016 Fig. 4's shards of
about 10 GB. The paper profile is run here through Snakemake's own scheduler (``--touch``: every job "runs" at once
without doing anything, in the order and groups Snakemake would start them) on a 32-core, 64 GB budget.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest
import yaml

from bmrep.ops import costs, slurm_resources
from bmrep.pipeline import cli, memory
from conftest import ROOT, run_snakemake

BUDGET_MB, CORES = 65536, 32
# the target rule runs nothing: Snakemake shows it no resources
NO_RUN = {"all"}
JOB = re.compile(r"^(?:local)?rule (\w+):\n(.*?)(?=\n\n|\Z)", re.M | re.S)


def _jobs(out: str) -> list[dict]:
    """The jobs Snakemake printed, in order: rule, jobid, wildcards text, mem_mb (None if it has none)."""
    jobs = []
    for m in JOB.finditer(out):
        body = m.group(2)
        jobid, mem = re.search(r"jobid: (\d+)", body), re.search(r"\bmem_mb=(\d+)", body)
        wildcards = re.search(r"wildcards: (.*)", body)
        jobs.append(
            {
                "rule": m.group(1),
                "jobid": int(jobid.group(1)),
                "wildcards": wildcards.group(1) if wildcards else "",
                "mem_mb": int(mem.group(1)) if mem else None,
                "start": m.start(),
            }
        )
    return jobs


def test_a_local_run_gets_a_budget_unless_it_names_one():
    argv = ["--cores", "32", "all", "--configfile", "config/paper.yaml"]
    with_budget, line = cli.with_memory_budget(argv, available=20000)
    assert with_budget == [*argv, "--resources", f"mem_mb={20000 - memory.CONTROLLER_MB}"] and "mem_mb=" in line
    for own in (["--resources", "mem_mb=8000"], ["--workflow-profile", "profiles/slurm"], ["--executor", "slurm"]):
        assert cli.with_memory_budget([*argv, *own], available=20000) == ([*argv, *own], None)
    assert cli.with_memory_budget(argv, available=None) == (argv, None)


def test_available_memory_is_read_from_meminfo(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20480000 kB\n")
    assert memory.available_mb(meminfo) == 20000
    assert memory.available_mb(tmp_path / "none") is None


def test_fig4_shards_ask_by_k():
    """Only the largest K that runs MBAR asks the rule's full request; the others a line in K below it."""
    paper = costs.paper_config(ROOT)
    table = pd.read_csv(memory.COSTS)
    rehearsal = pd.read_csv(ROOT / "docs/paper-rehearsal.csv")
    mem = memory.fig4_shard_mb(paper, table, rehearsal)
    ks = paper["carlson2016"]["fig4"]["Ks"]
    asked = [mem(type("W", (), {"K": str(k)})) for k in sorted(ks)]
    full = int(table.set_index("rule").loc["carlson2016_fig4_shard", "mem_mb"])
    assert asked[-1] == full
    assert asked == sorted(asked) and asked[0] < asked[-2] < full


@pytest.mark.workflow
@pytest.mark.checkout
@pytest.mark.parametrize("profile", ["smoke", "default"])
def test_every_job_of_the_small_profiles_declares_memory(profile):
    args = [] if profile == "default" else [f"--configfile=config/{profile}.yaml"]
    proc = run_snakemake("all", "-n", "--forceall", *args, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    jobs = _jobs(proc.stdout)
    assert len(jobs) > 100
    assert not [j["rule"] for j in jobs if j["mem_mb"] is None and j["rule"] not in NO_RUN]


@pytest.mark.workflow
@pytest.mark.checkout
def test_paper_profile_on_32_cores_and_64_gb_never_exceeds_the_budget(tmp_path):
    proc = run_snakemake(
        "all", "--touch", "--forceall", "--cores", str(CORES), "--resources", f"mem_mb={BUDGET_MB}",
        "--configfile", "config/paper.yaml", "--config", f"results_dir={tmp_path}/results",
        f"figures_dir={tmp_path}/figures", "--verbose",
        timeout=600,
    )  # fmt: skip
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    jobs = _jobs(out)
    paper_jobs = sum(costs.job_counts("all", "--configfile", "config/paper.yaml").values())
    assert len(jobs) == paper_jobs, (len(jobs), paper_jobs)
    assert not [j["rule"] for j in jobs if j["mem_mb"] is None and j["rule"] not in NO_RUN], "a job without mem_mb"
    jobs = [j for j in jobs if j["rule"] not in NO_RUN]
    fig4 = {j["wildcards"]: j["mem_mb"] for j in jobs if j["rule"] == "carlson2016_fig4_shard"}
    assert len(set(fig4.values())) > 1, fig4
    # replay starts and ends in the order Snakemake logged them: the memory of the jobs running at once
    events = [(j["start"], j["mem_mb"], j["jobid"]) for j in jobs]
    events += [(m.start(), None, int(m.group(1))) for m in re.finditer(r"Finished jobid: (\d+)", out)]
    running, peak = {}, 0
    for _, mem, jobid in sorted(events):
        if mem is None:
            running.pop(jobid, None)
        else:
            running[jobid] = mem
            peak = max(peak, sum(running.values()))
    assert peak <= BUDGET_MB, peak
    # the budget, not the cores, bound some round (32 jobs of the largest requests would not fit)
    assert peak > BUDGET_MB - max(j["mem_mb"] for j in jobs), peak
    assert sum(sorted((j["mem_mb"] for j in jobs), reverse=True)[:CORES]) > BUDGET_MB


def test_slurm_profile_and_local_requests_agree_for_the_paper():
    """In the paper profile a rule asks locally what profiles/slurm asks of SLURM (the cost table).

    A rule whose request differs by wildcard has no mem_mb in the profile (one there would win over the
    per-wildcard request and ask every job for the largest), and the block written from costs.csv agrees.
    """
    profile = yaml.safe_load((ROOT / "profiles/slurm/config.yaml").read_text())["set-resources"]
    table = pd.read_csv(memory.COSTS)
    local = memory.requests("paper", table, profile)
    by_wildcard = set(slurm_resources.MEM_BY_WILDCARD)
    assert by_wildcard == set(memory.PER_WILDCARD) and by_wildcard <= set(profile)
    assert not [r for r in by_wildcard if "mem_mb" in profile[r]]
    fixed = set(profile) - by_wildcard
    assert {r: profile[r]["mem_mb"] for r in fixed} == {r: local[r] for r in fixed}
    block = yaml.safe_load(slurm_resources.slurm_block(table))["set-resources"]
    assert all("mem_mb" not in block[r] and "mem_mb" in block[x] for r in by_wildcard for x in set(block) - by_wildcard)


@pytest.mark.workflow
@pytest.mark.checkout
def test_slurm_submits_fig4_shards_with_their_own_k_memory():
    """Under profiles/slurm a Fig. 4 shard at K = 10 asks less than one at K = 1000, which asks costs.csv's mem_mb."""
    proc = run_snakemake(
        "carlson2016_fig4", "-n", "--forceall", "--workflow-profile", "profiles/slurm",
        "--configfile", "config/paper.yaml", timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    # the SLURM executor prints a time stamp, not a blank line, between jobs: each shard's wildcards, then resources
    shard = re.compile(
        r"^rule carlson2016_fig4_shard:\n.*?wildcards: K=(\d+), shard=\d+\n.*?\bmem_mb=(\d+)", re.M | re.S
    )
    by_k: dict[int, set[int]] = {}
    for k, mem in shard.findall(proc.stdout + proc.stderr):
        by_k.setdefault(int(k), set()).add(int(mem))
    assert sorted(by_k) == [10, 30, 100, 300, 1000] and all(len(v) == 1 for v in by_k.values()), by_k
    full = int(pd.read_csv(memory.COSTS).set_index("rule").loc["carlson2016_fig4_shard", "mem_mb"])
    asked = [by_k[k].pop() for k in sorted(by_k)]
    assert asked == sorted(asked) and asked[0] < asked[-1] == full, asked
