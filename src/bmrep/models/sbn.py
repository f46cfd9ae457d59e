"""Sigmoid belief networks (Neal 1992) on a directed acyclic graph.

A network over binary units ``S_1..S_N`` (numbered in topological order, so a
parent always has a smaller index than its child) with

    P(S_i = 1 | pa(S_i)) = sigmoid(sum_j J_ij S_j + h_i)

(Saul, Jaakkola & Jordan 1996, eq. 2) and joint probability eq. (6). The
couplings are stored as an edge list sorted by (child, parent), which is the
layout the compiled mean-field solver (:mod:`bmrep.meanfield.sbn_bound`)
walks; :attr:`SigmoidBeliefNetwork.coupling_matrix` gives the dense ``J``.
The exact ``ln P(V)`` of eq. (8) is :func:`bmrep.models.exact.sbn.log_marginal`.

References
----------
Saul, L. K., Jaakkola, T. & Jordan, M. I. (1996). Mean field theory for
sigmoid belief networks. JAIR 4, 61-76 (MIT AI Memo 1570), eqs. (1)-(8).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.special import softplus

__all__ = [
    "SigmoidBeliefNetwork",
    "layered_network",
    "random_layered_network",
    "layer_slices",
]


@dataclass(frozen=True, eq=False)
class SigmoidBeliefNetwork:
    """A sigmoid belief network: edges (child, parent), edge weights, biases.

    Parameters
    ----------
    n_units : int
        Number of binary units ``N``.
    edge_child, edge_parent : ndarray of int, shape (E,)
        The directed edges ``parent -> child``; ``parent < child`` and the
        edges are sorted by (child, parent) without duplicates.
    weights : ndarray of float, shape (E,)
        ``J_ij`` of eq. (2) for edge ``(i, j) = (edge_child[e], edge_parent[e])``.
    biases : ndarray of float, shape (N,)
        ``h_i`` of eq. (2).
    """

    n_units: int
    edge_child: np.ndarray
    edge_parent: np.ndarray
    weights: np.ndarray
    biases: np.ndarray
    layers: tuple = field(default=())

    def __post_init__(self):
        child = np.ascontiguousarray(self.edge_child, dtype=np.int64)
        parent = np.ascontiguousarray(self.edge_parent, dtype=np.int64)
        w = np.ascontiguousarray(self.weights, dtype=np.float64)
        h = np.ascontiguousarray(self.biases, dtype=np.float64)
        n = int(self.n_units)
        if n < 1:
            raise ValueError(f"n_units must be >= 1, got {n}")
        if not (child.shape == parent.shape == w.shape) or child.ndim != 1:
            raise ValueError("edge_child, edge_parent and weights must be 1-D arrays of one length")
        if h.shape != (n,):
            raise ValueError(f"biases must have shape ({n},), got {h.shape}")
        if len(child):
            if child.min() < 0 or child.max() >= n or parent.min() < 0:
                raise ValueError("edge endpoints must lie in 0..n_units-1")
            if np.any(parent >= child):
                raise ValueError("units must be in topological order: every parent index < child index")
            key = child * n + parent
            if np.any(np.diff(key) <= 0):
                raise ValueError("edges must be sorted by (child, parent) without duplicates")
        if not (np.all(np.isfinite(w)) and np.all(np.isfinite(h))):
            raise ValueError("weights and biases must be finite")
        object.__setattr__(self, "n_units", n)
        object.__setattr__(self, "edge_child", child)
        object.__setattr__(self, "edge_parent", parent)
        object.__setattr__(self, "weights", w)
        object.__setattr__(self, "biases", h)
        object.__setattr__(self, "layers", tuple(int(s) for s in self.layers))

    @property
    def n_edges(self) -> int:
        return len(self.weights)

    @property
    def coupling_matrix(self) -> np.ndarray:
        """Dense ``J`` (N, N): ``J[i, j]`` is the weight from parent j to child i."""
        J = np.zeros((self.n_units, self.n_units))
        J[self.edge_child, self.edge_parent] = self.weights
        return J

    def with_parameters(self, weights: np.ndarray, biases: np.ndarray) -> SigmoidBeliefNetwork:
        """The same graph with new edge weights and biases."""
        return SigmoidBeliefNetwork(self.n_units, self.edge_child, self.edge_parent, weights, biases, self.layers)

    def inputs(self, states: np.ndarray) -> np.ndarray:
        """Summed inputs ``z_i = sum_j J_ij S_j + h_i`` for states (..., N)."""
        return np.asarray(states, dtype=np.float64) @ self.coupling_matrix.T + self.biases

    def log_joint(self, states: np.ndarray) -> np.ndarray:
        """``ln P(S)`` of eq. (6) for full states (..., N) in {0, 1}: sum_i [S_i z_i - ln(1 + e^z_i)]."""
        s = np.asarray(states, dtype=np.float64)
        z = self.inputs(s)
        return np.sum(s * z - softplus(z), axis=-1)

    def sample(self, n_samples: int, rng: np.random.Generator) -> np.ndarray:
        """Ancestral sampling, eq. (5): each unit in topological order given its parents."""
        J = self.coupling_matrix
        s = np.zeros((int(n_samples), self.n_units), dtype=np.uint8)
        u = rng.random((int(n_samples), self.n_units))
        for i in range(self.n_units):
            z = s @ J[i] + self.biases[i]
            # P(S_i = 1) = sigmoid(z) <=> u < sigmoid(z) <=> logit(u) < z
            s[:, i] = np.log(u[:, i]) - np.log1p(-u[:, i]) < z
        return s


def layer_slices(sizes) -> list[slice]:
    """Unit index ranges of the layers (top layer first)."""
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    return [slice(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def layered_network(sizes, weights=None, biases=None) -> SigmoidBeliefNetwork:
    """A fully connected layered network, top layer first (the paper's Figure 4).

    Parameters
    ----------
    sizes : sequence of int
        Layer sizes from the top (no parents) down, e.g. ``(2, 4, 6)`` or
        ``(8, 24, 64)``; each unit's parents are all units of the layer above.
    weights : list of ndarray, optional
        ``weights[l]`` of shape ``(sizes[l+1], sizes[l])`` (child x parent).
        Zero if omitted.
    biases : list of ndarray, optional
        One bias vector per layer. Zero if omitted.
    """
    sizes = [int(s) for s in sizes]
    if len(sizes) < 1 or min(sizes) < 1:
        raise ValueError(f"layer sizes must be >= 1, got {sizes}")
    sl = layer_slices(sizes)
    child, parent, w = [], [], []
    for lay in range(1, len(sizes)):
        c = np.arange(sl[lay].start, sl[lay].stop)
        p = np.arange(sl[lay - 1].start, sl[lay - 1].stop)
        child.append(np.repeat(c, len(p)))
        parent.append(np.tile(p, len(c)))
        if weights is None:
            w.append(np.zeros(len(c) * len(p)))
        else:
            W = np.asarray(weights[lay - 1], dtype=np.float64)
            if W.shape != (len(c), len(p)):
                raise ValueError(f"weights[{lay - 1}] must have shape {(len(c), len(p))}, got {W.shape}")
            w.append(W.ravel())
    h = np.zeros(sum(sizes)) if biases is None else np.concatenate([np.asarray(b, float).ravel() for b in biases])
    cat = (lambda xs, dt: np.concatenate(xs).astype(dt)) if child else (lambda xs, dt: np.zeros(0, dt))
    return SigmoidBeliefNetwork(sum(sizes), cat(child, np.int64), cat(parent, np.int64), cat(w, float), h, tuple(sizes))


def random_layered_network(
    sizes, rng: np.random.Generator, low: float = -1.0, high: float = 1.0
) -> SigmoidBeliefNetwork:
    """Layered network with every weight and bias ``U[low, high]`` (Fig. 5 uses U[-1, 1])."""
    net = layered_network(sizes)
    w = rng.uniform(low, high, size=net.n_edges)
    h = rng.uniform(low, high, size=net.n_units)
    return net.with_parameters(w, h)
