"""Tempered HMC (bmrep.sampling.hmc) and the Gaussian-mixture target (bmrep.models.gaussian_mixture)."""

import numpy as np
import pytest
from scipy import integrate

from bmrep.estimators.rts import uniform_log_prior
from bmrep.estimators.rts_run import RTSRun
from bmrep.models.gaussian_mixture import GaussianMixture
from bmrep.sampling.hmc import TemperedHMC
from support.testsystems import GaussianFamily

Z_MAX = 4.0


def test_mixture_log_z_by_quadrature():
    gm = GaussianMixture.two_components(dim=1, separation=3.0, scale=0.8, weight=0.3, log_z=2.0)
    val, _ = integrate.quad(lambda x: np.exp(gm.log_f(np.array([[x]]))[0]), -20, 20, points=[-1.5, 1.5])
    assert np.log(val) == pytest.approx(gm.log_z, abs=1e-8)
    assert gm.log_z == pytest.approx(2.0)
    gm2 = GaussianMixture.two_components(dim=2, separation=2.0, scale=1.0, weight=0.6, log_z=-1.0, base_scale=4.0)
    val2, _ = integrate.dblquad(lambda y, x: np.exp(gm2.log_f(np.array([[x, y]]))[0]), -12, 12, -12, 12)
    assert np.log(val2) == pytest.approx(-1.0, abs=1e-6)
    val3, _ = integrate.dblquad(lambda y, x: np.exp(gm2.log_base(np.array([[x, y]]))[0]), -30, 30, -30, 30)
    assert val3 == pytest.approx(1.0, abs=1e-6)


def test_gradients_match_finite_differences():
    gm = GaussianMixture.two_components(dim=4)
    x = np.random.default_rng(0).normal(size=(3, 4))
    betas = np.array([0.0, 0.4, 1.0])
    g = gm.grad_log_f_tempered(x, betas)
    h = 1e-6
    for j in range(4):
        e = np.zeros(4)
        e[j] = h
        fd = (gm.log_f_tempered(x + e, betas) - gm.log_f_tempered(x - e, betas)) / (2 * h)
        np.testing.assert_allclose(g[:, j], fd, rtol=1e-5, atol=1e-6)


def test_hmc_samples_a_tempered_gaussian():
    """Fixed beta = 0.5 on a family whose tempered distribution is Gaussian: mean and variance z-tests."""
    fam = GaussianFamily(dim=2)
    gm = GaussianMixture(fam.mu[None, :], np.array([fam.sigma]), np.array([fam.log_a]), fam.s)
    betas = np.array([0.0, 0.5, 1.0])
    hmc = TemperedHMC(gm.log_f_tempered, gm.grad_log_f_tempered, betas, step_size=0.5, n_leapfrog=8)
    rng = np.random.default_rng(1)
    n_chains = 200
    x = rng.normal(size=(n_chains, 2))
    cb = np.full(n_chains, 0.5)
    for _ in range(200):
        hmc.step(x, cb, rng)
    hmc.freeze()
    xs = []
    for _ in range(50):
        hmc.step(x, cb, rng)
        xs.append(x.copy())
    xs = np.array(xs)  # (50, chains, 2)
    lam = 0.5 / fam.sigma**2 + 0.5 / fam.s**2
    mean_true = 0.5 * fam.mu / fam.sigma**2 / lam
    chain_means = xs.mean(axis=0)  # independent chains
    z = (chain_means.mean(0) - mean_true) / (chain_means.std(0, ddof=1) / np.sqrt(n_chains))
    assert np.all(np.abs(z) < Z_MAX), z
    var = xs[-1].var(axis=0, ddof=1)  # the last state of independent chains
    z_var = (var - 1 / lam) / ((1 / lam) * np.sqrt(2 / (n_chains - 1)))
    assert np.all(np.abs(z_var) < Z_MAX), z_var
    acc = hmc.accept_sum[1] / hmc.accept_n[1]
    assert 0.45 < acc < 0.9, acc


