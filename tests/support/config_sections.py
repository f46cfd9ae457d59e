"""Config sections as the workflow hands them to a paper's stages: validated against the paper's schema.

Validation fills in the schema's defaults (:func:`bmrep.pipeline.config_check.validated_part`), so a test
states only what it sets and never restates a default: the schema's defaults are the only ones.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from bmrep.estimators.dbm_ais import AISSettings
from bmrep.pipeline.config_check import validated_part

SCHEMAS = Path(__file__).resolve().parents[2] / "workflow" / "schemas"
SALAKHUTDINOV2010 = SCHEMAS / "salakhutdinov2010.schema.yaml"


def section(paper: str, where: str, **keys) -> dict:
    """Part ``where`` of ``paper``'s section (``evaluation``, ``$defs.ais``): ``keys`` with the schema's defaults."""
    return validated_part(keys, SCHEMAS / f"{paper}.schema.yaml", where)


def ais_config(**keys) -> dict:
    """A salakhutdinov2010 AIS block (``curve_ais``, ``final_ais``): ``keys`` with the schema's defaults."""
    return section("salakhutdinov2010", "$defs.ais", **keys)


def ais_settings(state: str | None = None, **keys) -> AISSettings:
    """The :class:`AISSettings` of :func:`ais_config` (``keys``) annealing ``state`` (None: the schema's default)."""
    if state is None:
        schema = yaml.safe_load(SALAKHUTDINOV2010.read_text())
        state = schema["properties"]["evaluation"]["properties"]["ais_state"]["default"]
    return AISSettings.from_config(ais_config(**keys), state)


def evaluation_config(**keys) -> dict:
    """A salakhutdinov2010 ``evaluation`` section: ``keys`` over small test sizes of its required keys, validated."""
    small = {"n_betas": 20, "n_runs": 4}
    required = dict(n_mean_field=10, curve_train_subset=100, curve_ais=small, final_ais=small, final_replicates=2)
    return section("salakhutdinov2010", "evaluation", **{**required, **keys})


def training_config() -> dict:
    """The part of a salakhutdinov2010 section the joint training reads (``batch_size``, ``train``) at test sizes.

    No updates (a test spies on the loop's inputs), 10 chains, every sampler's settings stated.
    """
    train = dict(
        n_updates=0, n_chains=10, n_mean_field=5, lr_numerator=10.0, lr_offset=2000.0, weight_decay=2e-4,
        snapshot_every=10, fpcd_fast_lr=0.005, fpcd_fast_decay=0.95, tt_levels=4, tt_beta_min=0.9, tt_every=10,
        cast_n_betas=5, cast_beta_min=0.9, cast_gamma=10.0, cast_swap_every=20, cast_record_every=10,
    )  # fmt: skip
    return {"batch_size": 10, "train": train}
