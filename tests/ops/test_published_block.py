"""The README's block of published verdicts (bmrep.ops.published), on publications written here."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from bmrep.ops import published

ROOT = Path(__file__).resolve().parents[2]

MD = """# Replication summary

Profile: **paper**. Claims: 3.

- saul1996: 2 reproduced, 0 not reproduced, 0 inconclusive, 0 not run **[Re]**
- calibration: not run in this publication (about 23.0 core-hours in the paper profile)

## saul1996: Saul

Figures: [fig5.png](figures/saul1996/fig5.png), [fig2.png](figures/saul1996/fig2.png)
"""


def _publish(root, profile, commit):
    d = root / profile
    d.mkdir(parents=True)
    (d / "REPLICATION.md").write_text(MD.replace("**paper**", f"**{profile}**"))
    (d / "RUN.md").write_text(f"# Run\n\n- commit: `{commit}`\n- profile: {profile}\n")


def test_block_from_published_files_and_readme_rewrite(tmp_path):
    pub = tmp_path / "docs" / "results"
    readme = tmp_path / "README.md"
    readme.write_text("# Title\n\nBody.\n")
    published.rewrite_readme(readme, pub)
    assert "No run is published yet" in published.readme_block(readme.read_text())
    _publish(pub, "default", "a" * 40)
    _publish(pub, "paper", "b" * 40)
    published.rewrite_readme(readme, pub)
    text = readme.read_text()
    block = published.readme_block(text)
    assert text.startswith("# Title\n\n" + published.BEGIN) and text.rstrip().endswith("Body.")
    assert text.count(published.BEGIN) == 1  # rewritten in place, not added again
    assert block.index("default profile") < block.index("paper profile")
    assert "`aaaaaaaaaaaa`" in block and "`bbbbbbbbbbbb`" in block
    assert block.count("- saul1996: 2 reproduced") == 2 and "- calibration: not run" in block
    assert f"({pub}/paper/REPLICATION.md)" in block


def test_the_readme_is_written_from_the_root_of_every_publication():
    # an evidence run's publication sits two levels down: its README block must still list the profiles'
    root = published.root_of
    assert root(Path("docs/results/default"), "default") == Path("docs/results")
    assert root(Path("docs/results/evidence/sala_schedule"), "evidence/sala_schedule") == Path("docs/results")


def test_figure_links():
    assert published.figure_links(MD) == ["figures/saul1996/fig5.png", "figures/saul1996/fig2.png"]


def test_an_evidence_run_gets_its_line_after_the_profiles(tmp_path):
    """An evidence run published under docs/results/evidence/<name>/ (make publish PROFILE=evidence/<name>): its
    line says what it settles (RUN.md) and comes after the profiles'."""
    pub = tmp_path / "docs" / "results"
    _publish(pub, "default", "a" * 40)
    _publish(pub, "evidence/sala_schedule", "c" * 40)
    run = pub / "evidence/sala_schedule/RUN.md"
    run.write_text(run.read_text() + "- what it settles: Table 1 at the paper's schedule\n")
    block = published.block(pub)
    line = next(x for x in block.splitlines() if x.startswith("**Evidence run"))
    assert line.startswith(
        "**Evidence run `sala_schedule`**: Table 1 at the paper's schedule, from commit `cccccccccccc`"
    )
    assert f"({pub}/evidence/sala_schedule/REPLICATION.md)" in line
    assert block.index("default profile") < block.index("Evidence run")
    assert block.count("- saul1996: 2 reproduced") == 2


def test_an_evidence_runs_trainings_come_from_its_published_sidecars(tmp_path):
    import json

    from bmrep.ops.evidence import run_md_lines

    models = tmp_path / "models" / "seed0"
    models.mkdir(parents=True)
    (models / "SAP.npz.json").write_text(json.dumps({"repeat": 0, "final_update": 200000, "seconds": 7200.0,
                                                     "seconds_per_update": 0.036}))  # fmt: skip
    (models / "pretrained.npz.json").write_text(json.dumps({"repeat": 0, "seconds": 900.0}))
    (tmp_path / "models" / "training_cpu.csv").write_text("seed,training,cpu_seconds,how\n0,SAP,5400,one run\n")
    cfg = {"description": "Table 1 at the schedule", "salakhutdinov2010": {"adopt_dir": str(tmp_path / "models")}}
    lines = run_md_lines(cfg, "models/")
    assert lines[0] == "- what it settles: Table 1 at the schedule"
    assert "| 0 | SAP | 200000 | 1.50 | 2.00 | 36.0 | one run |" in lines
    assert "| 0 | pretraining |  | not recorded | 0.25 |  |  |" in lines
    assert any("1.5 CPU hours" in x and "2.2 wall hours" in x for x in lines)
    assert run_md_lines({"salakhutdinov2010": {"adopt_dir": None}}, "models/") == []


