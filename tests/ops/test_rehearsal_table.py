"""The rehearsal's table (issue 52): job records joined, predictions from two cuts, requests checked.

Unit tests on synthetic job records (bmrep.ops.rehearsal, bmrep.ops.job_memory), and the checks of
the committed configs: the second cut changes the work of every rule it reruns, and no rule asks for more
memory than a node has.
"""

from __future__ import annotations

import os

import pandas as pd
import pytest
import yaml

from bmrep.ops import costs, job_memory, rehearsal, rehearsal_report, work_keys
from bmrep.ops.records import COST_SCALING, MEMORY_SCALING
from bmrep.pipeline import runtime
from bmrep.pipeline.records import COSTS
from conftest import ROOT


def _job(logs, key, rule, cpu, rss, slurm=None, bench_rss=None):
    log = logs / f"{key}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    lines = [f"2026-01-01 00:00:00,000 bmrep.{rule} INFO rule {rule}, threads 1, outputs ['x/{key}.npz']"]
    if slurm is not None:
        lines.append(f"2026-01-01 00:00:00,100 bmrep.{rule} INFO " + runtime.SLURM_LINE.format(job=slurm))
    lines.append(
        f"2026-01-01 00:00:09,000 bmrep.{rule} INFO " + runtime.RESOURCES_LINE.format(cpu=cpu, wall=cpu, rss=rss)
    )
    log.write_text("\n".join(lines) + "\n")
    if bench_rss is not None:
        bench = logs / "benchmarks" / f"{key}.tsv"
        bench.parent.mkdir(parents=True, exist_ok=True)
        bench.write_text(
            "s\th:m:s\tmax_rss\tmax_vms\tmax_uss\tmax_pss\tio_in\tio_out\tmean_load\tcpu_time\n"
            f"{cpu}\t0:00:09\t{bench_rss}\t1\t1\t1\t0\t0\t50\t{cpu}\n"
        )


def test_a_jobs_peak_is_its_slurm_jobs_the_script_plus_its_snakemake_processes(tmp_path):
    logs = tmp_path / "logs"
    _job(logs, "a/train_0", "r_train", 10.0, 300.0, slurm=7, bench_rss=250.0)  # exact peak above the polled one
    _job(logs, "a/train_1", "r_train", 10.0, 300.0, slurm=8, bench_rss=500.0)  # a peak only the poll saw
    _job(logs, "fig", "r_fig", 1.0, 100.0)  # a local job: no SLURM record, no benchmark
    _job(logs, "b/tbl", "r_tbl", 1.0, 100.0, slurm=9)
    pd.DataFrame({"slurm_job": ["7", "8", "9"], "peak_mb": [600.0, 650.0, 900.0], "snakemake_mb": [400.0] * 3}).to_csv(
        tmp_path / rehearsal.JOB_MEMORY, index=False
    )
    jobs = rehearsal.job_records(tmp_path).set_index("key")
    assert jobs.loc["a/train_0", "script_peak_mb"] == 300.0 and jobs.loc["a/train_0", "peak_mb"] == 700.0
    assert jobs.loc["a/train_1", "script_peak_mb"] == 500.0 and jobs.loc["a/train_1", "peak_mb"] == 900.0
    assert jobs.loc["b/tbl", "peak_mb"] == 900.0  # the node's poll saw more than script + Snakemake
    assert jobs.loc["fig", "peak_mb"] == 100.0 and pd.isna(jobs.loc["fig", "snakemake_mb"])


def test_jobs_of_one_group_keep_their_own_peaks_not_the_groups(tmp_path):
    """A group job runs its jobs one after another under one SLURM job: the node's peak is the largest job's.
    Each job keeps its script's peak plus the Snakemake processes (a 160 MB AIS shard is not charged the
    1300 MB of the tempered shard beside it, which extrapolated along a cut count would be nonsense)."""
    logs = tmp_path / "logs"
    _job(logs, "c/shard_AIS_0", "r_shard", 5.0, 160.0, slurm=11)
    _job(logs, "c/shard_tempered_0", "r_shard", 50.0, 960.0, slurm=11)
    _job(logs, "c/shard_alone_0", "r_shard", 5.0, 160.0, slurm=12)
    pd.DataFrame({"slurm_job": ["11", "12"], "peak_mb": [1300.0, 700.0], "snakemake_mb": [330.0] * 2}).to_csv(
        tmp_path / rehearsal.JOB_MEMORY, index=False
    )
    jobs = rehearsal.job_records(tmp_path).set_index("key")
    assert jobs.loc["c/shard_AIS_0", "peak_mb"] == 160.0 + 330.0
    assert jobs.loc["c/shard_tempered_0", "peak_mb"] == 960.0 + 330.0
    assert jobs.loc["c/shard_alone_0", "peak_mb"] == 700.0  # its own SLURM job: the node's poll counts


