"""The evidence overlays (config/evidence/) stay valid configs that write only under results/evidence/<name>."""

from __future__ import annotations

import copy

import pytest
import yaml

from bmrep.pipeline.config_check import deep_merge, validate_config
from conftest import ROOT

EVIDENCE = sorted((ROOT / "config/evidence").glob("*.yaml"))
SCHEMAS = ROOT / "workflow/schemas"


def test_there_are_evidence_overlays():
    assert len(EVIDENCE) >= 3


@pytest.mark.parametrize("path", EVIDENCE, ids=lambda p: p.stem)
def test_overlay_validates_and_keeps_to_its_own_directories(path):
    overlay = yaml.safe_load(path.read_text())
    config = deep_merge(copy.deepcopy(yaml.safe_load((ROOT / "config/config.yaml").read_text())), overlay)
    validate_config(config, SCHEMAS / "config.schema.yaml")
    for paper in set(overlay) & set(config["papers"]):  # the sections the overlay changes, each by its schema
        validate_config(config[paper], SCHEMAS / f"{paper}.schema.yaml", prefix=paper)
    assert config["results_dir"] == f"results/evidence/{path.stem}"
    assert config["figures_dir"] == f"figures/evidence/{path.stem}"
    assert f"`{path.name}`" in (path.parent / "README.md").read_text()  # listed with its target and cost
