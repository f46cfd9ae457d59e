"""Tables 1-3 of Saul, Jaakkola & Jordan (1996), one digit: its network trained on the bound, its test bounds."""

from __future__ import annotations

import numpy as np

from ...meanfield.sbn_bound import solve_bound, train_meanfield
from ...models.sbn import SigmoidBeliefNetwork, layered_network


def initial_network(sizes, init_std: float, rng: np.random.Generator) -> SigmoidBeliefNetwork:
    """Layered network with N(0, init_std^2) weights and zero biases (the paper does not say)."""
    net = layered_network(sizes)
    return net.with_parameters(rng.normal(0.0, init_std, size=net.n_edges), np.zeros(net.n_units))


def bottom_visible(sizes) -> np.ndarray:
    """Mask of the visible units: the bottom layer (the 8x8 image) of a top-down layered network."""
    vis = np.zeros(sum(sizes), dtype=bool)
    vis[-int(sizes[-1]) :] = True
    return vis


def train_digit_network(
    X: np.ndarray,
    *,
    sizes,
    learning_rate: float,
    n_sweeps: int,
    init_std: float,
    rng: np.random.Generator,
    tol: float,
    max_iter: int,
):
    """One SBN per digit, trained on the bound (eqs. 26, 27), pattern by pattern (section 4).

    Returns
    -------
    net : SigmoidBeliefNetwork
    history : dict with ``mean_bound`` and ``mean_iterations`` per sweep
    """
    net = initial_network(sizes, init_std, rng)
    return train_meanfield(
        net,
        X,
        bottom_visible(sizes),
        learning_rate=learning_rate,
        n_sweeps=n_sweeps,
        rng=rng,
        tol=tol,
        max_iter=max_iter,
    )


def test_bounds(net: SigmoidBeliefNetwork, X: np.ndarray, *, tol: float, max_iter: int, n_threads: int = 1):
    """L_V (eq. 23) of every image under one network: the classifier's score (section 4)."""
    vis = bottom_visible(net.layers)
    return solve_bound(net, X, vis, tol=tol, max_iter=max_iter, n_threads=n_threads).bound
