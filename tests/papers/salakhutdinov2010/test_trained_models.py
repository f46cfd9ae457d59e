"""Published and adopted DBMs (issue 51): what a training keeps beyond its run, and the checks on taking it back.

The workflow path (export, then a run in a fresh directory adopting it bit for bit) is tests/house/test_reruns.py's.
"""

from __future__ import annotations

import numpy as np
import pytest

from bmrep.papers.salakhutdinov2010.trained import adopted_model, check_adoptable, published_model

TRAIN = {"n_updates": 200, "cast_gamma": 10.0, "tt_every": 10}
EVAL = {"final_ais": {"n_betas": 500, "n_runs": 20}, "final_replicates": 2}


def _training_output():
    rng = np.random.default_rng(0)
    params = {"W1": rng.random((6, 4)), "W2": rng.random((4, 3)), "b": rng.random(6), "c1": rng.random(4),
              "c2": rng.random(3)}  # fmt: skip
    snaps = {f"snapshot_{k}": np.stack([v * 0, v * 0.5, v]) for k, v in params.items()}
    arrays = {**{k: v.astype(np.float32) for k, v in params.items()}, **snaps, "tempering_occupancy": np.ones((2, 3))}
    arrays["snapshot_updates"] = np.array([0, 100, 200])
    meta = {"algorithm": "CAST", "repeat": 0, "seed": 7, "settings": TRAIN, "shape": [6, 4, 3]}
    return arrays, meta


def test_the_published_model_drops_the_snapshots_and_records_its_evaluation():
    arrays, meta = _training_output()
    pub, side = published_model(arrays, meta, EVAL)
    assert sorted(pub) == ["W1", "W2", "b", "c1", "c2", "tempering_occupancy"]
    assert side["final_update"] == 200 and side["evaluation"] == EVAL and side["settings"] == TRAIN


def test_an_adopted_model_has_the_final_parameters_as_its_one_snapshot():
    arrays, meta = _training_output()
    pub, side = published_model(arrays, meta, EVAL)
    back, back_meta = adopted_model(pub, side, "docs/x/CAST.npz")
    assert back["snapshot_updates"].tolist() == [200]
    for k in ("W1", "W2", "b", "c1", "c2"):
        np.testing.assert_array_equal(back[f"snapshot_{k}"][0], arrays[k])  # the training's last snapshot, float32
        np.testing.assert_array_equal(back[f"snapshot_{k}"][-1], np.asarray(arrays[f"snapshot_{k}"][-1], np.float32))
    assert back_meta["adopted_from"] == "docs/x/CAST.npz" and "evaluation" not in back_meta
    assert "adopted_from" not in published_model(back, back_meta, EVAL)[1]  # republished as it was


def test_adoption_refuses_other_settings_in_one_line_naming_them():
    arrays, meta = _training_output()
    _, side = published_model(arrays, meta, EVAL)
    check_adoptable(side, train=TRAIN, evaluation=EVAL, seed=7, repeat=0, algorithm="CAST")  # the same: accepted
    with pytest.raises(ValueError) as err:
        check_adoptable(
            side,
            train={**TRAIN, "tt_every": 1},
            evaluation={**EVAL, "final_ais": {"n_betas": 10000, "n_runs": 20}},
            seed=8,
            algorithm="CAST",
        )
    msg = str(err.value)
    assert "\n" not in msg
    assert "settings.tt_every: published 10, this run 1" in msg
    assert "evaluation.final_ais.n_betas: published 500, this run 10000" in msg
    assert "seed: published 7, this run 8" in msg and "algorithm" not in msg


def test_a_model_without_its_parameters_is_not_published():
    arrays, meta = _training_output()
    del arrays["W2"]
    with pytest.raises(ValueError, match="missing W2"):
        published_model(arrays, meta, EVAL)


def test_a_sidecar_without_training_images_was_trained_on_the_fixed_images():
    """Every model published before ``training_images`` existed lacks the key: it adopts into a fixed run only."""
    arrays, meta = _training_output()
    _, side = published_model(arrays, meta, EVAL)
    assert "training_images" not in side
    check_adoptable(side, train=TRAIN, seed=7, training_images="fixed")
    with pytest.raises(ValueError, match="training_images: published 'fixed', this run 'redrawn'"):
        check_adoptable(side, train=TRAIN, seed=7, training_images="redrawn")
    _, redrawn = published_model(arrays, {**meta, "training_images": "redrawn"}, EVAL)
    check_adoptable(redrawn, train=TRAIN, seed=7, training_images="redrawn")
    with pytest.raises(ValueError, match="training_images: published 'redrawn', this run 'fixed'"):
        check_adoptable(redrawn, train=TRAIN, seed=7, training_images="fixed")
