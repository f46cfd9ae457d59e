"""Mean-field lower bound on ln P(V) for sigmoid belief networks, and learning.

Saul, Jaakkola & Jordan (1996), section 3: the factorial distribution Q of
eq. (15) with means ``mu_i`` plus one extra parameter ``xi_i`` in [0, 1] per
unit, which bounds ``<ln(1 + e^{z_i})>`` by eq. (20)/(21), give the bound
L_V <= ln P(V) of eq. (23). :func:`solve_bound` maximises it by alternating

(i)  N independent 1-D convex minimisations over ``xi_i`` (Newton's method
     safeguarded by bisection on [0, 1]), and
(ii) an asynchronous sweep of the mean-field equation (25) with the matrix
     K of eq. (24) / appendix B (eq. 34),

until L_V changes by less than ``tol * (1 + |L_V|)``. Both steps increase
L_V monotonically. The iteration is compiled (:mod:`._sbn`, ``nogil``,
float64, patterns in parallel); ``engine="numpy"`` runs a plain numpy
implementation of the same iteration, used as a cross-check and benchmark.

Learning (section 4): pattern-by-pattern gradient ascent on L_V, eqs.
(26)/(27), with the gradients of appendix B, eqs. (35)/(36):
:func:`train_meanfield`.

References
----------
Saul, L. K., Jaakkola, T. & Jordan, M. I. (1996). Mean field theory for
sigmoid belief networks. JAIR 4, 61-76 (MIT AI Memo 1570).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from ..models.sbn import SigmoidBeliefNetwork
from . import _sbn

__all__ = [
    "BoundSolution",
    "solve_bound",
    "bound_at",
    "bound_at_numpy",
    "train_meanfield",
]


@dataclass(frozen=True, eq=False)
class BoundSolution:
    """Result of :func:`solve_bound` for P patterns.

    Attributes
    ----------
    bound : ndarray (P,)
        L_V of eq. (23) at the solution.
    mu, xi : ndarray (P, N)
        Mean-field means (visible units hold the evidence) and xi parameters.
    n_sweeps : ndarray (P,)
        Number of (xi step, mu sweep) alternations performed.
    trace : ndarray (P, T) or None
        L_V after each half-step (xi step, mu sweep, xi step, ...); NaN after convergence.
    grad_weights, grad_biases : ndarray (P, E), (P, N) or None
        dL_V/dJ (eq. 35) and dL_V/dh (eq. 36) per pattern.
    """

    bound: np.ndarray
    mu: np.ndarray
    xi: np.ndarray
    n_sweeps: np.ndarray
    trace: np.ndarray | None = None
    grad_weights: np.ndarray | None = None
    grad_biases: np.ndarray | None = None


def _structure(net: SigmoidBeliefNetwork):
    """CSR arrays of the graph: edges by child (already sorted) and by parent."""
    n = net.n_units
    pptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(net.edge_child, minlength=n), out=pptr[1:])
    cedge = np.argsort(net.edge_parent, kind="stable").astype(np.int64)
    cptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(net.edge_parent, minlength=n), out=cptr[1:])
    return pptr, net.edge_parent, net.edge_child, cptr, cedge


def _visible_mask(net: SigmoidBeliefNetwork, visible) -> np.ndarray:
    vis = np.asarray(visible, dtype=bool)
    if vis.shape != (net.n_units,):
        raise ValueError(f"visible must be a boolean mask of shape ({net.n_units},), got {vis.shape}")
    return np.ascontiguousarray(vis, dtype=np.uint8)


def _full_width(net: SigmoidBeliefNetwork, values, vis: np.ndarray, fill: float) -> np.ndarray:
    """Evidence rows (P, N) with hidden entries set to ``fill``."""
    vals = np.atleast_2d(np.asarray(values, dtype=np.float64))
    n_vis = int(vis.sum())
    out = np.full((vals.shape[0], net.n_units), float(fill))
    if vals.shape[1] == net.n_units:
        out[:, vis.astype(bool)] = vals[:, vis.astype(bool)]
    elif vals.shape[1] == n_vis:
        out[:, vis.astype(bool)] = vals
    else:
        raise ValueError(f"evidence must have {net.n_units} or {n_vis} columns, got {vals.shape[1]}")
    ev = out[:, vis.astype(bool)]
    if not np.all((ev == 0) | (ev == 1)):
        raise ValueError("evidence values must be 0 or 1")
    return out


def _check_init(mu_init: float, xi_init: float) -> None:
    if not 0.0 < mu_init < 1.0:
        raise ValueError(f"mu_init must lie in (0, 1), got {mu_init}")
    if not 0.0 <= xi_init <= 1.0:
        raise ValueError(f"xi_init must lie in [0, 1], got {xi_init}")


def solve_bound(
    net: SigmoidBeliefNetwork,
    values,
    visible,
    *,
    tol: float = 1e-10,
    max_iter: int = 1000,
    mu_init: float = 0.5,
    xi_init: float = 0.5,
    gradients: bool = False,
    trace_len: int = 0,
    n_threads: int = 1,
    engine: str = "compiled",
) -> BoundSolution:
    """Maximise the mean-field bound L_V (eq. 23) for each evidence pattern.

    Parameters
    ----------
    net : SigmoidBeliefNetwork
    values : array (P, N) or (P, |V|)
        Evidence in {0, 1} for the visible units.
    visible : bool array (N,)
        Instantiated units.
    tol : float
        Stop when one alternation changes L_V by at most ``tol * (1 + |L_V|)``.
    max_iter : int
        At most this many alternations.
    mu_init, xi_init : float
        Initial hidden means and xi parameters.
    gradients : bool
        Also return dL_V/dJ and dL_V/dh at the solution (eqs. 35, 36).
    trace_len : int
        Record L_V after each of the first ``trace_len`` half-steps.
    n_threads : int
        Patterns solved in parallel; the numbers do not depend on it.
    engine : {"compiled", "numpy"}
        The compiled iteration, or the same iteration in plain numpy
        (:func:`_iterate_numpy`: slow, for tests and the benchmark; without
        gradients or trace).
    """
    _check_init(mu_init, xi_init)
    if tol < 0 or max_iter < 1:
        raise ValueError("tol must be >= 0 and max_iter >= 1")
    vis = _visible_mask(net, visible)
    mu = _full_width(net, values, vis, mu_init)
    P, n = mu.shape
    xi = np.full((P, n), float(xi_init))
    if engine == "numpy":
        if gradients or trace_len:
            raise ValueError("the numpy engine computes neither gradients nor a trace")
        return _iterate_numpy(net, vis.astype(bool), mu, xi, tol, max_iter)
    if engine != "compiled":
        raise ValueError(f"engine must be 'compiled' or 'numpy', got {engine!r}")
    L = np.empty(P)
    iters = np.empty(P, dtype=np.int32)
    trace = np.full((P, int(trace_len)), np.nan) if trace_len else np.empty((0, 0))
    gw = np.empty((P, net.n_edges)) if gradients else np.empty((0, net.n_edges))
    gh = np.empty((P, n)) if gradients else np.empty((0, n))
    _sbn.solve_patterns(
        *_structure(net),
        net.weights,
        net.biases,
        vis,
        mu,
        xi,
        L,
        iters,
        trace,
        gw,
        gh,
        float(tol),
        int(max_iter),
        int(n_threads),
    )
    return BoundSolution(
        L, mu, xi, iters, trace if trace_len else None, gw if gradients else None, gh if gradients else None
    )


def bound_at(net: SigmoidBeliefNetwork, mu, xi, visible, gradients: bool = False):
    """L_V of eq. (23) at given (mu, xi) (compiled); with ``gradients``, also eqs. (35), (36).

    ``mu`` (P, N) holds the evidence on visible units and any means in [0, 1]
    on hidden units; ``xi`` (P, N) any values in [0, 1]. The result is a
    lower bound on ln P(V) for every such choice.
    """
    vis = _visible_mask(net, visible)
    mu = np.ascontiguousarray(np.atleast_2d(mu), dtype=np.float64)
    xi = np.ascontiguousarray(np.atleast_2d(xi), dtype=np.float64)
    P, n = mu.shape
    L = np.empty(P)
    gw = np.empty((P, net.n_edges)) if gradients else np.empty((0, net.n_edges))
    gh = np.empty((P, n)) if gradients else np.empty((0, n))
    _sbn.bound_at(*_structure(net), net.weights, net.biases, vis, mu, xi, L, gw, gh)
    return (L, gw, gh) if gradients else L


# --- plain numpy implementation of the same iteration (reference and benchmark) ---


def _xlogx(x):
    return np.where(x > 0, x * np.log(np.where(x > 0, x, 1.0)), 0.0)


def _tilted(J, mu, t):
    """Per (pattern, child, parent): e^{t J}, d = 1 - mu + mu e^{t J}, tilted mean p = mu e^{tJ}/d."""
    e = np.exp(t[:, :, None] * J[None, :, :])
    d = (1.0 - mu[:, None, :]) + mu[:, None, :] * e
    return e, d, mu[:, None, :] * e / d


def bound_at_numpy(net: SigmoidBeliefNetwork, mu, xi, visible) -> np.ndarray:
    """L_V of eq. (23) at given (mu, xi), dense numpy (reference for tests)."""
    vis = np.asarray(visible, dtype=bool)
    J, h = net.coupling_matrix, net.biases
    mu = np.atleast_2d(np.asarray(mu, dtype=np.float64))
    xi = np.atleast_2d(np.asarray(xi, dtype=np.float64))
    mz = mu @ J.T + h
    _, dA, _ = _tilted(J, mu, -xi)
    _, dB, _ = _tilted(J, mu, 1.0 - xi)
    la = -xi * h + np.log(dA).sum(-1)
    lb = (1.0 - xi) * h + np.log(dB).sum(-1)
    L = ((mu - xi) * mz - np.logaddexp(la, lb)).sum(-1)
    return L - (_xlogx(mu[:, ~vis]) + _xlogx(1.0 - mu[:, ~vis])).sum(-1)


def _xi_step_numpy(J, h, mu, xi, has_parents):
    """Safeguarded Newton on g'(xi) for all (pattern, unit) at once, eq. (20)."""
    x = xi.copy()
    lo = np.zeros_like(x)
    hi = np.ones_like(x)
    active = np.broadcast_to(has_parents, x.shape).copy()
    mz = mu @ J.T + h
    for _ in range(200):
        if not active.any():
            break
        _, dA, pa = _tilted(J, mu, -x)
        _, dB, pb = _tilted(J, mu, 1.0 - x)
        la = -x * h + np.log(dA).sum(-1)
        lb = (1.0 - x) * h + np.log(dB).sum(-1)
        phi = expit(lb - la)
        ma, mb = h + (J * pa).sum(-1), h + (J * pb).sum(-1)
        va, vb = (J**2 * pa * (1 - pa)).sum(-1), (J**2 * pb * (1 - pb)).sum(-1)
        g1 = mz - (1 - phi) * ma - phi * mb
        g2 = (1 - phi) * va + phi * vb + phi * (1 - phi) * (ma - mb) ** 2
        done = (g1 == 0) | ((g2 > 0) & (g1 * g1 <= 2e-15 * g2))
        active &= ~done
        hi = np.where(active & (g1 > 0), x, hi)
        lo = np.where(active & (g1 < 0), x, lo)
        active &= hi - lo > 1e-15
        with np.errstate(divide="ignore", invalid="ignore"):
            xn = np.where(g2 > 0, x - g1 / g2, 0.5 * (lo + hi))
        xn = np.where((xn > lo) & (xn < hi), xn, 0.5 * (lo + hi))
        x = np.where(active, xn, x)
    return x