def test_the_line_through_two_cuts_leaves_out_the_fixed_cost():
    # a job costs 3 s whatever its size plus 1000 s at the paper's work; cuts at 1% and 4% of that work
    fixed, work = 3.0, 1000.0
    c1, c2 = fixed + 0.01 * work, fixed + 0.04 * work
    assert rehearsal.at_paper(c1, 0.01, c2, 0.04) == pytest.approx(fixed + work)
    assert c1 / 0.01 == pytest.approx(1300.0)  # one cut scaled: the fixed cost multiplied 100x
    assert rehearsal.at_paper(5.0, 0.01, 4.9, 0.04) == 5.0  # no growth measured (noise): the larger measurement
    assert rehearsal.at_paper(5.0, 0.5, 7.0, 0.5) == 7.0  # not cut differently: the larger
    assert rehearsal.fixed_part(c1, 0.01, c2, 0.04) == pytest.approx(fixed)
    assert rehearsal.fixed_part(5.0, 0.01, 4.9, 0.04) == 5.0 and rehearsal.fixed_part(1.0, 0.5, 9.0, 1.0) == 0.0


def _configs():
    c1 = {"p": {"train": {"n_updates": 100, "snapshot_every": 50}}}
    c2 = {"p": {"train": {"n_updates": 400, "snapshot_every": 50}}}
    paper = {"p": {"train": {"n_updates": 200000, "snapshot_every": 4000}}}
    return c1, c2, paper


def _records(rows):
    return pd.DataFrame(rows, columns=["rule", "key", "cpu_s", "peak_mb", "outputs"])


def test_each_job_is_predicted_from_its_own_pair_and_a_job_of_one_cut_is_scaled():
    scaling = {"r_train": ["p.train.n_updates"]}
    memory = {"r_train": ["p.train.n_updates", "1/p.train.snapshot_every"]}  # snapshots: 2, 8; paper 50
    cut1 = _records(
        [
            ["r_train", "t0", 2.0 + 100 * 0.02, 200.0 + 2 * 4.0, ("m/t0.npz",)],
            ["r_train", "t1", 5.0, 300.0, ("m/t1.npz",)],  # not run at the second cut
            ["r_fig", "f", 1.5, 150.0, ("f.png",)],
            ["r_other", "o", 4.0, 100.0, ("o.npz",)],  # a rule none of whose jobs ran at the second cut
        ]
    )
    scaling["r_other"] = ["p.train.n_updates"]
    cut2 = _records([["r_train", "t0", 2.0 + 400 * 0.02, 200.0 + 8 * 4.0, ("m/t0.npz",)]])
    jobs = rehearsal.predict_jobs(cut1, cut2, scaling, memory, _configs()).set_index("key")
    assert jobs.loc["t0", "cpu_paper_s"] == pytest.approx(2.0 + 200000 * 0.02)
    assert jobs.loc["t0", "peak_paper_mb"] == pytest.approx(200.0 + 50 * 4.0)
    assert jobs.loc["t0", "cuts"] == 2 and jobs.loc["t1", "cuts"] == 1
    assert jobs.loc["t0", "cpu_growth"] == pytest.approx(10.0 / 4.0) and pd.isna(jobs.loc["t1", "cpu_growth"])
    # one cut: its rule's fixed part (2 s, 200 MB from t0's two cuts) plus the rest scaled
    assert jobs.loc["t1", "cpu_paper_s"] == pytest.approx(2.0 + 3.0 * 2000)
    assert jobs.loc["t1", "peak_paper_mb"] == pytest.approx(200.0 + 100.0 * 25)
    assert jobs.loc["o", "cpu_paper_s"] == pytest.approx(4.0 * 2000)  # no fixed part known: scaled as costs.py does
    assert jobs.loc["f", "cpu_paper_s"] == 1.5 and jobs.loc["f", "peak_paper_mb"] == 150.0  # same work, same shapes