def test_training_cpu_refuses_a_training_listed_twice(tmp_path):
    from bmrep.ops.evidence import training_cpu

    path = tmp_path / "training_cpu.csv"
    path.write_text("seed,training,cpu_seconds,how\n0,SAP,1,a\n0,SAP,2,b\n")
    with pytest.raises(ValueError, match="seed 0's SAP is listed twice"):
        training_cpu(path)
    assert training_cpu(tmp_path / "absent.csv") == {}


# The published models' directories of the evidence overlays that adopt trainings (sala_schedule, sala_redrawn)
ADOPT_DIRS = sorted(
    {
        d
        for p in (ROOT / "config/evidence").glob("*.yaml")
        if (d := (yaml.safe_load(p.read_text()).get("salakhutdinov2010") or {}).get("adopt_dir"))
    }
)


def test_the_schedule_and_redrawn_runs_adopt_their_published_models():
    published = {f"docs/results/evidence/{run}/models" for run in ("sala_schedule", "sala_redrawn")}
    assert published <= set(ADOPT_DIRS)


@pytest.mark.parametrize("adopt_dir", ADOPT_DIRS)
def test_every_published_model_has_its_cpu_time_recorded(adopt_dir):
    """Issue 63: RUN.md gives the CPU time of every training, so each model committed needs its row."""
    from bmrep.ops.evidence import trained_models

    adopt = ROOT / adopt_dir
    rows = trained_models({"salakhutdinov2010": {"adopt_dir": str(adopt)}})
    assert len(rows) >= 2  # at least one pretraining and one training
    missing = [(r["seed"], r["what"]) for r in rows if r["cpu_hours"] != r["cpu_hours"]]
    assert missing == [], f"add these to {adopt / 'training_cpu.csv'}"


def test_run_md_sets_an_evidence_runs_lines_apart_from_the_cost_table():
    import pandas as pd

    from bmrep.ops.publish import run_md

    costs = pd.DataFrame([{"paper": "salakhutdinov2010", "jobs": 3, "core-minutes": 1.0, "wall minutes": 2.0}])
    text = run_md("evidence/x", "abc", False, "d", costs, {}, ["- what it settles: Table 1"])
    assert "| salakhutdinov2010 | 3 | 1.0 | 2.0 |\n\n- what it settles: Table 1\n" in text
    assert run_md("default", "abc", False, "d", costs, {}).endswith("| salakhutdinov2010 | 3 | 1.0 | 2.0 |\n")


def test_sittings_count_pauses_and_the_minutes_a_job_ran():
    import pandas as pd

    from bmrep.ops.publish import sittings

    h = 3600.0
    # two overlapping jobs (0-10 min, 5-20 min), a 10-minute pause, a job (30-40), then a 2-hour pause and a job
    starts, ends = pd.Series([0, 300, 1800, 2400 + 2 * h]), pd.Series([600, 1200, 2400, 3000 + 2 * h])
    assert sittings(starts, ends) == (2, pytest.approx(40.0))  # 20 + 10 + 10 busy minutes; only the long pause splits
    assert sittings(pd.Series([0.0]), pd.Series([60.0])) == (1, pytest.approx(1.0))
    assert sittings(pd.Series([], dtype=float), pd.Series([], dtype=float)) == (0, 0.0)


def test_run_md_says_when_the_jobs_ran_in_several_sittings():
    import pandas as pd

    from bmrep.ops.publish import run_md

    def line(**all_jobs):
        paper = {"jobs": 3, "core-minutes": 9.0, "wall minutes": 600.0}
        costs = pd.DataFrame([{"paper": "salakhutdinov2010", **paper}, {"paper": "all jobs", **paper, **all_jobs}])
        return next(s for s in run_md("evidence/x", "abc", False, "d", costs, {}).splitlines() if "wall time" in s)

    assert line(sittings=3, **{"busy minutes": 7.5}).endswith(
        "9.0 core-minutes (the jobs ran in 3 sittings, over 30 min apart: 7.5 min with a job running)"
    )
    assert line(sittings=1, **{"busy minutes": 600.0}).endswith("600.0 min; 3 jobs, 9.0 core-minutes")
