"""Training images binarised again at every minibatch (``training_images: redrawn``, issue 63's question).

The draw has the grey level as its probability (a z-score on many pixels); 0/1 images come back unchanged,
so a training with redrawing on 0/1 images is bit for bit the training on the fixed images (the redrawing
generator is its own: nothing else's stream moves); on grey images it trains on other images.
"""

from __future__ import annotations

import numpy as np
import pytest

from bmrep.learning.dbm_pretraining import pretrain_dbm
from bmrep.learning.dbm_samplers import SamplerSettings, make_sampler
from bmrep.learning.dbm_training import train_dbm
from bmrep.learning.redraw import redraw_images
from bmrep.models.dbm import DBM
from bmrep.sampling import ChainStreams


def test_each_pixel_is_on_with_its_grey_level():
    grey = np.tile(np.array([0.0, 0.1, 0.5, 0.9, 1.0], np.float32), (4000, 1))
    draws = redraw_images(grey, np.random.default_rng(11))
    assert draws.dtype == np.float32 and set(np.unique(draws)) <= {0.0, 1.0}
    assert draws[:, 0].sum() == 0 and draws[:, 4].sum() == 4000  # never and always
    for j, p in ((1, 0.1), (2, 0.5), (3, 0.9)):
        z = (draws[:, j].mean() - p) / np.sqrt(p * (1 - p) / len(draws))
        assert abs(z) < 4, (p, draws[:, j].mean(), z)
    again = redraw_images(grey, np.random.default_rng(12))
    assert not np.array_equal(draws, again)  # a new draw, not one fixed sample


def _binary(n=60, d=16, seed=0):
    return (np.random.default_rng(seed).random((n, d)) < 0.3).astype(np.float32)


def _train(X, redraw_rng=None, n_updates=60):
    dbm = DBM.random(16, 8, 6, np.random.default_rng(1), scale=0.1).astype(np.float32)
    sampler = make_sampler(
        "SAP", dbm, ChainStreams.from_seed(2, "test_redraw", n_chains=10), np.random.default_rng(3),
        SamplerSettings(n_chains=10),
    )  # fmt: skip
    train_dbm(
        dbm, X, sampler, n_updates=n_updates, batch_size=10, lr=0.05, rng=np.random.default_rng(4),
        redraw_rng=redraw_rng,
    )  # fmt: skip
    return dbm.params()


def test_redrawing_binary_images_is_the_fixed_training_bit_for_bit():
    X = _binary()
    fixed, redrawn = _train(X), _train(X, np.random.default_rng(5))
    for k in fixed:
        np.testing.assert_array_equal(fixed[k], redrawn[k])


def test_redrawing_grey_images_trains_on_new_draws():
    grey = np.random.default_rng(6).random((60, 16)).astype(np.float32) * 0.6
    once = redraw_images(grey, np.random.default_rng(7))
    a, b = _train(grey, np.random.default_rng(8)), _train(once)
    assert not np.allclose(a["W1"], b["W1"])
    # same redrawing stream, same training: reproducible
    np.testing.assert_array_equal(a["W1"], _train(grey, np.random.default_rng(8))["W1"])


def _pretrain(X, grey=None, redraw_rng=None):
    return pretrain_dbm(
        X, 8, 6, n_epochs=3, batch_size=10, lr=0.05, momentum=0.5, weight_decay=1e-4,
        rng=np.random.default_rng(9), streams=ChainStreams.from_seed(10, "test_redraw_pre", n_chains=10),
        grey=grey, redraw_rng=redraw_rng,
    ).params()  # fmt: skip


def test_pretraining_on_redrawn_binary_images_is_the_fixed_pretraining():
    X = _binary()
    fixed, redrawn = _pretrain(X), _pretrain(X, X.copy(), np.random.default_rng(5))
    for k in fixed:
        np.testing.assert_array_equal(fixed[k], redrawn[k])
    grey = np.clip(X * 0.7 + 0.15, 0, 1)
    assert not np.allclose(_pretrain(X, grey, np.random.default_rng(5))["W1"], fixed["W1"])


def test_pretraining_refuses_half_a_redrawing():
    X = _binary()
    with pytest.raises(ValueError, match="both the grey levels and redraw_rng"):
        _pretrain(X, grey=X)
    with pytest.raises(ValueError, match="grey levels of shape"):
        _pretrain(X, X[:10], np.random.default_rng(0))