def test_a_job_of_one_cut_takes_the_slope_of_its_kind_and_the_second_cut_runs_one_of_each_kind(tmp_path):
    # three learning shards of one kind (one benchmark and algorithm, three learning rates) and one of another:
    # 1 s of start-up each, 0.02 s an update; a job's own first cut plus its kind's slope, never its start-up x2000
    kinds = {"r_learn": r"learn/(\w+?)_(cd|pt)_"}
    assert rehearsal.job_kind("r_learn", "learn/bas_pt_G_lr0.1_0", kinds) == "bas/pt"
    assert rehearsal.job_kind("r_other", "x/y_0", kinds) == "x/y_0"  # a rule without kinds: every job its own
    scaling = {"r_learn": ["p.train.n_updates"]}
    cut1 = _records(
        [
            ["r_learn", "learn/bas_pt_G_lr0.1_0", 1.0 + 100 * 0.02, 100.0, ("a.npz",)],
            ["r_learn", "learn/bas_pt_G_lr0.5_0", 1.3 + 100 * 0.02, 100.0, ("b.npz",)],
            ["r_learn", "learn/bas_cd_G_lr0.1_0", 1.0 + 100 * 0.01, 100.0, ("c.npz",)],
        ]
    )
    cut2 = _records([["r_learn", "learn/bas_pt_G_lr0.1_0", 1.0 + 400 * 0.02, 100.0, ("a.npz",)]])
    jobs = rehearsal.predict_jobs(cut1, cut2, scaling, {}, _configs(), kinds).set_index("key")
    assert jobs.loc["learn/bas_pt_G_lr0.1_0", "cpu_paper_s"] == pytest.approx(1.0 + 200000 * 0.02)
    # its sibling: its own 3.3 s at 100 updates plus the kind's 4000 s per paper job for the 199900 updates left
    assert jobs.loc["learn/bas_pt_G_lr0.5_0", "cpu_paper_s"] == pytest.approx(3.3 + 4000 * (1 - 100 / 200000))
    # the other kind has no pair: the rule's fixed part (1 s, from the pair) plus the rest scaled 2000x
    assert jobs.loc["learn/bas_cd_G_lr0.1_0", "cpu_paper_s"] == pytest.approx(1.0 + 1.0 * 2000)
    # the second cut: the costliest job of each kind, moved to the second cut's results directory
    logs = tmp_path / "r1" / "logs"
    cut1 = cut1.assign(log=[str(logs / f"{k}.log") for k in cut1["key"]])
    cut1["outputs"] = [(str(tmp_path / "r1" / n),) for n in "abc"]
    configs = ({"results_dir": str(tmp_path / "r1"), "figures_dir": "f1"}, {"results_dir": "r2", "figures_dir": "f2"})
    targets = rehearsal.second_cut_targets(cut1, ["r_learn"], configs, kinds)
    assert sorted(targets) == ["r2/b", "r2/c"]  # lr0.5 costs more than lr0.1 in its kind; the cd shard alone in its


def test_the_table_flags_a_peak_above_its_request_a_request_above_a_node_and_disagreeing_costs(monkeypatch):
    monkeypatch.setattr(rehearsal_report, "requests", lambda: ({"*": 1000, "big": 30000}, {"*": 10}))
    jobs = pd.DataFrame(
        {
            "rule": ["ok", "ok", "over", "big"],
            "peak_mb": [400.0, 500.0, 900.0, 100.0],
            "peak_paper_mb": [400.0, 500.0, 1400.0, 100.0],
            "cpu_paper_s": [3600.0, 7200.0, 36.0, 36.0],
            "cuts": [2, 2, 2, 1],
            "cpu_growth": [4.0, 3.0, 1.2, float("nan")],
        }
    )
    default = pd.DataFrame({"rule": ["ok", "over", "big"], "paper_core_hours": [3.0, 0.01, 0.01]})
    table = rehearsal_report.rehearsal_table(jobs, {"ok": 4, "over": 1, "big": 1, "never": 2}, default, 24576)
    t = table.set_index("rule")
    assert t.loc["ok", "core_hours_from_rehearsal"] == pytest.approx(4 * 5400 / 3600) and t.loc["ok", "ratio"] == 2.0
    assert not t.loc["ok", "peak_over_request"] and t.loc["over", "peak_over_request"]
    assert t.loc["big", "request_over_node"] and not t.loc["ok", "request_over_node"]
    assert t.loc["never", "rehearsal_jobs"] == 0
    assert rehearsal_report.disagreements(table).empty  # 2.0x is within 2x
    # growth: the median of the rule's jobs (3.5); "over" grew 1.2x but is far below 1 core-hour
    assert t.loc["ok", "growth"] == 3.5 and pd.isna(t.loc["big", "growth"])
    assert rehearsal_report.weak_lines(table).empty
    table.loc[table["rule"] == "ok", ["ratio", "growth"]] = [2.5, 2.0]
    assert rehearsal_report.disagreements(table)["rule"].tolist() == ["ok"]
    assert rehearsal_report.weak_lines(table)["rule"].tolist() == ["ok"]
    text = rehearsal_report.markdown(table, 1500.0, 24576)
    assert "| `over` |" in text and "25.0 min" in text and "Peaks above their request: over." in text
    assert "whose CPU grew less than 3x at the second cut: ok." in text


