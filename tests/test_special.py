"""bmrep.special: the compiled logistic and softplus functions against scipy.special.expit and softplus."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit, softplus

from bmrep.special import (
    affine_softplus_sum,
    exp_,
    log_,
    logistic_,
    positive_part_sum,
    softplus_,
    softplus_sum_,
    tempered_pair_sums,
    tempered_softplus_sum,
)


@pytest.mark.parametrize(("dtype", "ulps"), [(np.float64, 3), (np.float32, 2)])
def test_logistic_is_expit_to_a_few_ulp_in_place(dtype, ulps):
    x = np.concatenate([np.random.default_rng(1).normal(0, 8, 100_000), [0.0, -0.0, 1e-30, 50.0, -50.0, 800.0, -800.0]])
    y = x.astype(dtype)
    exact = expit(y.astype(np.float64))  # of the rounded inputs, in double
    out = logistic_(y)
    assert out is y and out.dtype == dtype
    tiny = np.finfo(dtype).tiny
    # relative error in ulps where the value is a normal number; below that, absolute (exp underflows to 0)
    err = np.abs(out - exact) / np.maximum(exact, tiny)
    assert err.max() <= ulps * np.finfo(dtype).eps, err.max() / np.finfo(dtype).eps
    assert out[x.size - 7] == 0.5 and out[x.size - 4] == 1.0 and 0.0 <= out.min() and out.max() <= 1.0
    assert np.all(np.diff(out[np.argsort(y, kind="stable")]) >= 0)  # monotone


@pytest.mark.parametrize("f", [logistic_, softplus_])
def test_in_place_functions_refuse_what_they_cannot_overwrite(f):
    with pytest.raises(ValueError, match="C-contiguous"):
        f(np.zeros((4, 3)).T)
    with pytest.raises(TypeError, match="float64 or float32"):
        f(np.zeros(3, np.int64))
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        f(ro)


@pytest.mark.parametrize(("dtype", "ulps", "scale"), [(np.float64, 2, 1.0), (np.float64, 2, 8.0),
                                                      (np.float64, 2, 300.0), (np.float32, 1, 30.0)])  # fmt: skip
def test_softplus_is_scipys_to_a_few_ulp_in_place(dtype, ulps, scale):
    """Relative error where softplus(x) is above 1e-300 (float32: 1e-37); below that, absolute (the
    kernels' exp flushes exp(x < -708) to 0, an error under 3.3e-308)."""
    x = np.random.default_rng(2).normal(0, scale, 200_000).astype(dtype)
    exact = softplus(x.astype(np.float64))
    out = softplus_(x.copy())
    assert out.dtype == dtype
    floor = 1e-300 if dtype == np.float64 else 1e-37
    big = exact > floor
    assert big.mean() > 0.5
    err = np.abs(out[big] - exact[big]) / exact[big]
    assert err.max() <= ulps * np.finfo(dtype).eps, err.max() / np.finfo(dtype).eps
    assert np.abs(out[~big] - exact[~big]).max(initial=0.0) < (3.3e-308 if dtype == np.float64 else 1e-37)
    assert np.all(np.diff(out[np.argsort(x, kind="stable")]) >= 0)  # monotone


def test_softplus_at_the_edges():
    x = np.array([0.0, -0.0, 1e-300, -1e-300, 36.0, 709.0, 1e308, np.inf, -745.0, -1e308, -np.inf, np.nan])
    out = softplus_(x.copy())
    np.testing.assert_array_equal(out[:7], [np.log(2), np.log(2), np.log(2), np.log(2), softplus(36.0), 709.0, 1e308])
    assert out[7] == np.inf and np.all(out[8:11] == 0.0) and np.isnan(out[11])


def test_softplus_sum_sums_the_last_axis_and_uses_up_its_argument():
    x = np.random.default_rng(3).normal(0, 4, (7, 50))
    t = x.copy()
    np.testing.assert_allclose(softplus_sum_(t), softplus(x).sum(axis=1), rtol=1e-14)
    np.testing.assert_allclose(t, softplus(x), rtol=4e-16)  # overwritten: callers pass a temporary


def test_exp_is_numpys_to_2_ulp_over_its_whole_range():
    """The mean-field solver's exp (either sign): relative error where exp(x) is a normal number, absolute below."""
    rng = np.random.default_rng(3)
    x = np.concatenate([rng.uniform(-745.0, 709.7, 200_000), rng.normal(0.0, 3.0, 200_000)])
    exact = np.exp(x)
    out = exp_(x.copy())
    normal = exact >= np.finfo(np.float64).tiny
    assert normal.mean() > 0.9
    err = np.abs(out[normal] - exact[normal]) / exact[normal]
    assert err.max() <= 2 * np.finfo(np.float64).eps, err.max() / np.finfo(np.float64).eps
    assert np.abs(out[~normal] - exact[~normal]).max() <= 5e-324  # subnormals: within one step of the grid


def test_exp_at_the_edges():
    x = np.array([0.0, -0.0, 709.78, 709.79, 1e308, np.inf, -745.1, -745.2, -1e308, -np.inf, np.nan])
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(exp_(x.copy()), np.exp(x))  # overflow to inf, underflow to 0, the last subnormal


def test_log_is_numpys_to_1_ulp_including_subnormals_and_edges():
    rng = np.random.default_rng(4)
    y = np.concatenate([np.exp(rng.uniform(-744.0, 709.0, 200_000)), rng.uniform(0.0, 3.0, 200_000),
                        [5e-324, 1e-310, np.finfo(np.float64).tiny, np.finfo(np.float64).max]])  # fmt: skip
    exact = np.log(y)
    out = log_(y.copy())
    err = np.abs(out - exact) / np.maximum(np.abs(exact), 1e-300)
    assert err.max() <= np.finfo(np.float64).eps, err.max() / np.finfo(np.float64).eps
    edges = np.array([0.0, -0.0, -1.0, 1.0, np.inf, -np.inf, np.nan, np.sqrt(0.5), np.sqrt(2.0), 2.0, 0.5])
    with np.errstate(divide="ignore", invalid="ignore"):
        np.testing.assert_array_equal(log_(edges.copy()), np.log(edges))


@pytest.mark.parametrize("f", [exp_, log_])
def test_exp_and_log_take_float64_only(f):
    with pytest.raises(TypeError, match="needs float64, got float32"):
        f(np.ones(3, np.float32))


def test_row_sums_are_the_numpy_expressions_bit_for_bit():
    # the log f terms of the tempered RBM and DBM families (AIS weights): compiled row by row, same bits
    rng = np.random.default_rng(4)
    for _ in range(200):
        n = int(rng.integers(1, 20))
        F = int(rng.choice([1, 7, 8, 100, 128, 129, 500, int(rng.integers(1, 1500))]))
        x = (rng.normal(size=(n, F)) * rng.choice([0.1, 5.0, 100.0])).astype(rng.choice([np.float32, np.float64]))
        beta, a = float(rng.random()), rng.normal(size=F)
        x64 = np.asarray(x, np.float64)
        np.testing.assert_array_equal(positive_part_sum(x), np.maximum(x64, 0.0).sum(axis=1))
        np.testing.assert_array_equal(tempered_softplus_sum(x, beta), softplus_sum_(np.multiply(-np.abs(x64), beta)))
        np.testing.assert_array_equal(
            affine_softplus_sum(x, beta, (1.0 - beta) * a), softplus_sum_(beta * x64 + (1.0 - beta) * a)
        )
        beta2 = float(rng.random())
        np.testing.assert_array_equal(
            tempered_pair_sums(x, beta, beta2),
            np.stack([positive_part_sum(x), tempered_softplus_sum(x, beta), tempered_softplus_sum(x, beta2)]),
        )
    x = np.array([[np.nan, 1.0, -2.0], [-0.0, -1.0, 3.0]])
    np.testing.assert_array_equal(positive_part_sum(x), np.maximum(x, 0.0).sum(axis=1))  # NaN rows compare equal
    with pytest.raises(TypeError, match="2-D float32 or float64"):
        positive_part_sum(np.zeros(3))
    with pytest.raises(TypeError, match="2-D float32 or float64"):
        tempered_softplus_sum(np.zeros((2, 3), np.int64), 0.5)
