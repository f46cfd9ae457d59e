"""Sigmoid belief network model and the mean-field bound (Saul et al. 1996).

Ground truth is exact enumeration of the hidden states on small networks.
"""

import numpy as np
import pytest
from scipy.special import expit

from bmrep.meanfield.logistic_bound import (
    gaussian_cgf,
    gaussian_softplus_bound,
    gaussian_softplus_expectation,
    minimise_softplus_bound,
)
from bmrep.meanfield.sbn_bound import (
    bound_at,
    bound_at_numpy,
    solve_bound,
    train_meanfield,
)
from bmrep.models.exact import sbn as sbn_exact
from bmrep.models.sbn import (
    SigmoidBeliefNetwork,
    layered_network,
)
from bmrep.seeds import rng
from support.testsystems import random_sbn


def _bottom_visible(sizes):
    vis = np.zeros(sum(sizes), dtype=bool)
    vis[-sizes[-1] :] = True
    return vis


# --- the model ---


def test_log_joint_normalised_and_matches_eq6():
    net = random_sbn((2, 3, 3), rng(1, "sbn", "norm"), -2, 2)
    codes = np.arange(2**8)
    states = (codes[:, None] >> np.arange(8)) & 1
    lp = net.log_joint(states)
    assert np.isclose(np.logaddexp.reduce(lp), 0.0, atol=1e-12)
    # eq. (6) term by term for one state
    s = states[123].astype(float)
    J = net.coupling_matrix
    p = expit(J @ s + net.biases)
    assert np.isclose(lp[123], np.sum(s * np.log(p) + (1 - s) * np.log1p(-p)))


def test_exact_marginal_sums_to_one():
    sizes = (2, 3, 4)
    net = random_sbn(sizes, rng(1, "sbn", "marg"), -3, 3)
    vis = _bottom_visible(sizes)
    v = ((np.arange(16)[:, None] >> np.arange(4)) & 1).astype(float)
    lp = sbn_exact.log_marginal(net, v, vis)
    assert np.isclose(np.logaddexp.reduce(lp), 0.0, atol=1e-12)


def test_ancestral_sampling_matches_exact_marginal():
    """Chi-square goodness of fit of 20000 ancestral samples to the exact P(V)."""
    from scipy.stats import chi2

    sizes = (2, 2, 3)
    net = random_sbn(sizes, rng(1, "sbn", "sample-net"), -2, 2)
    vis = _bottom_visible(sizes)
    n = 20000
    s = net.sample(n, rng(1, "sbn", "sample"))[:, vis]
    codes = s @ (1 << np.arange(3))
    counts = np.bincount(codes, minlength=8)
    v = ((np.arange(8)[:, None] >> np.arange(3)) & 1).astype(float)
    expected = n * np.exp(sbn_exact.log_marginal(net, v, vis))
    stat = np.sum((counts - expected) ** 2 / expected)
    assert stat < chi2.ppf(0.999, df=7)


def test_network_validation():
    with pytest.raises(ValueError, match="topological"):
        SigmoidBeliefNetwork(2, np.array([0]), np.array([1]), np.array([1.0]), np.zeros(2))
    with pytest.raises(ValueError, match="shape"):
        layered_network((2, 3), weights=[np.zeros((2, 3))])
    net = layered_network((2, 3))
    with pytest.raises(ValueError, match="visible"):
        solve_bound(net, np.zeros((1, 3)), np.ones(4, bool))
    with pytest.raises(ValueError, match="0 or 1"):
        solve_bound(net, np.full((1, 3), 0.5), _bottom_visible((2, 3)))


# --- Fig. 2: the logistic-expectation bound ---


def test_fig2_numbers():
    """z ~ N(0,1): exact 0.806, min over xi 0.818, xi = 0 gives 0.974 (paper, Figure 2)."""
    assert round(gaussian_softplus_expectation(0.0, 1.0), 3) == 0.806
    xi_star, best = minimise_softplus_bound(0.0, gaussian_cgf)
    assert round(best, 3) == 0.818
    assert np.isclose(xi_star, 0.5, atol=1e-6)
    assert round(float(gaussian_softplus_bound(0.0)), 3) == 0.974


