"""Measured figures on the pages are their records' (issue 65): ``bmrep.ops.quoted``."""

from __future__ import annotations

import re
import shutil

import pandas as pd
import pytest

from bmrep.ops import quoted
from conftest import ROOT


def _copy(tmp_path, monkeypatch):
    """The pages and their records in ``tmp_path``; the package's records (the cost table, the default's jobs) as
    copies there too, read instead of the committed ones."""
    pages = {q.page for q in quoted.QUOTES}
    records = [quoted.DEFAULT_RUN, quoted.PAPER_RUN, quoted.REHEARSAL_MD, quoted.REHEARSAL_CSV]
    records += ["config/config.yaml", "config/paper.yaml"]  # the paper's Fig. 4 Ks
    for rel in [*pages, *map(str, records)]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, tmp_path / rel)
    for name in ("COSTS", "DEFAULT_JOBS"):
        copy = tmp_path / "records" / getattr(quoted, name).name
        copy.parent.mkdir(exist_ok=True)
        shutil.copy2(getattr(quoted, name), copy)
        monkeypatch.setattr(quoted, name, copy)
    return tmp_path


@pytest.fixture(scope="module")
def needs():
    """The paper profile's rule graph (one Snakemake call for the module)."""
    return quoted.paper_rule_graph(ROOT)


def test_every_quoted_figure_is_its_records(needs):
    assert quoted.mismatches(ROOT, needs) == []


def test_a_stale_figure_is_found_and_rewritten(tmp_path, monkeypatch, needs):
    root = _copy(tmp_path, monkeypatch)
    run = root / quoted.DEFAULT_RUN
    text = run.read_text()
    wall = re.search(r"end: ([\d.]+) min;", text).group(1)
    assert wall != "80.5"
    run.write_text(text.replace(f"end: {wall} min;", "end: 80.5 min;"))
    stale = quoted.mismatches(root, needs)
    assert stale and all(f"{wall} where default_wall_min is 80.5" in s for s in stale), stale
    assert {s.split(":")[0] for s in stale} >= {"README.md", "docs/cluster.md", ".snakemake-workflow-catalog.yml"}
    assert "README.md" in quoted.rewrite(root, needs)
    assert quoted.mismatches(root, needs) == []
    assert "80.5 min of jobs on 2 cores of an AMD EPYC" in (root / "README.md").read_text()


def test_a_quote_edited_away_is_reported(tmp_path, monkeypatch, needs):
    root = _copy(tmp_path, monkeypatch)
    cluster = root / "docs/cluster.md"
    cluster.write_text(cluster.read_text().replace("(estimated 2064 minutes", "(estimated about a day"))
    (stale,) = quoted.mismatches(root, needs)
    assert stale.startswith("docs/cluster.md: no quote matches") and "2064" in stale


def test_the_last_rehearsal_on_the_cluster_page_is_its_tables(tmp_path, monkeypatch, needs):
    """docs/cluster.md's rehearsal figures follow paper-rehearsal.md and .csv; no dated rehearsal history is typed."""
    root = _copy(tmp_path, monkeypatch)
    md, csv = root / quoted.REHEARSAL_MD, root / quoted.REHEARSAL_CSV
    text = md.read_text()
    wall = re.search(r"^Wall time of the rehearsal: ([\d.]+) min", text, re.M).group(1)
    md.write_text(text.replace(f"Wall time of the rehearsal: {wall} min", "Wall time of the rehearsal: 61.3 min"))
    table = pd.read_csv(csv)
    low = table["ratio"].where(table["core_hours_from_rehearsal"] > 1).idxmin()
    table.loc[low, "ratio"] = 0.12
    table.to_csv(csv, index=False)
    stale = [s for s in quoted.mismatches(root, needs) if s.startswith("docs/cluster.md")]
    assert f"docs/cluster.md: {wall} where rehearsal_wall_min_1 is 61.3" in stale, stale
    assert any(s.endswith("where rehearsal_ratio_min is 0.12") for s in stale), stale
    quoted.rewrite(root, needs)
    assert quoted.mismatches(root, needs) == []
    assert "took 61.3 minutes on 2 cores" in (root / "docs/cluster.md").read_text()
    assert not re.search(r"rehearsal\W*\s*\(20\d\d-\d\d-\d\d", (ROOT / "docs/cluster.md").read_text())


def test_the_readmes_memory_requests_follow_costs_csv(tmp_path, monkeypatch, needs):
    """The largest request (Fig. 4 at K = 1000) and the smallest K's request quoted in the README are the records'."""
    root = _copy(tmp_path, monkeypatch)
    costs = pd.read_csv(quoted.COSTS)
    row = costs["rule"] == "carlson2016_fig4_shard"
    largest = f"{costs.loc[row, 'mem_mb'].iloc[0] / 1000:.1f}"
    costs.loc[row, ["mem_mb", "measured_rss_mb"]] = [15000.0, 2000.0]  # the default run's peak sets a floor per K
    costs.to_csv(quoted.COSTS, index=False)
    stale = quoted.mismatches(root, needs)
    assert f"README.md: {largest} where largest_mem_gb is 15.0" in stale, stale
    assert any(s.startswith("README.md: ") and s.endswith("where fig4_smallest_k_mem_gb is 3.5") for s in stale), stale


# Rules whose longest paper job is predicted above 2 hours (issue 65 item 3: none may lack a resume test), each with
# the test that kills it after a checkpoint and resumes it bit-identically.
RESUME_TESTS = {
    "salakhutdinov2010_train": ("learning/test_checkpoint.py", "test_dbm_training_resumes_bit_identically"),
    "carlson2016_fig5": ("learning/test_checkpoint.py", "test_carlson2016_fig5_training_resumes_bit_identically"),
    "carlson2016_fig3_truth": (
        "learning/test_checkpoint_annealing.py",
        "test_carlson2016_fig3_truth_run_resumes_bit_identically",
    ),
    "salakhutdinov2010_evaluate": (
        "learning/test_checkpoint_annealing.py",
        "test_salakhutdinov2010_evaluation_resumes_bit_identically",
    ),
}
TWO_HOURS = 2.0


def test_every_job_above_two_hours_checkpoints_and_has_a_resume_test():
    """The cost table's (and the rehearsal's) longest job per rule: above 2 h, a checkpoint and a resume test."""
    from bmrep.ops import costs, slurm_resources

    long = {r for r, h in quoted.longest_job_h(ROOT).items() if h > TWO_HOURS}
    checkpointed = slurm_resources.checkpointed_rules(costs.paper_config(ROOT))
    assert long <= checkpointed, f"above {TWO_HOURS} h without checkpoint_every: {sorted(long - checkpointed)}"
    assert set(RESUME_TESTS) == long, "RESUME_TESTS lists exactly the rules above 2 hours"
    for path, name in RESUME_TESTS.values():
        assert f"def {name}(" in (ROOT / "tests" / path).read_text(), (path, name)
    named = (ROOT / "docs/cluster.md").read_text()
    assert all(f"`{rule}`" in named for rule in long), "docs/cluster.md lists every rule above 2 hours"
