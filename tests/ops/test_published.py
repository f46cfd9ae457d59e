"""Published results (``make publish``) against the code: claim ids, figures, the README's block (issue 43).

Every published summary — ``docs/results/<profile>/`` where one exists, and
always a publication of the smoke profile's run made here, so the checks never
run on nothing — must hold exactly the claim ids the code declares for its
profile (``claims(settings)`` of each paper, listed by the rule
``declared_claims`` in a scratch directory): a claim added, renamed or removed
without republishing fails. Every file a published REPLICATION.md links to
must exist, and the README's block must be what the published files say.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from bmrep.ops import browser, published
from bmrep.ops.publish import MAX_WIDTH, Refused, publish
from conftest import ROOT, run_snakemake

pytestmark = [pytest.mark.workflow, pytest.mark.checkout]
DOCS = ROOT / "docs" / "results"
PUBLISHED = sorted(p.parent for p in DOCS.glob("*/replication_summary.csv"))


@pytest.fixture(scope="module")
def smoke_publication(smoke_run, tmp_path_factory):
    res, fig, _, _ = smoke_run
    out = tmp_path_factory.mktemp("published") / "smoke"
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(ROOT)
        publish("smoke", out, [f"results_dir={res}", f"figures_dir={fig}"], dirty_ok=True, readme=False)
    return out


def declared_ids(profile: str, tmp: Path) -> set[tuple[str, str]]:
    """(paper, claim id) of every claim the code declares for ``profile``, made afresh in ``tmp``."""
    args = [] if profile == "default" else [f"--configfile=config/{profile}.yaml"]
    target = tmp / "results" / "claims" / "declared.csv"
    overrides = ["--config", f"results_dir={tmp / 'results'}", f"figures_dir={tmp / 'figures'}"]
    proc = run_snakemake("-c1", str(target), *args, *overrides, timeout=600)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    table = pd.read_csv(target, dtype=str, keep_default_na=False)
    return set(zip(table["paper"], table["claim_id"], strict=True))


def check_claim_ids(publication: Path, tmp: Path) -> None:
    summary = pd.read_csv(publication / "replication_summary.csv", dtype=str, keep_default_na=False)
    (profile,) = set(summary["profile"])
    have = set(zip(summary["paper"], summary["claim_id"], strict=True))
    want = declared_ids(profile, tmp)
    assert have == want, (
        f"{publication}: claims the code declares but the publication lacks {sorted(want - have)}; "
        f"published but no longer declared {sorted(have - want)}: republish (make publish PROFILE={profile})"
    )


def check_links(publication: Path) -> None:
    md = (publication / "REPLICATION.md").read_text()
    links = published.figure_links(md)
    missing = [link for link in links if not (publication / link).is_file()]
    assert not missing, f"{publication}/REPLICATION.md names missing files {missing}"


def test_smoke_publication_matches_the_code(smoke_publication, tmp_path):
    check_claim_ids(smoke_publication, tmp_path)
    check_links(smoke_publication)


@pytest.mark.parametrize("publication", PUBLISHED, ids=lambda p: p.name)
def test_published_summary_matches_the_code(publication, tmp_path):
    check_claim_ids(publication, tmp_path)
    check_links(publication)


def test_readme_block_is_the_published_one():
    text = (ROOT / "README.md").read_text()
    assert published.readme_block(text) == published.block(DOCS.relative_to(ROOT)), "run make publish"


def test_smoke_publication_contents(smoke_run, smoke_publication):
    from matplotlib.image import imread

    res, fig, _, _ = smoke_run
    pub = smoke_publication
    own = pd.read_csv(res / "replication_summary.csv", dtype=str, keep_default_na=False)
    assert pd.read_csv(pub / "replication_summary.csv", dtype=str, keep_default_na=False).equals(own)
    figures = sorted((pub / "figures").rglob("*.png"))
    assert len(figures) == len(list(fig.rglob("*.png")))
    if browser.available():  # the report's screenshots: only with the optional Chromium (make chromium)
        assert {p.name for p in (pub / "figures" / "report").glob("*.png")} >= {"report_front_1400x1000.png"}
    assert all(imread(p).shape[1] <= MAX_WIDTH for p in figures)
    assert sum(p.stat().st_size for p in figures) < 10e6
    run = (pub / "RUN.md").read_text()
    assert published.commit_of(run) and "config digest" in run and "cores" in run
    for paper in own["paper"].unique():
        assert f"| {paper} |" in run
    # the README block's reading of the publication: one line per paper
    assert len(published.paper_lines((pub / "REPLICATION.md").read_text())) == own["paper"].nunique()


def test_partial_run_publishes_missing_papers_as_not_run(smoke_run, tmp_path, monkeypatch):
    """A run that reached some papers: the others' declared claims say not run, with their core-hours."""
    res, fig, _, _ = smoke_run
    monkeypatch.chdir(ROOT)
    claims = res / "claims" / "bruegge2013.csv"
    aside = tmp_path / "bruegge2013.csv"
    shutil.move(claims, aside)
    try:
        overrides = [f"results_dir={res}", f"figures_dir={fig}"]
        with pytest.raises(Refused, match="incomplete default run"):
            publish("default", tmp_path / "default", overrides, dirty_ok=True, readme=False)
        out = publish("smoke", tmp_path / "partial", overrides, dirty_ok=True, readme=False)
    finally:
        shutil.move(aside, claims)
    summary = pd.read_csv(out / "replication_summary.csv", dtype=str, keep_default_na=False)
    rows = summary[summary["paper"] == "bruegge2013"]
    assert len(rows) and (rows["verdict"] == "not run").all()
    assert rows["details"].str.contains("core-hours").all()
    line = [ln for ln in published.paper_lines((out / "REPLICATION.md").read_text()) if "bruegge2013" in ln]
    assert line and "not run" in line[0] and "core-hours" in line[0]
    assert not (out / "figures" / "bruegge2013").exists()


