"""The workflow: config validation errors, dry runs of the three profiles, lint, smoke run."""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest
import yaml

from bmrep.ops import browser
from conftest import ROOT, needs_browser, run_snakemake

PROFILES = {"default": [], "smoke": ["--configfile=config/smoke.yaml"], "paper": ["--configfile=config/paper.yaml"]}


def _one_line_error(proc) -> str:
    assert proc.returncode != 0, proc.stdout + proc.stderr
    lines = [ln for ln in (proc.stderr + proc.stdout).splitlines() if "invalid config" in ln]
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.mark.workflow
@pytest.mark.checkout
@pytest.mark.parametrize(
    "args, expected",
    [
        (["--config", "seed=abc"], "invalid config: seed: 'abc' is not of type 'integer'"),
        (
            ["--config", "colour=blue"],
            "invalid config: <top level>: Additional properties are not allowed ('colour' was unexpected)",
        ),
        (["--config", "seed=-4"], "invalid config: seed: -4 is less than the minimum of 0"),
        (["--config", "papers=[]"], "invalid config: papers: must not be an empty list"),
        (["--config", "papers=[nature2020]"], "invalid config: papers.0: 'nature2020' is not one of"),
    ],
)
def test_bad_config_gives_one_line_error(args, expected):
    line = _one_line_error(run_snakemake("-n", *args, timeout=120))
    assert line.startswith(expected), line


@pytest.mark.workflow
@pytest.mark.checkout
@pytest.mark.parametrize("profile", list(PROFILES))
def test_dry_run_builds_the_dag(profile):
    proc = run_snakemake("-n", "-q", *PROFILES[profile], "all", timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.workflow
@pytest.mark.checkout
def test_lint_is_clean():
    proc = run_snakemake("--lint", timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0 and "Lints for" not in out, out[-3000:]


def _with_empty_mirror(tmp_path, target: str, *, allow_download: bool):
    """Snakemake asked for ``data/<target>`` of the default profile with an empty mirror."""
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(
        f"results_dir: {tmp_path}/results\nfigures_dir: {tmp_path}/figures\n"
        f"data: {{synthetic: false, allow_download: {str(allow_download).lower()}}}\n"
    )
    return run_snakemake(
        "-c1",
        f"{tmp_path}/results/data/{target}",
        f"--configfile={cfg}",
        env={"DATA_MIRROR": str(tmp_path / "empty-mirror")},
        timeout=300,
    )


@pytest.mark.workflow
@pytest.mark.checkout
def test_missing_usps_stops_before_any_job(tmp_path):
    """USPS has no public URL: without it in the mirror the run stops with one line saying where to get it."""
    proc = _with_empty_mirror(tmp_path, "usps8.npz", allow_download=True)
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    lines = [ln for ln in out.splitlines() if "usps/usps.h5" in ln]
    assert len(lines) == 1 and "not found" in lines[0] and "kaggle.com/datasets/bistaumanga/usps-dataset" in lines[0]
    assert "Traceback" not in out
    assert "rule data_raw:" not in out, "a job started"
    assert not (tmp_path / "results" / "logs").exists()


@pytest.mark.workflow
@pytest.mark.checkout
def test_missing_mirror_file_is_one_clear_error(tmp_path):
    """The default profile with an empty mirror and no downloads stops naming the file."""
    proc = _with_empty_mirror(tmp_path, "dna.npz", allow_download=False)
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert re.search(r"ERROR dna/dna\.scale(\.t)?: not found \(mirror .*DATA_MIRROR", out), out[-3000:]
    assert "Traceback" not in out
    assert not (tmp_path / "results" / "data" / "dna.npz").exists()
    assert not list((tmp_path / "results" / "data").glob("raw/dna/*"))


@pytest.mark.workflow
@pytest.mark.checkout
def test_smoke_profile_end_to_end(smoke_run):
    """Every rule of the smoke profile runs; the summary lists claims of every paper."""
    res, fig, args, report = smoke_run
    summary = pd.read_csv(res / "replication_summary.csv", dtype=str, keep_default_na=False)
    assert set(summary["paper"]) == {
        "saul1996", "yokoyama2019", "salakhutdinov2010", "carlson2016", "bruegge2013", "calibration"
    }  # fmt: skip
    assert set(summary["verdict"]) <= {"reproduced", "not reproduced", "inconclusive", "not run"}
    assert summary["claim_id"].is_unique
    assert (summary["profile"] == "smoke").all()
    md = (res / "REPLICATION.md").read_text()
    assert "# Replication summary" in md and "Profile: **smoke**" in md
    for name in ["mnist.npz", "digits8.npz", "dna.npz", "toys.npz"]:
        assert (res / "data" / name).exists()
    # Every job logs what it used; long loops log their progress (elapsed, time left).
    logs = {p: p.read_text() for p in (res / "logs").rglob("*.log") if p.name != "summary.log"}
    assert logs and all("job resources: cpu" in text for text in logs.values())
    assert any(re.search(r": \d+/\d+ \(\d+%\), [\d:]+ elapsed, [\d:]+ left", text) for text in logs.values())
    figs = sorted(p.name for p in fig.rglob("*.png"))
    assert len(figs) >= 15, figs
    # A second invocation finds everything up to date: the code digests in the
    # rules' params are stable from one snakemake process to the next.
    proc = run_snakemake("-n", "all", *args, timeout=300)
    assert proc.returncode == 0 and "Nothing to be done" in proc.stdout + proc.stderr, (proc.stdout + proc.stderr)[
        -3000:
    ]
    html = report.read_text(errors="replace")
    assert "fig5.png" in html and "fig3_slem.png" in html and "rmse_sweeps.png" in html


@pytest.mark.workflow
@pytest.mark.checkout
@needs_browser
def test_report_captions_from_the_run_config(smoke_run):
    """Captions are rendered from the config of the run (Jinja in workflow/report/*.rst).

    None keeps a template tag, and saul1996 Fig. 5 states the smoke profile's count. The report is a
    React app: its captions are read from the DOM Chromium renders.
    """
    _, _, _, report = smoke_run
    dom = browser.rendered_dom(report)
    files = json.loads(re.search(r"var results = (\{.*\});", dom).group(1))
    captions = {name: " ".join(f["caption"].split()) for name, f in files.items()}
    assert not [name for name, c in captions.items() if "{{" in c or "{%" in c]
    n_networks = yaml.safe_load((ROOT / "config" / "smoke.yaml").read_text())["saul1996"]["fig5"]["n_networks"]
    (fig5,) = [c for name, c in captions.items() if name.endswith("saul1996/fig5.png")]
    assert f"This run: profile <strong>smoke</strong>; {n_networks} random 2x4x6 networks." in fig5