def _iterate_numpy(net: SigmoidBeliefNetwork, vis: np.ndarray, mu, xi, tol: float, max_iter: int) -> BoundSolution:
    """The iteration of :func:`solve_bound` written in plain numpy, vectorised over patterns.

    Same steps in the same order (xi step for every unit, then one asynchronous
    sweep of eq. (25) over hidden units in index order) from the start ``mu``,
    ``xi`` (P, N) that :func:`solve_bound` sets up (``mu`` is updated in
    place); every pattern keeps iterating until all have converged. Slow:
    for tests and the benchmark.
    """
    P, n = mu.shape
    J, h = net.coupling_matrix, net.biases
    has_parents = (J != 0).any(axis=1) | np.isin(np.arange(n), net.edge_child)
    L_prev = bound_at_numpy(net, mu, xi, vis)
    converged = np.zeros(P, dtype=bool)
    n_sweeps = np.zeros(P, dtype=np.int32)
    for _ in range(max_iter):
        xi = _xi_step_numpy(J, h, mu, xi, has_parents)
        eA, dA, _ = _tilted(J, mu, -xi)
        eB, dB, _ = _tilted(J, mu, 1.0 - xi)
        la = -xi * h + np.log(dA).sum(-1)
        lb = (1.0 - xi) * h + np.log(dB).sum(-1)
        for j in np.flatnonzero(~vis):
            phi = expit(lb - la)
            K = (1 - phi) * (eA[:, :, j] - 1) / dA[:, :, j] + phi * (eB[:, :, j] - 1) / dB[:, :, j]
            field = mu @ J[j] + h[j] + ((mu - xi) * J[:, j] - K * (J[:, j] != 0)).sum(-1)
            new = expit(field)
            nA = (1 - new)[:, None] + new[:, None] * eA[:, :, j]
            nB = (1 - new)[:, None] + new[:, None] * eB[:, :, j]
            la += np.log(nA / dA[:, :, j])
            lb += np.log(nB / dB[:, :, j])
            dA[:, :, j], dB[:, :, j] = nA, nB
            mu[:, j] = new
        L = bound_at_numpy(net, mu, xi, vis)
        n_sweeps += ~converged
        converged |= np.abs(L - L_prev) <= tol * (1 + np.abs(L))
        L_prev = L
        if converged.all():
            break
    return BoundSolution(L_prev, mu, xi, n_sweeps)