def test_refuses_results_of_other_params(smoke_run, tmp_path, monkeypatch):
    """Outputs whose params differ from the checkout's (as a changed code digest makes them) are refused.

    Another root seed changes every job's params (seed 2: not 1, the AIS ladder selection's own seed, which
    the workflow refuses as a root seed).
    """
    res, fig, _, _ = smoke_run
    monkeypatch.chdir(ROOT)
    with pytest.raises(Refused, match="jobs left"):
        publish("smoke", tmp_path / "x", [f"results_dir={res}", f"figures_dir={fig}", "seed=2"], True, False)


def test_run_wall_time_spans_the_papers_jobs_not_a_summary_rerun_at_publication(tmp_path):
    """A summary job rerun by `make publish` an hour after the run does not lengthen the run's wall time."""
    from bmrep.ops.publish import cost_table

    def log(name, rule, end, wall):
        (tmp_path / f"{name}.log").write_text(
            f"{end},000 bmrep.{rule} INFO rule {rule}, threads 1, outputs ['x/{name}.npz']\n"
            f"{end},000 bmrep.{rule} INFO job resources: cpu {wall:.2f} s, wall {wall:.2f} s, max rss 100.0 MB\n"
        )

    log("a", "saul1996_train", "2026-11-27 18:10:00", 600.0)  # 18:00-18:10
    log("b", "saul1996_claims", "2026-11-27 18:20:00", 60.0)
    log("s", "summary", "2026-11-27 19:30:00", 5.0)  # rerun at publication
    table = cost_table(tmp_path, ["saul1996"]).set_index("paper")
    assert table.loc["saul1996", "wall minutes"] == pytest.approx(20.0)
    assert table.loc["all jobs", "wall minutes"] == pytest.approx(20.0)
    assert table.loc["all jobs", "jobs"] == 3
