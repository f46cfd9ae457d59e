"""The compiled temperature step (bmrep.sampling._tempering) computes the numpy expressions it replaced, bit for bit.

``temperature_conditional`` and ``sample_temperatures`` were numpy
expressions (below, as the reference); their compiled passes must give the
same q and the same draws to the last bit, so that a tempered run's path and
every estimate built on q are unchanged (the smoke manifest depends on it).
"""

import numpy as np
import pytest

from bmrep.sampling._tempering import normalise_rows, sample_rows, shifted_logits
from bmrep.sampling.simulated_tempering import _temperature_logits, sample_temperatures, temperature_conditional


def numpy_conditional(delta, betas, log_prior, log_zhat):
    a = _temperature_logits(delta, betas, log_prior, log_zhat)  # eq. 7's log-odds, the numpy definition
    a -= a.max(axis=1, keepdims=True)
    np.exp(a, out=a)
    a /= a.sum(axis=1, keepdims=True)
    return a


def numpy_draws(q, rng):
    cdf = np.cumsum(q, axis=1)
    u = rng.random(q.shape[0]) * cdf[:, -1]
    return np.minimum((cdf < u[:, None]).sum(axis=1), q.shape[1] - 1)


def random_case(rng):
    # every branch of numpy's pairwise sum (< 8, <= 128, halves) and wide ranges of logits
    K = int(rng.choice([1, 2, 7, 8, 9, 100, 128, 129, 257, 1000, int(rng.integers(1, 2000))]))
    n = int(rng.integers(1, 40))
    betas = np.sort(rng.random(K))
    log_prior = np.full(K, -np.log(K))
    log_zhat = rng.normal(size=K) * rng.choice([0.1, 30.0, 800.0])
    delta = rng.normal(size=n) * rng.choice([0.1, 50.0, 3000.0])
    return delta, betas, log_prior, log_zhat


def test_conditional_and_draws_are_the_numpy_expressions_bit_for_bit():
    rng = np.random.default_rng(11)
    for case in range(300):
        delta, betas, log_prior, log_zhat = random_case(rng)
        q = temperature_conditional(delta, betas, log_prior, log_zhat)
        q_ref = numpy_conditional(delta, betas, log_prior, log_zhat)
        np.testing.assert_array_equal(q, q_ref)
        k = sample_temperatures(q, np.random.default_rng(case))
        k_ref = numpy_draws(q_ref, np.random.default_rng(case))
        np.testing.assert_array_equal(k, k_ref)
        assert k.dtype == k_ref.dtype


def test_draws_hit_the_ends_and_unnormalised_rows_as_numpy():
    # rows with zero mass in front and behind, unnormalised rows; u = 0 gives index 0 (no sum is below 0)
    q = np.array([[0.0, 0.0, 2.0, 1.0], [0.0, 0.0, 0.0, 5.0], [3.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]])
    for seed in range(50):
        np.testing.assert_array_equal(
            sample_temperatures(q, np.random.default_rng(seed)), numpy_draws(q, np.random.default_rng(seed))
        )
    k = np.empty(4, np.int64)
    sample_rows(q, np.zeros(4), k)
    np.testing.assert_array_equal(k, [0, 0, 0, 0])
    sample_rows(q, np.full(4, np.nextafter(1.0, 0.0)), k)
    np.testing.assert_array_equal(k, [3, 3, 0, 3])


def test_nan_logits_give_nan_rows_and_the_first_temperature_as_numpy():
    delta = np.array([1.0, np.nan, 2.0])
    betas, lp, lz = np.linspace(0, 1, 5), np.zeros(5), np.zeros(5)
    q = temperature_conditional(delta, betas, lp, lz)
    with np.errstate(invalid="ignore"):
        q_ref = numpy_conditional(delta, betas, lp, lz)
    np.testing.assert_array_equal(q, q_ref)  # NaNs compare equal here
    assert np.isnan(q[1]).all() and np.isfinite(q[[0, 2]]).all()
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(
            sample_temperatures(q, np.random.default_rng(3)), numpy_draws(q, np.random.default_rng(3))
        )


def test_shape_errors_are_one_line_value_errors():
    with pytest.raises(ValueError, match="shapes differ"):
        shifted_logits(np.zeros(3), np.zeros(4), np.zeros(4), np.empty((2, 4)))
    with pytest.raises(ValueError, match="shapes differ"):
        sample_rows(np.ones((3, 4)), np.zeros(2), np.empty(3, np.int64))
    a = np.ones((2, 3))
    normalise_rows(a)
    np.testing.assert_array_equal(a, np.full((2, 3), 1.0 / 3.0))