def test_step_sizes_adapt_per_temperature():
    gm = GaussianMixture.two_components(dim=10)
    betas = np.linspace(0, 1, 5)
    hmc = TemperedHMC(gm.log_f_tempered, gm.grad_log_f_tempered, betas, step_size=0.05)
    rng = np.random.default_rng(2)
    x = rng.normal(0, 5, size=(50, 10))
    cb = np.repeat(betas, 10)
    for _ in range(300):
        hmc.step(x, cb, rng)
    # the broad base admits a much larger step than the narrow target components
    assert hmc.step_sizes[0] > 2 * hmc.step_sizes[-1]
    hmc.freeze()
    frozen = hmc.step_sizes.copy()
    hmc.step(x, cb, rng)
    np.testing.assert_array_equal(hmc.step_sizes, frozen)


def test_rts_with_tempered_hmc_on_the_mixture():
    """Fig. 2's machinery end to end: RTS within its stated error of the known log Z."""
    gm = GaussianMixture.two_components(dim=10, separation=3.0)
    K = 20
    betas = np.linspace(0, 1, K)
    lp = uniform_log_prior(K)
    rng = np.random.default_rng(3)
    n_chains = 20
    hmc = TemperedHMC(gm.log_f_tempered, gm.grad_log_f_tempered, betas, step_size=0.2, n_leapfrog=10)
    x = rng.normal(0, gm.base_scale, (n_chains, gm.dim))

    def step(s, cb):
        hmc.step(s, cb, rng)
        return gm.delta(s)

    run = RTSRun(x, step, betas, lp, n_chains, rng, np.zeros(K))
    run.sweeps(200, restart=True)  # the step sizes adapt here, then stay fixed
    hmc.freeze()
    run.initial_iterations(50, 6, stop=False)
    checkpoints, _, _ = run.run([150, 750], restart=True)
    se = [rts.stderr for _, rts, _ in checkpoints]
    est = checkpoints[-1][1].estimate
    assert abs(est - gm.log_z) / se[-1] < Z_MAX, (est, gm.log_z, se)
    assert se[1] < se[0]  # the stated error shrinks with the budget


def _beta0_chain(jitter: float, n_steps: int, burn_in: int = 100) -> np.ndarray:
    """One chain at beta = 0 (the N(0, 5^2 I) base, d = 10) at the resonant frozen step of Fig. 2.

    ``eps = 2 s sin(pi / (2 L))`` makes ``L`` leapfrog steps on N(0, s^2) an
    exact half turn (eps L = 15.64 for s = 5, L = 10: the adapted value the
    issue-20 audit found), so without jitter x maps to -x at every transition.
    The chain starts at the base's mode.
    """
    gm = GaussianMixture.two_components(dim=10, base_scale=5.0)
    L = 10
    eps = 2 * gm.base_scale * np.sin(np.pi / (2 * L))
    hmc = TemperedHMC(gm.log_f_tempered, gm.grad_log_f_tempered, np.array([0.0, 1.0]), eps, L, jitter=jitter)
    hmc.freeze()
    rng = np.random.default_rng(4)
    x, cb = np.zeros((1, gm.dim)), np.zeros(1)
    xs = np.empty((n_steps, gm.dim))
    for t in range(n_steps):
        hmc.step(x, cb, rng)
        xs[t] = x[0]
    return xs[burn_in:]


def _batch_z(values: np.ndarray, target: float, n_batches: int = 40) -> float:
    """z-score of the mean of ``values`` (time x coordinates) against ``target``, by batch means over time."""
    per_step = values.mean(axis=1)  # the coordinates are exchangeable: pool them per step
    batches = per_step[: per_step.size // n_batches * n_batches].reshape(n_batches, -1).mean(axis=1)
    return float((batches.mean() - target) / (batches.std(ddof=1) / np.sqrt(n_batches)))


def test_jittered_hmc_mixes_at_beta_0():
    """Spec section 4, Fig. 2: at beta = 0 the chain's sample mean and variance match N(0, 5^2) (z-scores)."""
    xs = _beta0_chain(jitter=0.2, n_steps=2500)
    s2 = 25.0
    z_mean = _batch_z(xs, 0.0)
    z_var = _batch_z(xs**2, s2)  # E[x_i^2] = s^2 (mean 0)
    assert abs(z_mean) < Z_MAX and abs(z_var) < Z_MAX, (z_mean, z_var)
    assert np.mean(xs**2) == pytest.approx(s2, rel=0.1)


def test_without_jitter_the_resonant_step_does_not_mix():
    """The failure the jitter removes (issue 20): x -> -x forever, so the chain stays at its start (0)."""
    xs = _beta0_chain(jitter=0.0, n_steps=300)
    assert np.mean(xs**2) < 1e-6 * 25.0
