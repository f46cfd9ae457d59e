"""Negative phases of RBM training: where the model term's samples come from.

:func:`bmrep.learning.rbm_training.train_rbm` is the one RBM training loop;
it takes one of these as ``negative_phase``. Each implements

* ``start(model, X, batch_size, rng)``: allocate the chains of ``model`` for
  minibatches of ``batch_size`` rows of ``X`` and draw any initial states from ``rng``
  (called once, before the first minibatch is drawn from the same ``rng``);
* ``sample(model, v_data) -> v_model``: advance the chains for one update and
  return the visible samples of the model term;
* ``get_state()`` / ``set_state(state)``: everything ``sample`` changes
  (chains, random streams), for checkpoints.

The negative phases of Brügge, Fischer & Igel (2013, sec. 4.2):

* :class:`CDChains`: CD-k (chains restarted at the minibatch; Hinton 2002) and
  PCD-k (persistent chains; Tieleman 2008), with any transition operator;
* :class:`PTChains`: t-PT_k, the beta = 1 chains of persistent parallel-tempering
  ladders (Desjardins et al. 2010; Cho et al. 2010).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..models.rbm import RBM
from ..sampling.ladders import linear_betas
from ..sampling.operators import Operator
from ..sampling.parallel_tempering import ParallelTempering
from ..sampling.streams import ChainStreams


class NegativePhase(Protocol):
    """The model term's sampler of an RBM training loop (module docstring)."""

    def start(self, model: RBM, X: np.ndarray, batch_size: int, rng: np.random.Generator) -> None: ...

    def sample(self, model: RBM, v_data: np.ndarray) -> np.ndarray: ...

    def get_state(self) -> dict: ...

    def set_state(self, state: dict) -> None: ...


class CDChains:
    """CD-k (``persistent=False``) or PCD-k (``persistent=True``) with any operator.

    Parameters
    ----------
    operator : Gibbs, FlipTheState or Blend
        Produces the model samples (Brügge et al. 2013, sec. 4.2).
    k : int >= 1
        Sweeps per update.
    persistent : bool
        False: CD-k, the chains restart at the minibatch every update (as many
        chains as rows). True: PCD-k, ``n_chains`` persistent chains started at
        training examples drawn from the loop's ``rng``.
    streams : ChainStreams
        At least as many streams as chains; the first ones are used.
    n_chains : int or None
        PCD chains (default: the batch size).
    n_threads : int
        Threads over chains in the sampler (results do not depend on it).
    """

    def __init__(
        self,
        operator: Operator,
        k: int,
        *,
        persistent: bool,
        streams: ChainStreams,
        n_chains: int | None = None,
        n_threads: int = 1,
    ):
        if int(k) < 1:
            raise ValueError(f"k must be >= 1, got {k}")
        self.operator, self.k, self.persistent = operator, int(k), bool(persistent)
        self.streams, self.n_chains, self.n_threads = streams, n_chains, int(n_threads)

    def start(self, model: RBM, X: np.ndarray, batch_size: int, rng: np.random.Generator) -> None:
        n_ch = (self.n_chains or batch_size) if self.persistent else batch_size
        if len(self.streams) < n_ch:
            raise ValueError(f"{len(self.streams)} streams for {n_ch} chains")
        self._streams = self.streams if len(self.streams) == n_ch else self.streams.subset(slice(0, n_ch))
        self.h = np.zeros((n_ch, model.n_hidden))
        if self.persistent:
            self.v = X[rng.integers(0, len(X), size=n_ch)].copy()
        else:
            self.v = np.empty((n_ch, model.n_visible))

    def sample(self, model: RBM, v_data: np.ndarray) -> np.ndarray:
        if not self.persistent:
            self.v[...] = v_data
        self.operator.sweep(model, self.v, self.h, self._streams, n_sweeps=self.k, n_threads=self.n_threads)
        return self.v

    def sweep_arguments(self) -> dict:
        """The chains of a compiled update (:func:`bmrep.learning.rbm_training.compiled_step`), after :meth:`start`.

        Their state arrays and streams (shared, not copied) and the sweeps of
        :meth:`sample`: the kernel's operator mode and ``alpha``, ``k``, threads.
        """
        return {
            "v": self.v,
            "h": self.h,
            "pointers": self._streams.pointers,
            "k": self.k,
            "mode": self.operator._mode,
            "alpha": self.operator.alpha,
            "n_threads": self.n_threads,
            "persistent": self.persistent,
        }

    def get_state(self) -> dict:
        return {"v": self.v.copy(), "h": self.h.copy(), "streams": self.streams.get_state()}

    def set_state(self, state: dict) -> None:
        self.v[...], self.h[...] = state["v"], state["h"]
        self.streams.set_state(state["streams"])


class PTChains:
    """t-PT_k: the beta = 1 chains of ``n_replicas`` persistent PT ladders.

    ``n_temperatures`` inverse temperatures uniform in [0, 1]; ``k`` sweeps of
    ``operator`` in every tempered chain, then neighbour swaps (decided by
    ``swap_rng``) per update (:class:`bmrep.sampling.parallel_tempering.ParallelTempering`).
    ``n_replicas`` defaults to the batch size, so that as many samples as
    training examples enter each update, as in the paper. ``streams`` needs
    ``n_replicas * n_temperatures`` streams. The ladders start at training
    examples drawn from the loop's ``rng``.
    """

    def __init__(
        self,
        operator: Operator,
        n_temperatures: int,
        k: int,
        *,
        streams: ChainStreams,
        swap_rng: np.random.Generator,
        n_replicas: int | None = None,
    ):
        self.operator, self.betas, self.k = operator, linear_betas(n_temperatures), int(k)
        self.streams, self.swap_rng, self.n_replicas = streams, swap_rng, n_replicas

    def start(self, model: RBM, X: np.ndarray, batch_size: int, rng: np.random.Generator) -> None:
        R = int(self.n_replicas or batch_size)
        v0 = X[rng.integers(0, len(X), size=R * self.betas.size)]
        self.pt = ParallelTempering(
            self.operator, self.betas, self.k, R, model.n_visible, model.n_hidden, self.streams, self.swap_rng, v0=v0
        )

    def sample(self, model: RBM, v_data: np.ndarray) -> np.ndarray:
        return self.pt.negative_phase(model)[0]

    def get_state(self) -> dict:
        return self.pt.get_state()

    def set_state(self, state: dict) -> None:
        self.pt.set_state(state)


__all__ = ["NegativePhase", "CDChains", "PTChains"]