def test_logistic_bound_is_an_upper_bound_for_gaussians():
    xs = np.linspace(-0.5, 1.5, 41)
    for m, s in [(0, 1), (2, 0.5), (-3, 2), (0.5, 4)]:
        exact = gaussian_softplus_expectation(m, s)
        assert np.all(gaussian_softplus_bound(xs, m, s) >= exact - 1e-12)


# --- the mean-field bound of eq. (23) ---


@pytest.mark.parametrize("scale", [1.0, 5.0, 50.0])
def test_bound_never_exceeds_exact_loglik(scale):
    """L_V <= ln P(V) on random 3x4x5 networks with U[-scale, scale] parameters."""
    sizes = (3, 4, 5)
    vis = _bottom_visible(sizes)
    worst = -np.inf
    for k in range(60):
        net = random_sbn(sizes, rng(2, "sbn", "bound", k), -scale, scale)
        v = net.sample(5, rng(2, "sbn", "bound-data", k))[:, vis]
        exact = sbn_exact.log_marginal(net, v, vis)
        sol = solve_bound(net, v, vis)
        assert np.all(np.isfinite(sol.bound))
        worst = max(worst, float(np.max(sol.bound - exact)))
    assert worst <= 1e-9


def test_bound_holds_for_arbitrary_mu_xi_and_missing_evidence():
    """Any (mu, xi) in the box gives a bound; visible units may be anywhere in the DAG."""
    sizes = (2, 3, 4)
    net = random_sbn(sizes, rng(3, "sbn", "any"), -3, 3)
    vis = np.zeros(9, dtype=bool)
    vis[[1, 3, 6, 8]] = True  # a mix of top, middle and bottom units
    g = rng(3, "sbn", "any-draws")
    s = net.sample(50, g)
    exact = sbn_exact.log_marginal(net, s[:, vis], vis)
    mu = np.where(vis, s, g.random((50, 9)))
    xi = g.random((50, 9))
    assert np.all(bound_at(net, mu, xi, vis) <= exact + 1e-12)
    sol = solve_bound(net, s[:, vis], vis)
    assert np.all(sol.bound <= exact + 1e-9)
    assert np.all(sol.bound >= bound_at(net, mu, xi, vis) - 1e-9)


def test_fixed_point_increases_bound_monotonically():
    """Each xi step and each mean-field sweep of eq. (25) does not decrease L_V."""
    sizes = (4, 6, 8)
    vis = _bottom_visible(sizes)
    for k in range(10):
        net = random_sbn(sizes, rng(4, "sbn", "mono", k), -3, 3)
        v = net.sample(3, rng(4, "sbn", "mono-data", k))[:, vis]
        sol = solve_bound(net, v, vis, trace_len=40, tol=0.0, max_iter=20)
        tr = sol.trace
        # the trace starts after the first xi step; prepend the initial bound
        L0 = bound_at(net, _init_mu(v, vis), np.full((3, 18), 0.5), vis)
        full = np.column_stack([L0, tr])
        for row in full:
            row = row[~np.isnan(row)]  # NaN after convergence
            assert len(row) >= 5
            assert np.all(np.diff(row) >= -1e-12 * (1 + np.abs(row[1:])))
            assert row[-1] > row[0]


def _init_mu(v, vis):
    mu = np.full((len(v), len(vis)), 0.5)
    mu[:, vis] = v
    return mu


def test_compiled_solver_matches_numpy_implementation():
    sizes = (3, 5, 7)
    vis = _bottom_visible(sizes)
    net = random_sbn(sizes, rng(5, "sbn", "numpy"), -2, 2)
    v = net.sample(20, rng(5, "sbn", "numpy-data"))[:, vis]
    a = solve_bound(net, v, vis, tol=1e-12)
    b = solve_bound(net, v, vis, tol=1e-12, engine="numpy")
    assert np.allclose(a.bound, b.bound, atol=1e-9)
    assert np.allclose(a.mu, b.mu, atol=1e-6)
    assert np.allclose(a.xi, b.xi, atol=1e-6)
    # and the compiled L_V agrees with the dense numpy formula at the same point
    assert np.allclose(bound_at(net, a.mu, a.xi, vis), bound_at_numpy(net, a.mu, a.xi, vis), atol=1e-11)