def test_the_node_sampler_sums_each_slurm_jobs_processes(tmp_path):
    """The sampler, on this test's own process given a SLURM job id: its RSS is counted under that id."""
    import subprocess
    import sys

    env = {**os.environ, "SLURM_JOB_ID": "424242"}
    child = subprocess.Popen([sys.executable, "-c", "import time; x = bytearray(200 * 2**20); time.sleep(30)"], env=env)
    try:
        peaks, seen = {}, {}
        for _ in range(50):  # until the child has touched its 200 MB
            job_memory.poll(peaks, seen)
            if peaks.get("424242", (0, 0))[0] > 200:
                break
            import time

            time.sleep(0.1)
        assert 200 < peaks["424242"][0] < 300 and peaks["424242"][1] == 0.0  # not a Snakemake process
    finally:
        child.kill()
    job_memory.write(peaks, tmp_path / "m.csv")
    written = pd.read_csv(tmp_path / "m.csv", dtype={"slurm_job": str}).set_index("slurm_job")
    assert written.loc["424242", "peak_mb"] > 200
    assert job_memory.is_snakemake(["/x/.venv/bin/python", "-m", "snakemake", "--target-jobs", "a"])
    assert not job_memory.is_snakemake(["/x/.venv/bin/python", "/w/.snakemake/scripts/tmpab.train.py"])


def test_the_second_cut_reruns_the_costly_and_growing_rules_at_other_work():
    configs = tuple(rehearsal.cut_config(n, ROOT) for n in (1, 2))
    memory = yaml.safe_load(MEMORY_SCALING.read_text())
    scaling = yaml.safe_load(COST_SCALING.read_text())
    default_costs = pd.read_csv(COSTS)
    second = rehearsal.second_cut_rules(default_costs, memory, scaling, (*configs, costs.paper_config(ROOT)))
    assert set(default_costs.loc[default_costs["paper_core_hours"] > 1, "rule"]) <= set(second)
    assert "calibration_model" in second  # 0.05 paper core-hours, but its first cut does 1/1500 of the training
    for rule in second:
        spec = scaling.get(rule, [])
        key_lists = [*spec.values()] if isinstance(spec, dict) else [spec]
        grows = [work_keys.scale_factor(keys, *configs) for keys in key_lists if keys]
        grows += [work_keys.scale_factor(memory[rule], *configs)] if rule in memory else []
        assert grows and min(grows) >= 2, (rule, grows)  # at least twice the work or count at the second cut


def test_no_rule_asks_for_more_memory_than_a_node_has():
    node = yaml.safe_load((ROOT / "profiles/slurm/partition.yaml").read_text())["node_mem_mb"]
    profile = yaml.safe_load((ROOT / "profiles/slurm/config.yaml").read_text())
    asked = {r: v["mem_mb"] for r, v in profile["set-resources"].items() if "mem_mb" in v}
    asked["*"] = profile["default-resources"]["mem_mb"]
    # a rule asked per wildcard (no mem_mb in the profile) asks at most costs.csv's request, its largest wildcard's
    costs = pd.read_csv(COSTS).set_index("rule")["mem_mb"]
    assert set(profile["set-resources"]) - set(asked) == set(rehearsal_report.MEM_BY_WILDCARD)
    asked |= {r: int(costs[r]) for r in rehearsal_report.MEM_BY_WILDCARD}
    assert max(asked.values()) <= node, {r: m for r, m in asked.items() if m > node}


