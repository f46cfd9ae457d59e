"""The RBM training loop with CD-k / PCD-k negative phases, checked with the exact log-likelihood."""

from __future__ import annotations

import numpy as np
import pytest

from bmrep.learning.negative_phases import CDChains
from bmrep.learning.optimizers import SGD, Adam, AdaMax
from bmrep.learning.rbm_training import rbm_gradient, train_rbm
from bmrep.models.exact import all_states
from bmrep.models.exact.rbm import log_partition, mean_log_likelihood, sample_exact
from bmrep.models.rbm import RBM
from bmrep.sampling import ChainStreams, FlipTheState, Gibbs

try:
    from bmrep.datasets.toys import bars_and_stripes

    BAS2 = bars_and_stripes(2)
except ImportError:  # pragma: no cover - the toys module is another engineer's
    BAS2 = np.array([[0, 0, 0, 0], [0, 0, 1, 1], [1, 1, 0, 0], [1, 1, 1, 1], [0, 1, 0, 1], [1, 0, 1, 0]], np.uint8)

MIN_GAIN = 0.05  # nats; the untrained model is near uniform (-4 ln 2 = -2.77)


def train(op, persistent, optimizer, n_updates=2000, k=1):
    r0 = RBM.random(4, 4, np.random.default_rng(0), scale=0.1)
    streams = ChainStreams.from_seed(0, "test_cd", n_chains=len(BAS2))
    return r0, *train_rbm(
        r0,
        BAS2,
        negative_phase=CDChains(op, k, persistent=persistent, streams=streams),
        batch_size=None,
        n_updates=n_updates,
        optimizer=optimizer,
        rng=np.random.default_rng(1),
        callback=lambda t, r: {"ll": mean_log_likelihood(r, BAS2)},
        callback_every=500,
    )


def test_bars_and_stripes_2x2_has_six_patterns():
    assert BAS2.shape == (6, 4)


@pytest.mark.parametrize(
    "op,persistent,optimizer",
    [
        (Gibbs(), False, SGD(0.1)),
        (Gibbs(), True, SGD(0.1)),
        (FlipTheState(), True, SGD(0.1)),
        (Gibbs(), False, Adam(0.01)),
        (Gibbs(), True, AdaMax(0.02)),
    ],
    ids=["CD1-G-SGD", "PCD1-G-SGD", "PCD1-T-SGD", "CD1-G-Adam", "PCD1-G-AdaMax"],
)
def test_training_increases_exact_log_likelihood(op, persistent, optimizer):
    r0, model, hist = train(op, persistent, optimizer)
    assert [h["update"] for h in hist] == [0, 500, 1000, 1500, 2000]
    ll0 = mean_log_likelihood(r0, BAS2)
    assert hist[0]["ll"] == pytest.approx(ll0)
    assert hist[-1]["ll"] == pytest.approx(mean_log_likelihood(model, BAS2))
    assert hist[-1]["ll"] > ll0 + MIN_GAIN
    assert not np.array_equal(r0.W, model.W)  # the input model is not modified in place
    assert np.all(r0.W == RBM.random(4, 4, np.random.default_rng(0), scale=0.1).W)


def test_training_is_reproducible():
    _, m1, _ = train(Gibbs(), False, SGD(0.1), n_updates=50)
    _, m2, _ = train(Gibbs(), False, SGD(0.1), n_updates=50)
    assert np.array_equal(m1.W, m2.W)


def test_gradient_with_exact_samples_matches_finite_differences():
    """rbm_gradient with exact model samples estimates d mean log p(x) / d theta."""
    rng = np.random.default_rng(2)
    r = RBM(rng.normal(0, 1, (3, 2)), rng.normal(0, 1, 3), rng.normal(0, 1, 2))
    X = all_states(3)[[1, 2, 2, 5, 7]]
    V, _ = sample_exact(r, 200_000, np.random.default_rng(3))
    g = rbm_gradient(r, X, V)
    eps = 1e-6
    for key in ("W", "b", "c"):
        fd = np.zeros_like(g[key])
        for idx in np.ndindex(fd.shape):
            p = {k: v.copy() for k, v in r.params().items()}
            p[key][idx] += eps
            up = mean_log_likelihood(RBM.from_params(p), X)
            p[key][idx] -= 2 * eps
            down = mean_log_likelihood(RBM.from_params(p), X)
            fd[idx] = (up - down) / (2 * eps)
        # Monte Carlo standard error of each entry is below 0.5 / sqrt(2e5) ~ 1.1e-3
        np.testing.assert_allclose(g[key], fd, atol=6e-3)


def test_gradient_vanishes_when_model_samples_equal_data():
    r = RBM.random(4, 3, np.random.default_rng(0), scale=1.0)
    g = rbm_gradient(r, BAS2, BAS2)
    assert all(np.allclose(v, 0) for v in g.values())


def test_weight_decay_and_minibatches():
    r0 = RBM.random(4, 4, np.random.default_rng(0), scale=0.5)
    streams = ChainStreams.from_seed(0, "decay", n_chains=3)
    kw = dict(negative_phase=CDChains(Gibbs(), 1, persistent=True, streams=streams), batch_size=3, n_updates=200)
    m_decay, _ = train_rbm(r0, BAS2, optimizer=SGD(0.05), rng=np.random.default_rng(4), weight_decay=0.5, **kw)
    streams = ChainStreams.from_seed(0, "decay", n_chains=3)
    kw["negative_phase"] = CDChains(Gibbs(), 1, persistent=True, streams=streams)
    m_plain, _ = train_rbm(r0, BAS2, optimizer=SGD(0.05), rng=np.random.default_rng(4), **kw)
    assert np.abs(m_decay.W).sum() < np.abs(m_plain.W).sum()
    assert np.isfinite(log_partition(m_plain))


def test_bad_settings_raise():
    r0 = RBM.random(4, 2, np.random.default_rng(0))
    st = ChainStreams.from_seed(0, "bad", n_chains=2)
    kw = dict(n_updates=1, optimizer=SGD(0.1), rng=np.random.default_rng(0))
    with pytest.raises(ValueError, match="k must be"):
        CDChains(Gibbs(), 0, persistent=False, streams=st)
    cd1 = CDChains(Gibbs(), 1, persistent=False, streams=st)
    with pytest.raises(ValueError, match="streams"):
        train_rbm(r0, BAS2, negative_phase=cd1, batch_size=6, **kw)
    with pytest.raises(ValueError, match="data must have shape"):
        train_rbm(r0, BAS2[:, :3], negative_phase=cd1, batch_size=2, **kw)
    with pytest.raises(ValueError):
        SGD(-0.1)
