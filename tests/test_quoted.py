"""Measured figures on the pages are their records' (issue 65): ``bmrep.pipeline.quoted``."""

from __future__ import annotations

import shutil

import pytest

from bmrep.pipeline import quoted
from conftest import ROOT


def _copy(tmp_path):
    pages = {q.page for q in quoted.QUOTES}
    records = [quoted.DEFAULT_RUN, quoted.PAPER_RUN, quoted.REHEARSAL_MD, quoted.REHEARSAL_CSV, quoted.COSTS]
    records.append(quoted.DEFAULT_JOBS)
    for rel in [*pages, *map(str, records)]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, tmp_path / rel)
    return tmp_path


@pytest.fixture(scope="module")
def needs():
    """The paper profile's rule graph (one Snakemake call for the module)."""
    return quoted.paper_rule_graph(ROOT)


def test_every_quoted_figure_is_its_records(needs):
    assert quoted.mismatches(ROOT, needs) == []


def test_a_stale_figure_is_found_and_rewritten(tmp_path, needs):
    root = _copy(tmp_path)
    run = root / quoted.DEFAULT_RUN
    run.write_text(run.read_text().replace("end: 72.2 min;", "end: 80.5 min;"))
    stale = quoted.mismatches(root, needs)
    assert stale and all("72.2 where default_wall_min is 80.5" in s for s in stale), stale
    assert {s.split(":")[0] for s in stale} >= {"README.md", "docs/cluster.md", ".snakemake-workflow-catalog.yml"}
    assert "README.md" in quoted.rewrite(root, needs)
    assert quoted.mismatches(root, needs) == []
    assert "80.5 min of jobs on 2 cores of an AMD EPYC" in (root / "README.md").read_text()


def test_a_quote_edited_away_is_reported(tmp_path, needs):
    root = _copy(tmp_path)
    cluster = root / "docs/cluster.md"
    cluster.write_text(cluster.read_text().replace("(estimated 2064 minutes", "(estimated about a day"))
    (stale,) = quoted.mismatches(root, needs)
    assert stale.startswith("docs/cluster.md: no quote matches") and "2064" in stale


# Rules whose longest paper job is predicted above 2 hours (issue 65 item 3: none may lack a resume test), each with
# the test that kills it after a checkpoint and resumes it bit-identically.
RESUME_TESTS = {
    "salakhutdinov2010_train": ("test_checkpoint.py", "test_dbm_training_resumes_bit_identically"),
    "carlson2016_fig5": ("test_checkpoint.py", "test_carlson2016_fig5_training_resumes_bit_identically"),
    "carlson2016_fig3_truth": (
        "test_checkpoint_annealing.py",
        "test_carlson2016_fig3_truth_run_resumes_bit_identically",
    ),
    "salakhutdinov2010_evaluate": (
        "test_checkpoint_annealing.py",
        "test_salakhutdinov2010_evaluation_resumes_bit_identically",
    ),
}
TWO_HOURS = 2.0


def test_every_job_above_two_hours_checkpoints_and_has_a_resume_test():
    """config/costs.csv's (and the rehearsal's) longest job per rule: above 2 h, a checkpoint and a resume test."""
    from bmrep.pipeline import costs, slurm_resources

    long = {r for r, h in quoted.longest_job_h(ROOT).items() if h > TWO_HOURS}
    checkpointed = slurm_resources.checkpointed_rules(costs.paper_config(ROOT))
    assert long <= checkpointed, f"above {TWO_HOURS} h without checkpoint_every: {sorted(long - checkpointed)}"
    assert set(RESUME_TESTS) == long, "RESUME_TESTS lists exactly the rules above 2 hours"
    for path, name in RESUME_TESTS.values():
        assert f"def {name}(" in (ROOT / "tests" / path).read_text(), (path, name)
    named = (ROOT / "docs/cluster.md").read_text()
    assert all(f"`{rule}`" in named for rule in long), "docs/cluster.md lists every rule above 2 hours"