def test_the_published_core_hours_take_the_rehearsals_prediction_where_it_made_one(tmp_path):
    from bmrep.ops.publish import core_hours_per_paper

    pd.DataFrame({"rule": ["saul1996_train", "carlson2016_fig5", "carlson2016_fig4"],
                  "paper_core_hours": [1.0, 2.0, 3.0]}).to_csv(tmp_path / "costs.csv", index=False)  # fmt: skip
    pd.DataFrame({"rule": ["carlson2016_fig5", "carlson2016_fig4"], "core_hours_from_rehearsal": [20.0, None]}).to_csv(
        tmp_path / "rehearsal.csv", index=False
    )
    hours = core_hours_per_paper(tmp_path / "costs.csv", tmp_path / "rehearsal.csv")
    assert hours.to_dict() == {"carlson2016": 23.0, "saul1996": 1.0}  # fig4 not measured there: the default's
    assert core_hours_per_paper(tmp_path / "costs.csv", tmp_path / "none.csv").to_dict() == {
        "carlson2016": 5.0, "saul1996": 1.0,
    }  # fmt: skip


def test_the_rehearsals_peaks_and_longest_jobs_raise_the_requests_that_were_short(tmp_path, monkeypatch, capsys):
    """salakhutdinov2010_ladder_check: 30.9 min at the paper's shapes, 30 asked from the default's scaled job."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(rehearsal, "COSTS", tmp_path / "costs.csv")  # not the committed table (package data)
    written = []
    monkeypatch.setattr(rehearsal, "write_slurm_profile", lambda table, paper: written.append(table))
    default = pd.DataFrame(
        {
            "rule": ["ladder", "quick", "unmeasured"],
            "measured_rss_mb": [500.0, 500.0, float("nan")],
            "mem_mb": [1200, 1200, 1000],
            "runtime_min": [30, 30, 10],
        }
    )
    table = pd.DataFrame(
        {
            "rule": ["ladder", "quick", "never"],
            "peak_at_paper_mb": [900.0, 2000.0, float("nan")],
            "longest_job_at_paper_min": [30.9, 3.0, float("nan")],
        }
    )
    # memory: 1.5 x 500 + 450 = 1200 and 1.25 x 900 below it; 1.25 x 2000 = 2500 above. Runtime: 2 x 30.9 -> 62
    asked = rehearsal.raise_requests(table, default, paper={})
    assert asked[:2] == [1200, 2500] and pd.isna(asked[2])  # "never" has no row in the cost table
    after = pd.read_csv(tmp_path / "costs.csv").set_index("rule")
    assert after.loc["ladder", ["mem_mb", "runtime_min"]].tolist() == [1200, 62]
    assert after.loc["quick", ["mem_mb", "runtime_min"]].tolist() == [2500, 30]
    assert after.loc["unmeasured", ["mem_mb", "runtime_min"]].tolist() == [1000, 10]
    assert len(written) == 1
    out = capsys.readouterr().out
    assert "runtime_min of ladder: 30 -> 62 min" in out and "mem_mb of quick: 1200 -> 2500 MB" in out


def test_a_rule_asked_per_wildcard_is_judged_against_its_largest_request(monkeypatch):
    """Fig. 4's shards have no mem_mb in profiles/slurm (asked by K): costs.csv's request, the largest K's, counts."""
    rule = rehearsal_report.MEM_BY_WILDCARD[0]
    monkeypatch.setattr(rehearsal_report, "requests", lambda: ({"*": 4000}, {"*": 10}))
    jobs = pd.DataFrame({"rule": [rule], "peak_mb": [670.0], "peak_paper_mb": [10470.0], "cpu_paper_s": [600.0],
                         "cuts": [2], "cpu_growth": [2.1]})  # fmt: skip
    default = pd.DataFrame({"rule": [rule], "paper_core_hours": [2.0], "mem_mb": [13100.0]})
    t = rehearsal_report.rehearsal_table(jobs, {rule: 25}, default, 24576).set_index("rule")
    assert t.loc[rule, "mem_requested_mb"] == 13100 and not t.loc[rule, "peak_over_request"]
