"""Measured figures on the pages are their records' (issue 65): ``bmrep.pipeline.quoted``."""

from __future__ import annotations

import shutil

from bmrep.pipeline import quoted
from conftest import ROOT


def _copy(tmp_path):
    pages = {q.page for q in quoted.QUOTES}
    records = [quoted.DEFAULT_RUN, quoted.PAPER_RUN, quoted.REHEARSAL_MD, quoted.COSTS, quoted.DEFAULT_JOBS]
    for rel in [*pages, *map(str, records)]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, tmp_path / rel)
    return tmp_path


def test_every_quoted_figure_is_its_records():
    assert quoted.mismatches(ROOT) == []


def test_a_stale_figure_is_found_and_rewritten(tmp_path):
    root = _copy(tmp_path)
    run = root / quoted.DEFAULT_RUN
    run.write_text(run.read_text().replace("end: 72.2 min;", "end: 80.5 min;"))
    stale = quoted.mismatches(root)
    assert stale and all("72.2 where default_wall_min is 80.5" in s for s in stale), stale
    assert {s.split(":")[0] for s in stale} >= {"README.md", "docs/cluster.md", ".snakemake-workflow-catalog.yml"}
    assert "README.md" in quoted.rewrite(root)
    assert quoted.mismatches(root) == []
    assert "80.5 min of jobs on 2 cores of an AMD EPYC" in (root / "README.md").read_text()


def test_a_quote_edited_away_is_reported(tmp_path):
    root = _copy(tmp_path)
    cluster = root / "docs/cluster.md"
    cluster.write_text(cluster.read_text().replace("(estimated 2064 minutes", "(estimated about a day"))
    (stale,) = quoted.mismatches(root)
    assert stale.startswith("docs/cluster.md: no quote matches") and "2064" in stale
