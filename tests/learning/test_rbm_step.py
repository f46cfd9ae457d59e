"""The compiled SGD update of small RBMs (bmrep.learning._rbm_step) against the numpy update, bit for bit.

``train_rbm`` takes the compiled update for a float64 RBM trained with
``rbm_gradient`` and plain SGD; passing the same gradient wrapped in another
function makes it run the numpy loop, which is the reference. Whole trainings
(Brügge et al. 2013, sec. 4.2: CD-k, PCD-k, t-PT_k with G, T and a blend,
batch and minibatch learning, 16x16 and 784x10) must give identical
parameters and identical evaluation histories.
"""

import numpy as np
import pytest

from bmrep.datasets.toys import bars_and_stripes
from bmrep.learning import _rbm_step
from bmrep.learning.negative_phases import CDChains, PTChains
from bmrep.learning.optimizers import SGD
from bmrep.learning.rbm_training import compiled_step, rbm_gradient, train_rbm
from bmrep.models.rbm import RBM
from bmrep.sampling.operators import operator_from_name
from bmrep.sampling.streams import ChainStreams


def _numpy_gradient(model, vd, vm):
    return rbm_gradient(model, vd, vm)  # another callable: train_rbm runs its numpy loop


def _phase(alg, op, n_chains, seed):
    streams = ChainStreams.from_seed(seed, "test_rbm_step", alg, n_chains=n_chains * (3 if alg == "pt" else 1))
    if alg == "pt":
        return PTChains(operator_from_name(op), 3, 1, streams=streams, swap_rng=np.random.default_rng(seed + 1))
    return CDChains(operator_from_name(op), 3, persistent=(alg == "pcd"), streams=streams)


def _train(X, n_hidden, alg, op, batch_size, compiled, lr=0.1, n_updates=60, seed=5):
    rbm = RBM.random(X.shape[1], n_hidden, np.random.default_rng(seed), scale=0.1)
    B = len(X) if batch_size is None else batch_size
    return train_rbm(
        rbm,
        X,
        negative_phase=_phase(alg, op, B, seed),
        batch_size=batch_size,
        n_updates=n_updates,
        optimizer=SGD(lr),
        rng=np.random.default_rng(seed + 2),
        callback=lambda t, m: float(m.W.sum() + m.b.sum() - m.c.sum()),
        callback_every=20,
        gradient=rbm_gradient if compiled else _numpy_gradient,
    )


def _same(a, b):
    (ma, ha), (mb, hb) = a, b
    for k in ("W", "b", "c"):
        assert np.array_equal(ma.params()[k], mb.params()[k]), k
    assert ha == hb


@pytest.mark.parametrize("alg", ["cd", "pcd", "pt"])
@pytest.mark.parametrize("op", ["G", "T", "blend:0.3"])
def test_small_rbm_training_is_bit_identical(alg, op):
    X = bars_and_stripes(4).astype(np.float64)  # batch learning, 16 visible
    _same(_train(X, 16, alg, op, None, True), _train(X, 16, alg, op, None, False))
    Y = (np.random.default_rng(1).random((200, 16)) < 0.3).astype(np.float64)  # minibatches of 50
    _same(_train(Y, 16, alg, op, 50, True), _train(Y, 16, alg, op, 50, False))


@pytest.mark.parametrize("alg", ["cd", "pt"])
def test_mnist_sized_training_is_bit_identical(alg):
    X = (np.random.default_rng(2).random((300, 784)) < 0.15).astype(np.float64)
    _same(_train(X, 10, alg, "T", 100, True, n_updates=12), _train(X, 10, alg, "T", 100, False, n_updates=12))


def test_compiled_step_taken_only_where_it_is_exact():
    X = bars_and_stripes(4).astype(np.float64)
    rbm = RBM.random(16, 8, np.random.default_rng(0))
    phase = _phase("cd", "G", len(X), 0)
    phase.start(rbm, X, len(X), np.random.default_rng(0))
    assert compiled_step(rbm, X, len(X), phase, SGD(0.1), rbm_gradient, 0.0) is not None
    assert compiled_step(rbm, X, len(X), phase, SGD(0.1, momentum=0.5), rbm_gradient, 0.0) is None
    assert compiled_step(rbm, X, len(X), phase, SGD(0.1), rbm_gradient, 1e-4) is None
    assert compiled_step(rbm, X, len(X), phase, SGD(0.1), _numpy_gradient, 0.0) is None
    assert compiled_step(rbm.astype(np.float32), X, len(X), phase, SGD(0.1), rbm_gradient, 0.0) is None
    assert _rbm_step.NUMPY_BLAS  # the pinned numpy wheel: products through its own cblas_dgemm


def test_matmul_fallback_gives_the_same_bits():
    rng = np.random.default_rng(3)
    X = (rng.random((60, 16)) < 0.4).astype(np.float64)
    vm = (rng.random((30, 16)) < 0.5).astype(np.float64)
    out = []
    for blas in (True, False):
        rbm = RBM.random(16, 16, np.random.default_rng(4), scale=0.5)
        step = _rbm_step.SGDStep(rbm.W, rbm.b, rbm.c, X, 30, 30, numpy_blas=blas)
        for t in range(5):
            assert step(np.arange(30) + t, 0.05, vm)
        out.append(rbm)
    _same((out[0], []), (out[1], []))


@pytest.mark.parametrize("gradient", [rbm_gradient, _numpy_gradient])
def test_non_finite_parameters_stop_training(gradient):
    X = bars_and_stripes(4).astype(np.float64)
    rbm = RBM.random(16, 4, np.random.default_rng(0))
    with pytest.raises(FloatingPointError, match="non-finite at update 1"):
        train_rbm(
            rbm,
            X,
            negative_phase=_phase("cd", "G", len(X), 0),
            batch_size=None,
            n_updates=3,
            optimizer=SGD(float("inf")),
            rng=np.random.default_rng(0),
            gradient=gradient,
        )


def test_bad_minibatch_rows_are_refused():
    X = np.zeros((10, 4))
    rbm = RBM.random(4, 3, np.random.default_rng(0))
    step = _rbm_step.SGDStep(rbm.W, rbm.b, rbm.c, X, 2, 2)
    with pytest.raises(IndexError, match="out of range"):
        step(np.array([0, 10]), 0.1, np.zeros((2, 4)))
    with pytest.raises(ValueError, match="minibatch has 2 rows"):
        step(np.array([0, 1, 2]), 0.1, np.zeros((2, 4)))
