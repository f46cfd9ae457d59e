"""``training_images`` of salakhutdinov2010 (issue 63's question): the once-binarised images, or redrawn.

With ``redrawn`` the job hands the training the grey levels; it cuts its minibatches from them and draws them
again with a stream keyed by the seed, not by the algorithm (common random numbers, spec section 3); grey
levels of another shape than the images are refused. The learning loops' side is tests/learning/test_redraw.py.
"""

from __future__ import annotations

import numpy as np
import pytest

import bmrep.papers.salakhutdinov2010.train as tr
from bmrep.learning.dbm_training import TrainingHistory
from bmrep.models.dbm import DBM
from bmrep.papers.salakhutdinov2010.common import grey_levels, split_mnist
from support.config_sections import training_config

SEED = 20261204
CFG = training_config()


def _mnist(n=80, d=16):
    rng = np.random.default_rng(0)
    X = rng.integers(0, 256, (n, d), dtype=np.uint8)
    return {"X_train": X, "y_train": np.arange(n) % 10, "X_test": X[:5], "y_test": np.arange(5)}


def test_grey_levels_are_the_training_rows_over_255():
    m = _mnist()
    grey = grey_levels(m, 20)
    X, _, _, _ = split_mnist(m, 20)
    assert grey.shape == X.shape and grey.dtype == np.float32
    np.testing.assert_allclose(grey, m["X_train"][:60] / 255.0, rtol=1e-6)
    assert grey.min() >= 0 and grey.max() <= 1


def test_redrawn_training_reads_the_grey_levels_with_a_stream_shared_by_the_algorithms(monkeypatch):
    seen = []

    def spy(dbm, X, sampler, *, rng, redraw_rng=None, **kw):  # the training loop's inputs, before any update
        seen.append((X, None if redraw_rng is None else redraw_rng.random(5)))
        return TrainingHistory()

    monkeypatch.setattr(tr, "train_dbm", spy)
    grey = grey_levels(_mnist(), 20)
    X = (grey > 0.5).astype(np.float32)
    dbm0 = DBM.random(16, 8, 8, np.random.default_rng(1), scale=0.1).astype(np.float32)
    out = {}
    for repeat in (0, 1):
        for alg in ("SAP", "CAST", "SAP-50"):
            seen.clear()
            tr.train(alg, dbm0, X, CFG, SEED, repeat, grey=grey)
            (out[(alg, repeat)],) = seen
            assert out[(alg, repeat)][0] is grey
    for alg in ("CAST", "SAP-50"):
        np.testing.assert_array_equal(out[(alg, 0)][1], out[("SAP", 0)][1])
    assert not np.array_equal(out[("SAP", 0)][1], out[("SAP", 1)][1])
    seen.clear()
    tr.train("SAP", dbm0, X, CFG, SEED, 0)  # fixed (the default): the images as given, no redrawing
    assert seen[0][0] is X and seen[0][1] is None


def test_redrawn_training_refuses_grey_levels_of_other_images():
    grey = grey_levels(_mnist(), 20)
    X = (grey > 0.5).astype(np.float32)
    dbm0 = DBM.random(16, 8, 8, np.random.default_rng(1), scale=0.1).astype(np.float32)
    with pytest.raises(ValueError, match="grey levels of shape"):
        tr.train("SAP", dbm0, X, CFG, SEED, 0, grey=grey[:-10])