# --- learning, section 4 ---


def train_meanfield(
    net: SigmoidBeliefNetwork,
    patterns,
    visible,
    *,
    learning_rate: float,
    n_sweeps: int,
    rng: np.random.Generator,
    tol: float = 1e-10,
    max_iter: int = 1000,
    mu_init: float = 0.5,
    xi_init: float = 0.5,
):
    """Pattern-by-pattern gradient ascent on L_V, eqs. (26)/(27) with eqs. (35)/(36).

    For each training pattern (in a fresh random order each sweep, drawn from
    ``rng``) the bound is solved from (mu_init, xi_init) and the parameters
    move by ``learning_rate`` times its gradient before the next pattern.

    Returns
    -------
    trained : SigmoidBeliefNetwork
    history : dict
        ``mean_bound`` (per sweep, the mean of the bounds met during the
        sweep, before each pattern's update) and ``mean_iterations``.
    """
    if learning_rate <= 0 or n_sweeps < 1:
        raise ValueError("learning_rate must be > 0 and n_sweeps >= 1")
    _check_init(mu_init, xi_init)
    vis = _visible_mask(net, visible)
    full = _full_width(net, patterns, vis, mu_init)
    w = net.weights.copy()
    h = net.biases.copy()
    struct = _structure(net)
    mean_bound, mean_iter = [], []
    for _ in range(int(n_sweeps)):
        order = rng.permutation(len(full))
        X = np.ascontiguousarray(full[order])
        L = np.empty(len(X))
        iters = np.empty(len(X), dtype=np.int32)
        _sbn.sgd_sweep(
            *struct,
            w,
            h,
            vis,
            X,
            float(learning_rate),
            float(mu_init),
            float(xi_init),
            float(tol),
            int(max_iter),
            L,
            iters,
        )
        if not (np.all(np.isfinite(w)) and np.all(np.isfinite(h))):
            raise FloatingPointError("training diverged: non-finite weights")
        mean_bound.append(float(L.mean()))
        mean_iter.append(float(iters.mean()))
    return net.with_parameters(w, h), {"mean_bound": np.array(mean_bound), "mean_iterations": np.array(mean_iter)}
