"""The per-rule cost table: measured from job logs, extrapolated by config ratios, given to SLURM as resources."""

from __future__ import annotations

import logging

import pandas as pd
import pytest
import yaml

from bmrep.ops import costs, slurm_resources, work_keys
from bmrep.ops.records import COST_SCALING
from bmrep.pipeline import memory, runtime
from bmrep.pipeline.records import COSTS
from conftest import ROOT


def _job_log(path, rule, cpu, wall, rss):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f"2026-01-01 00:00:00,000 bmrep.{rule} INFO rule {rule}, threads 1, outputs ['x']\n"
        f"2026-01-01 00:00:01,000 bmrep.{rule} INFO "
        + runtime.RESOURCES_LINE.format(cpu=cpu, wall=wall, rss=rss)
        + "\n"
    )


def test_the_job_logs_its_resources_in_the_format_measure_reads(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    log = logging.getLogger("bmrep.some_rule")
    runtime._log_resources(log, 0.0)
    line = caplog.records[-1].getMessage()
    cpu, wall, rss = map(float, costs.USED.search(line).groups())
    assert cpu > 0 and wall > 0 and rss > 10  # a Python process with numpy imported


def test_measure_jobs_reads_each_finished_jobs_rule_resources_and_outputs(tmp_path):
    _job_log(tmp_path / "a" / "0.log", "paper_train", 10.0, 11.0, 200.0)
    _job_log(tmp_path / "a" / "1.log", "paper_train", 30.0, 31.0, 300.0)
    _job_log(tmp_path / "b.log", "paper_fig", 1.0, 2.0, 100.0)
    (tmp_path / "unfinished.log").write_text("bmrep.x INFO rule x, threads 1, outputs []\n")
    m = costs.measure_jobs(tmp_path)
    train = m[m["rule"] == "paper_train"]
    assert train["cpu_s"].tolist() == [10.0, 30.0] and train["rss_mb"].tolist() == [200.0, 300.0]
    assert train["outputs"].tolist() == [("x",), ("x",)]
    assert set(m["rule"]) == {"paper_train", "paper_fig"}  # the unfinished job has no resources line
    with pytest.raises(FileNotFoundError, match="no job log"):
        costs.measure_jobs(tmp_path / "empty")


def test_the_kept_job_table_extrapolates_as_the_logs_do(tmp_path):
    # make costs keeps the default's jobs (records/default_jobs.csv) so that a changed cost_scaling.yaml is
    # extrapolated again without a run: from that table the costs must be those from the logs, bit for bit
    _job_log(tmp_path / "logs" / "0.log", "paper_train", 10.0, 11.0, 200.0)
    _job_log(tmp_path / "logs" / "1.log", "paper_train", 30.5, 31.0, 300.0)
    _job_log(tmp_path / "logs" / "2.log", "paper_fig", 1.25, 2.0, 100.0)
    from_logs = costs.read_jobs(tmp_path / "logs")
    costs.write_jobs(from_logs, tmp_path / "jobs.csv")
    from_table = costs.read_jobs(tmp_path / "jobs.csv")
    assert len(from_table) == 3 and from_table["outputs"].tolist() == [("x",)] * 3
    default, paper = {"p": {"n": 100}}, {"p": {"n": 1000}}
    args = ({"paper_train": ["p.n"]}, default, paper, {"paper_train": 4, "paper_fig": 1})
    a, b = costs.extrapolate(from_logs, *args), costs.extrapolate(from_table, *args)
    pd.testing.assert_frame_equal(a, b)
    assert a.set_index("rule").loc["paper_train", "paper_core_hours"] == pytest.approx(4 * 202.5 / 3600, abs=1e-3)


def test_work_size_and_scale_factor():
    assert work_keys.work_size(4000) == 4000 and work_keys.work_size([1000, 3000]) == 4000
    assert work_keys.work_size({"bas": 300, "mnist": 2000}) == 2000 and work_keys.work_size(["a", "b", "c"]) == 3
    default = {"p": {"train": {"n_updates": 4000}, "reps": 5}}
    paper = {"p": {"train": {"n_updates": 200000}, "reps": 25}}
    assert work_keys.scale_factor(["p.train.n_updates", "p.reps"], default, paper) == pytest.approx(250.0)
    assert work_keys.scale_factor(["p.train.n_updates", "1/p.reps"], default, paper) == pytest.approx(10.0)
    per_benchmark = ({"n": {"bas": 2000, "mnist": 200}}, {"n": {"bas": 20000, "mnist": 20000}})
    assert work_keys.scale_factor(["n"], *per_benchmark) == pytest.approx(100.0)  # the largest ratio, not 20000/2000
    models = (
        {"m": {"a": {"n": 10, "k": 1}, "b": {"n": 10}}},
        {"m": {"a": {"n": 100, "k": 10}, "b": {"n": 500}}},
    )
    assert work_keys.scale_factor(["m.*.n", "m.*.k"], *models) == pytest.approx(100.0)  # a: 10 x 10 > b: 50 x 1
    with pytest.raises(KeyError, match="p.nope"):
        work_keys.scale_factor(["p.nope"], default, paper)


def test_extrapolated_table_and_slurm_block():
    measured = pd.DataFrame(
        {"rule": "p_train", "cpu_s": [60.0, 30.0, 90.0], "rss_mb": [500.0, 700.0, 600.0], "outputs": [("x",)] * 3}
    )
    table = costs.extrapolate(
        measured,
        {"p_train": ["p.n"]},
        {"p": {"n": 10}},
        {"p": {"n": 100}},
        {"p_train": 4, "p_new": 1},
    ).set_index("rule")
    row = table.loc["p_train"]
    assert row["paper_jobs"] == 4 and row["scale"] == 10.0
    assert row["paper_core_hours"] == pytest.approx(4 * 60 * 10 / 3600, abs=1e-3)
    assert row["runtime_min"] == 30  # 2 x (90 s x 10) = 30 min
    assert row["mem_mb"] == 1500  # 1.5 x 700 MB + the job's Snakemake processes (450), rounded up to 100 MB
    assert table.loc["p_new", "scaled_by"] == "not measured"
    block = slurm_resources.slurm_block(table.reset_index())
    parsed = yaml.safe_load(block)
    assert parsed == {"set-resources": {"p_train": {"runtime": 30, "mem_mb": 1500}}}
    # a peak the rehearsal measured at the paper's shapes raises the request (1.25 x 2000 MB)
    again = costs.extrapolate(measured, {"p_train": ["p.n"]}, {"p": {"n": 10}}, {"p": {"n": 100}}, {"p_train": 4},
                              {"p_train": 2000.0})  # fmt: skip
    assert again.set_index("rule").loc["p_train", "mem_mb"] == 2500
    # a longest job the rehearsal measured at the paper's shapes raises the runtime (2 x 31 min), a shorter one not
    for longest, minutes in ((31.0, 62), (12.0, 30)):
        again = costs.extrapolate(measured, {"p_train": ["p.n"]}, {"p": {"n": 10}}, {"p": {"n": 100}}, {"p_train": 4},
                                  longest={"p_train": longest})  # fmt: skip
        assert again.set_index("rule").loc["p_train", "runtime_min"] == minutes
    assert slurm_resources.runtime_request(60.0) == 10  # the floor
    assert memory.memory_request(10.0) == 1000  # the floor
    profile = "executor: slurm\n" + block + "jobs: 10\n"
    again = slurm_resources.replace_block(profile, slurm_resources.slurm_block(table.reset_index().assign(mem_mb=2000)))
    assert again.count(slurm_resources.BEGIN) == 1 and "mem_mb: 2000" in again and again.endswith("jobs: 10\n")


def test_logs_of_a_partial_run_do_not_overwrite_measured_costs(tmp_path, monkeypatch, capsys):
    # A run stopped after a few jobs: its table would say "not measured" for rules measured before.
    (tmp_path / "config").mkdir()
    for name in ("config.yaml", "paper.yaml"):
        (tmp_path / "config" / name).write_text((ROOT / "config" / name).read_text())
    # the records (package data) as copies, so that nothing here can write the committed ones
    kept = {"COSTS": tmp_path / "costs.csv", "COST_SCALING": tmp_path / "cost_scaling.yaml"}
    for name, copy in kept.items():
        copy.write_text(getattr(costs, name).read_text())
        monkeypatch.setattr(costs, name, copy)
    monkeypatch.setattr(costs, "DEFAULT_JOBS", tmp_path / "default_jobs.csv")
    logs = tmp_path / "logs"
    _job_log(logs / "one.log", "calibration_shard", 2.0, 2.1, 100.0)
    committed = kept["COSTS"].read_text()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(costs, "job_counts", lambda *a: {"calibration_shard": 4, "saul1996_train": 100})
    assert costs.main([str(logs)]) == 2
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and f"1 rules measured in {kept['COSTS']} (saul1996_train)" in out
    assert kept["COSTS"].read_text() == committed
    for missing in ("no_such_logs", str(costs.DEFAULT_JOBS)):  # no run yet, or no table kept yet: one line
        assert costs.main([missing]) == 2
        out = capsys.readouterr().out
        assert out.count("\n") == 1 and out.startswith("make costs: ") and "nothing written" in out, out
    assert kept["COSTS"].read_text() == committed
    table = pd.DataFrame({"rule": ["a", "b", "all"], "scaled_by": ["x", "not measured", "not measured"]})
    previous = pd.DataFrame({"rule": ["a", "b", "all"], "scaled_by": ["x", "y", "not measured"]})
    assert costs.lost_rules(table, previous) == ["b"]  # "all" writes no log in either


def test_a_rule_above_the_runtime_cap_asks_the_cap_and_is_retried_if_it_checkpoints():
    """No submission asks more than the cap; a longer rule that checkpoints gets retries for its estimate, plus one."""
    table = pd.DataFrame(
        {
            "rule": ["long_train", "long_shard", "short", "not_measured"],
            "runtime_min": [5377.0, 3503.0, 10.0, float("nan")],
            "mem_mb": [1000.0, 1000.0, 1000.0, float("nan")],
        }
    )
    parsed = yaml.safe_load(slurm_resources.slurm_block(table, 1440, {"long_train", "short"}))
    assert parsed["set-resources"] == {
        "long_train": {"runtime": 1440, "mem_mb": 1000},
        "long_shard": {"runtime": 1440, "mem_mb": 1000},
        "short": {"runtime": 10, "mem_mb": 1000},
    }
    # 5377 min at 1440 per submission: 4 submissions, and one spare for the work lost at each kill
    assert parsed["preemptible-rules"] == ["long_train"] and parsed["preemptible-retries"] == 4
    assert slurm_resources.over_cap_without_checkpoint(table, 1440, {"long_train"}) == ["long_shard"]
    # nothing above the cap: no preemptible-rules at all (an empty list would make every rule preemptible)
    assert "preemptible" not in slurm_resources.slurm_block(table, 6000, {"long_train"})
    assert "preemptible" not in slurm_resources.slurm_block(table, 1440, set())
    assert slurm_resources.submissions(1440, 1440) == 1 and slurm_resources.submissions(1441, 1440) == 2


def test_runtime_cap_and_checkpointed_rules_are_read_from_their_files(tmp_path):
    from conftest import ROOT

    assert slurm_resources.runtime_cap(ROOT / "profiles/slurm/partition.yaml") >= 60
    bad = tmp_path / "partition.yaml"
    for text in ("runtime_cap_min: 0\n", "runtime_cap_min: 1.5\n", "other: 1\n"):
        bad.write_text(text)
        with pytest.raises(ValueError, match="runtime_cap_min must be"):
            slurm_resources.runtime_cap(bad)
    assert slurm_resources.checkpointed_rules({"checkpoint_every": {"a": 10, "b": 0}}) == {"a"}


def test_jobs_of_per_benchmark_settings_scale_by_their_own_benchmark():
    """A job whose outputs name its benchmark takes that benchmark's ratio; a job naming none, the largest."""
    measured_config = {"p": {"n": {"bas": 6000, "mnist": 200}, "reps": 10}}
    target_config = {"p": {"n": {"bas": 20000, "mnist": 20000}, "reps": 25}}
    assert work_keys.entries(["p.n", "p.reps"], measured_config, target_config) == {"bas", "mnist"}
    assert work_keys.job_entry(["results/p/learning/bas/cd_G/0.npz"], {"bas", "mnist"}) == "bas"
    assert work_keys.job_entry(["results/p/bas/0.npz", "results/p/mnist/0.npz"], {"bas", "mnist"}) is None
    assert work_keys.scale_factor(["p.n"], measured_config, target_config, "bas") == pytest.approx(20000 / 6000)
    jobs = pd.DataFrame(
        {
            "rule": "p_learn",
            "cpu_s": [30.0, 30.0, 6.0, 9.0],
            "rss_mb": [300.0] * 4,
            "outputs": [("r/bas/0.npz",), ("r/bas/1.npz",), ("r/mnist/0.npz",), ("r/summary.csv",)],
        }
    )
    row = costs.extrapolate(jobs, {"p_learn": ["p.n"]}, measured_config, target_config, {"p_learn": 8}).iloc[0]
    scaled = [30 * 20000 / 6000, 30 * 20000 / 6000, 6 * 100, 9 * 100]  # the last names no benchmark: the largest
    assert row["paper_core_hours"] == pytest.approx(8 * sum(scaled) / 4 / 3600, abs=1e-3)
    assert row["paper_cpu_h_per_job"] == pytest.approx(900 / 3600, abs=1e-4)
    assert row["scale"] == pytest.approx(sum(scaled) / 75.0, abs=1e-3)


def test_jobs_of_one_rule_scale_by_the_keys_of_their_output_name():
    """Trans-SAP's training scales with its tempered transitions, the other algorithms' with the updates alone."""
    measured_config = {"s": {"train": {"n_updates": 3000, "tt_levels": 10, "tt_every": 10}}}
    target_config = {"s": {"train": {"n_updates": 30000, "tt_levels": 20, "tt_every": 1}}}
    spec = {"Trans-SAP": ["s.train.n_updates", "s.train.tt_levels", "1/s.train.tt_every"], "*": ["s.train.n_updates"]}
    assert work_keys.rule_keys(spec, ["results/models/s/seed0/Trans-SAP.npz"]) == spec["Trans-SAP"]
    assert work_keys.rule_keys(spec, ["results/models/s/seed0/SAP-50.npz"]) == ["s.train.n_updates"]
    assert work_keys.rule_keys(["a.b"], ["x.npz"]) == ["a.b"]
    jobs = pd.DataFrame(
        {
            "rule": "s_train",
            "cpu_s": [100.0, 200.0],
            "rss_mb": [300.0] * 2,
            "outputs": [("r/models/s/seed0/SAP.npz",), ("r/models/s/seed0/Trans-SAP.npz",)],
        }
    )
    row = costs.extrapolate(jobs, {"s_train": spec}, measured_config, target_config, {"s_train": 2}).iloc[0]
    assert row["paper_core_hours"] == pytest.approx((100 * 10 + 200 * 10 * 2 * 10) / 3600, abs=1e-3)
    assert row["scaled_by"].startswith("Trans-SAP: s.train.n_updates x s.train.tt_levels x 1/s.train.tt_every; *:")


def test_a_one_plus_term_scales_the_growing_part_of_the_work_only():
    """Trans-SAP's update: a SAP update plus 2 sweeps per tempered-transition level every tt_every updates."""
    measured_config = {"s": {"train": {"n_updates": 3000, "tt_levels": 10, "tt_every": 10}}}
    target_config = {"s": {"train": {"n_updates": 30000, "tt_levels": 20, "tt_every": 1}}}
    term = {"one_plus": 0.4, "times": ["s.train.tt_levels", "1/s.train.tt_every"]}
    # per update (1 + 0.4 x 20) / (1 + 0.4 x 1) = 9 / 1.4, times 10x the updates
    expected = 10 * 9 / 1.4
    assert work_keys.scale_factor(["s.train.n_updates", term], measured_config, target_config) == pytest.approx(
        expected
    )
    assert work_keys.scale_factor([term], measured_config, measured_config) == pytest.approx(1.0)
    spec = {"Trans-SAP": ["s.train.n_updates", term], "*": ["s.train.n_updates"]}
    assert work_keys._described(spec).startswith("Trans-SAP: s.train.n_updates x (1 + 0.4 x s.train.tt_levels x 1/s.")
    with pytest.raises(KeyError, match="one_plus, times"):
        work_keys.scale_factor([{"one_plus": 0.4}], measured_config, target_config)


def test_a_sum_term_adds_parts_that_grow_with_different_settings():
    """The DBM evaluation: a final AIS (replicates x betas) and an AIS and a bound per snapshot."""
    measured = {"e": {"reps": 5, "betas": 10000, "curve": 500, "snaps": 4, "subset": 1000}}
    target = {"e": {"reps": 5, "betas": 20000, "curve": 20000, "snaps": 51, "subset": 10000}}
    term = {"sum": [["e.reps", "e.betas"], ["e.snaps", "e.curve"], ["e.snaps", "e.subset"]], "weights": [1, 1, 0.5]}
    expected = (5 * 20000 + 51 * 20000 + 0.5 * 51 * 10000) / (5 * 10000 + 4 * 500 + 0.5 * 4 * 1000)
    assert work_keys.scale_factor([term], measured, target) == pytest.approx(expected)
    assert work_keys.scale_factor(["e.reps", term], measured, measured) == pytest.approx(1.0)
    assert work_keys._described([term]).startswith("(1 x e.reps x e.betas + 1 x e.snaps x e.curve + 0.5 x")
    # a part that runs only where a setting allows it (Fig. 4's MBAR for K <= mbar_max_K): none in the measured run
    gated = {"sum": [["e.betas"], ["e.curve", "e.snaps>=10"]], "weights": [1, 2]}
    assert work_keys.scale_factor([gated], measured, target) == pytest.approx((20000 + 2 * 20000) / 10000)
    with pytest.raises(KeyError, match="of one length"):
        work_keys.scale_factor([{"sum": [["e.reps"]], "weights": [1, 2]}], measured, target)


def test_a_min_term_counts_the_models_a_shard_holds():
    """bruegge2013's autocorrelation shards: shard_size RBMs each, or all n_rbms where a benchmark has fewer."""
    measured = {"a": {"shard_size": 5, "models": {"mnist500": {"n_rbms": 3, "n_steps": 10000}}}}
    target = {"a": {"shard_size": 1, "models": {"mnist500": {"n_rbms": 24, "n_steps": 10**6}}}}
    term = {"min": ["a.shard_size", "a.models.mnist500.n_rbms"]}
    # the default's one shard holds its 3 RBMs, not 5: the paper's one RBM a job is 1/3 of its models
    keys = [term, "a.models.mnist500.n_steps"]
    assert work_keys.scale_factor(keys, measured, target) == pytest.approx(1 / 3 * 100)
    assert work_keys.scale_factor(keys, target, measured) == pytest.approx(3 / 100)
    assert work_keys._described(keys) == "min(a.shard_size, a.models.mnist500.n_rbms) x a.models.mnist500.n_steps"
    with pytest.raises(KeyError, match="or {min}"):
        work_keys.scale_factor([{"min": ["a.shard_size"], "times": []}], measured, target)


def test_list_entries_by_index_and_output_stems_by_glob():
    """carlson2016 Fig. 3: each model's shards scale by that model's budgets (an entry of a list of models)."""
    measured_config = {"c": {"fig3": {"shard_size": 9, "models": [{"sweeps": [1000, 3000]}, {"sweeps": [1000]}]}}}
    target_config = {"c": {"fig3": {"shard_size": 2, "models": [{"sweeps": [1000, 39000]}, {"sweeps": [4000]}]}}}
    spec = {"784x100_*": ["c.fig3.shard_size", "c.fig3.models.0.sweeps"], "*": ["c.fig3.models.1.sweeps"]}
    keys = work_keys.rule_keys(spec, ["r/carlson2016/shards/fig3/784x100_RTS_0.npz"])
    assert keys == spec["784x100_*"]
    assert work_keys.scale_factor(keys, measured_config, target_config) == pytest.approx(2 / 9 * 10)
    assert work_keys.rule_keys(spec, ["r/carlson2016/shards/fig3/784x500_RTS_0.npz"]) == spec["*"]
    with pytest.raises(KeyError, match="models.2.sweeps"):
        work_keys.scale_factor(["c.fig3.models.2.sweeps"], measured_config, target_config)
    # a per-model setting where the model has one, else the section's: the paper's 784x100 truth runs 10^7 sweeps
    measured_config["c"]["fig3"]["truth_sweeps"] = 30000
    target_config["c"]["fig3"].update(truth_sweeps=10**6, models=[{"truth_sweeps": 10**7}, {}])
    truth = "c.fig3.models.{}.truth_sweeps|c.fig3.truth_sweeps"
    assert work_keys.scale_factor([truth.format(0)], measured_config, target_config) == pytest.approx(10**7 / 30000)
    assert work_keys.scale_factor([truth.format(1)], measured_config, target_config) == pytest.approx(10**6 / 30000)
    assert work_keys.work_size("float64") / work_keys.work_size("float32") == 2.0


def test_cost_scaling_names_real_rules_and_config_keys():
    import copy
    import re

    from bmrep.pipeline.config_check import deep_merge
    from conftest import ROOT

    rules = set(
        re.findall(r"^rule (\w+):", "".join(p.read_text() for p in (ROOT / "workflow/rules").glob("*.smk")), re.M)
    )
    default = yaml.safe_load((ROOT / "config/config.yaml").read_text())
    paper = deep_merge(copy.deepcopy(default), yaml.safe_load((ROOT / "config/paper.yaml").read_text()))
    scaling = yaml.safe_load(COST_SCALING.read_text())
    assert set(scaling) <= rules, set(scaling) - rules
    for rule, spec in scaling.items():
        for keys in spec.values() if isinstance(spec, dict) else [spec]:
            assert work_keys.scale_factor(keys, default, paper) > 0, rule


@pytest.mark.workflow
@pytest.mark.checkout
def test_slurm_dry_run_shows_the_measured_resources_capped_and_retries():
    """The SLURM profile's per-rule resources are the measured table's (``make costs``) at most the cap.

    A dry run of the paper profile through ``--workflow-profile profiles/slurm`` (what the README
    says, so that profiles/default does not override it) prints every job's resources: none asks
    more than the partition's cap, and the rules estimated above it are retried.
    """
    import re

    from conftest import ROOT, run_snakemake

    cap = slurm_resources.runtime_cap(ROOT / "profiles/slurm/partition.yaml")
    table = pd.read_csv(COSTS).dropna(subset=["runtime_min"]).set_index("rule")
    rule = table["paper_core_hours"].idxmax()  # the costliest rule of the paper profile
    runtime, mem = min(cap, int(table.loc[rule, "runtime_min"])), int(table.loc[rule, "mem_mb"])
    proc = run_snakemake(
        "-n", "--forceall", "--workflow-profile", "profiles/slurm", "all", "--configfile", "config/paper.yaml",
        timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout + proc.stderr
    block = out[out.index(f"rule {rule}:") :]
    resources = block[block.index("resources:") :].splitlines()[0]
    assert f"mem_mb={mem}," in resources and f"runtime={runtime}," in resources, resources
    asked = [int(m) for m in re.findall(r"\bruntime=(\d+)", out)]
    assert len(asked) > 100 and max(asked) <= cap, max(asked)

    profile = yaml.safe_load((ROOT / "profiles/slurm/config.yaml").read_text())
    over = set(table.index[table["runtime_min"] > cap])
    resumable = over & slurm_resources.checkpointed_rules(costs.paper_config(ROOT))
    assert resumable, "no rule above the cap: the retries are not exercised by the paper profile"
    assert set(profile["preemptible-rules"]) == resumable
    needed = max(slurm_resources.submissions(table.loc[r, "runtime_min"], cap) for r in resumable)
    assert profile["preemptible-retries"] >= needed


# make timeline: the longest jobs, CPU per paper, and the critical path through the rule graph.
DOT = """digraph snakemake_dag {
    0[label = "all", color = "0.00 0.6 0.85", style="rounded"];
    1[label = "saul1996_fig5", color = "0.5 0.6 0.85", style="rounded"];
    2[label = "saul1996_fig5_shard", color = "0.5 0.6 0.85", style="rounded"];
    3[label = "carlson2016_fig1", color = "0.5 0.6 0.85", style="rounded"];
    4[label = "data_mnist", color = "0.5 0.6 0.85", style="rounded"];
    1 -> 0
    2 -> 1
    4 -> 2
    3 -> 0
    4 -> 3
}"""


def test_the_critical_path_follows_the_rule_graph_and_each_rules_slowest_job(tmp_path):
    from bmrep.ops import timeline

    needs = timeline.parse_rule_graph(DOT)
    assert needs["all"] == {"saul1996_fig5", "carlson2016_fig1"} and needs["saul1996_fig5_shard"] == {"data_mnist"}
    jobs = [("data_mnist", 5, 6), ("saul1996_fig5_shard", 40, 50), ("saul1996_fig5_shard", 70, 80),
            ("saul1996_fig5", 2, 3), ("carlson2016_fig1", 100, 110)]  # fmt: skip
    for i, (rule, cpu, wall) in enumerate(jobs):
        _job_log(tmp_path / f"{rule}_{i}.log", rule, cpu, wall, 100)
    measured = costs.measure_jobs(tmp_path)
    # data (6) -> fig5 shard (slowest 80) -> fig5 (3) = 89 s < data (6) -> fig1 (110) = 116 s
    length, chain = timeline.critical_path(needs, measured.groupby("rule")["wall_s"].max().to_dict())
    assert length == 116 and chain == ["data_mnist", "carlson2016_fig1", "all"]
    text = timeline.report(measured, needs, n=2)
    assert "5 jobs; CPU total 3.6 core-min" in text  # 217 s
    top = text.split("longest jobs")[1].split("CPU per paper")[0]
    assert "carlson2016_fig1" in top and "saul1996_fig5_shard" in top and "data_mnist" not in top
    assert " 2 cores: at least 1.9 min" in text  # max(217 / 2, 116) s
