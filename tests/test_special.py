"""bmrep.special: the compiled logistic function against scipy.special.expit."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit

from bmrep.special import logistic_


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


def test_logistic_refuses_what_it_cannot_overwrite():
    with pytest.raises(ValueError, match="C-contiguous"):
        logistic_(np.zeros((4, 3)).T)
    with pytest.raises(TypeError, match="float64 or float32"):
        logistic_(np.zeros(3, np.int64))
    ro = np.zeros(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        logistic_(ro)
