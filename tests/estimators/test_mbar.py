"""MBAR through pymbar (bmrep.estimators.mbar): agreement with RTS and the explicit convergence check."""

import numpy as np
import pytest

from bmrep.estimators.mbar import MBARConvergenceError, mbar_log_z, mbar_self_consistency_residual
from bmrep.estimators.rts import TemperingStats, uniform_log_prior
from bmrep.sampling.simulated_tempering import log_temperature_conditional
from support.testsystems import GaussianFamily

Z_MAX = 4.0


def tempered_samples(n=20000, K=12, seed=0, g=None):
    g = GaussianFamily() if g is None else g
    b = np.linspace(0, 1, K)
    lp = uniform_log_prior(K)
    lz = np.array([g.log_z(x) for x in b])
    lzhat = lz + np.random.default_rng(seed).normal(0, 0.3, K)
    lzhat[0] = lz[0]
    d, k, _ = g.tempered_joint_samples(b, lp, lzhat, n, np.random.default_rng(seed + 1))
    return g, b, lp, lz, lzhat, d, k


def test_mbar_agrees_with_rts_and_exact_on_a_toy_problem(tempered_system):
    g, b, lp, lz, lzhat, d, k = tempered_samples(g=tempered_system)
    m = mbar_log_z(d, k, b, lz[0])
    n_chains = 40
    stats = TemperingStats(len(b), n_chains)
    q = np.exp(log_temperature_conditional(d, b, lp, lzhat))
    for t in range(len(d) // n_chains):
        sl = slice(t * n_chains, (t + 1) * n_chains)
        stats.add(q[sl], k[sl])
    rts, se = stats.rts(lp, lzhat)[-1], stats.stderr()[-1]
    assert abs(m.estimate - lz[-1]) / m.stderr < Z_MAX
    assert abs(rts - lz[-1]) / se < Z_MAX
    assert abs(m.estimate - rts) / np.hypot(m.stderr, se) < Z_MAX
    assert m.details["residual"] < 1e-6


def test_a_starting_point_changes_the_iterations_not_the_solution():
    g, b, lp, lz, lzhat, d, k = tempered_samples(n=5000)
    cold = mbar_log_z(d, k, b, lz[0])
    warm = mbar_log_z(d, k, b, lz[0], initial_log_z=lzhat)
    far = mbar_log_z(d, k, b, lz[0], initial_log_z=lz + 5.0 * b)
    assert warm.estimate == pytest.approx(cold.estimate, abs=1e-6) == far.estimate
    assert warm.stderr == pytest.approx(cold.stderr, rel=1e-4)


def test_self_consistency_residual_detects_wrong_free_energies():
    _, b, _, _, _, d, k = tempered_samples(n=3000)
    u = -b[:, None] * d[None, :]
    N = np.bincount(k, minlength=len(b))
    from pymbar import MBAR

    f = MBAR(u, N, relative_tolerance=1e-10).f_k
    assert mbar_self_consistency_residual(u, N, f) < 1e-6
    f_bad = f + np.linspace(0, 0.5, len(b))
    assert mbar_self_consistency_residual(u, N, f_bad) > 1e-2


def test_silent_pymbar_failure_raises(monkeypatch):
    """If pymbar returns free energies that do not solve the MBAR equations, the wrapper raises."""
    import pymbar

    class Broken:
        def __init__(self, u_kn, N_k, **kw):
            self.f_k = np.linspace(0, 3, len(N_k))

    monkeypatch.setattr(pymbar, "MBAR", Broken)
    _, b, _, _, _, d, k = tempered_samples(n=2000)
    with pytest.raises(MBARConvergenceError):
        mbar_log_z(d, k, b, 0.0)


def test_tolerance_is_enforced():
    _, b, _, _, _, d, k = tempered_samples(n=2000)
    with pytest.raises(MBARConvergenceError):
        mbar_log_z(d, k, b, 0.0, tol=-1.0)