def test_threads_do_not_change_numbers():
    sizes = (3, 5, 7)
    vis = _bottom_visible(sizes)
    net = random_sbn(sizes, rng(6, "sbn", "thr"), -2, 2)
    v = net.sample(64, rng(6, "sbn", "thr-data"))[:, vis]
    a = solve_bound(net, v, vis, n_threads=1)
    b = solve_bound(net, v, vis, n_threads=2)
    assert np.array_equal(a.bound, b.bound) and np.array_equal(a.mu, b.mu)


def test_zero_weight_network_bound_is_exact():
    """All weights and biases zero: every pattern has ln P(V) = -|V| ln 2, and so has L_V."""
    sizes = (2, 3, 6)
    net = layered_network(sizes)
    vis = _bottom_visible(sizes)
    v = (np.arange(12).reshape(2, 6) % 2).astype(float)
    assert np.allclose(solve_bound(net, v, vis).bound, -6 * np.log(2), atol=1e-12)


# --- gradients, eqs. (35) and (36) ---


def test_gradients_match_finite_differences():
    sizes = (2, 3, 4)
    vis = _bottom_visible(sizes)
    net = random_sbn(sizes, rng(7, "sbn", "grad"), -2, 2)
    g = rng(7, "sbn", "grad-draws")
    v = net.sample(3, g)[:, vis]
    mu = _init_mu(v, vis)
    mu[:, ~vis] = g.uniform(0.05, 0.95, size=(3, (~vis).sum()))
    xi = g.uniform(0, 1, size=(3, 9))
    L, gw, gh = bound_at(net, mu, xi, vis, gradients=True)
    eps = 1e-6
    for e in range(net.n_edges):
        w = net.weights.copy()
        w[e] += eps
        up = bound_at(net.with_parameters(w, net.biases), mu, xi, vis)
        w[e] -= 2 * eps
        dn = bound_at(net.with_parameters(w, net.biases), mu, xi, vis)
        assert np.allclose((up - dn) / (2 * eps), gw[:, e], atol=1e-7)
    for i in range(net.n_units):
        h = net.biases.copy()
        h[i] += eps
        up = bound_at(net.with_parameters(net.weights, h), mu, xi, vis)
        h[i] -= 2 * eps
        dn = bound_at(net.with_parameters(net.weights, h), mu, xi, vis)
        assert np.allclose((up - dn) / (2 * eps), gh[:, i], atol=1e-7)


def test_gradient_at_solution_is_total_derivative():
    """At the optimum (mu*, xi*) the partial gradient is the derivative of the solved bound."""
    sizes = (2, 3, 4)
    vis = _bottom_visible(sizes)
    net = random_sbn(sizes, rng(8, "sbn", "total"), -1, 1)
    v = net.sample(2, rng(8, "sbn", "total-data"))[:, vis]
    sol = solve_bound(net, v, vis, gradients=True, tol=1e-14)
    eps = 1e-5
    for e in [0, 5, net.n_edges - 1]:
        w = net.weights.copy()
        w[e] += eps
        up = solve_bound(net.with_parameters(w, net.biases), v, vis, tol=1e-14).bound
        w[e] -= 2 * eps
        dn = solve_bound(net.with_parameters(w, net.biases), v, vis, tol=1e-14).bound
        assert np.allclose((up - dn) / (2 * eps), sol.grad_weights[:, e], atol=1e-6)


def test_training_increases_the_bound():
    sizes = (2, 4, 6)
    vis = _bottom_visible(sizes)
    teacher = random_sbn(sizes, rng(9, "sbn", "teacher"), -3, 3)
    data = teacher.sample(200, rng(9, "sbn", "teacher-data"))[:, vis]
    g = rng(9, "sbn", "student")
    start = layered_network(sizes).with_parameters(g.normal(0, 0.1, 32), np.zeros(12))
    before = solve_bound(start, data, vis).bound.mean()
    trained, hist = train_meanfield(start, data, vis, learning_rate=0.05, n_sweeps=5, rng=g)
    after = solve_bound(trained, data, vis).bound.mean()
    assert after > before + 0.5
    assert np.all(solve_bound(trained, data, vis).bound <= sbn_exact.log_marginal(trained, data, vis) + 1e-9)
    assert len(hist["mean_bound"]) == 5
