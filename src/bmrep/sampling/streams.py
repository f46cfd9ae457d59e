"""Per-chain random streams for the compiled samplers.

Each Markov chain owns one PCG64 bit generator seeded from its own
``SeedSequence`` (keyed by chain index through :mod:`bmrep.seeds`, never by
thread), and the Cython kernels draw from it through numpy's BitGenerator C
API. A chain's draws therefore depend only on the chain, so results are
identical for any number of threads.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bmrep.seeds import chain_seed_sequences


def _capsule_pointer(bitgen: np.random.PCG64) -> int:
    import ctypes

    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return int(get(bitgen.capsule, b"BitGenerator"))


class ChainStreams:
    """One PCG64 stream per chain.

    Parameters
    ----------
    seed_sequences : sequence of numpy.random.SeedSequence
        One per chain, in chain order.

    Notes
    -----
    ``pointers`` holds the addresses of the chains' ``bitgen_t`` structs
    (``np.uint64``), which the kernels use without the GIL. The bit generators
    are kept alive by this object; :meth:`subset` returns a view on the same
    generators (advancing one advances the other). Do not use the same
    ChainStreams from two Python threads at once.
    """

    def __init__(self, seed_sequences: Sequence[np.random.SeedSequence] | None = None, *, _bitgens=None):
        if _bitgens is None:
            seed_sequences = list(seed_sequences)
            if not seed_sequences:
                raise ValueError("ChainStreams needs at least one SeedSequence")
            _bitgens = [np.random.PCG64(s) for s in seed_sequences]
        self._bitgens = list(_bitgens)
        self.pointers = np.array([_capsule_pointer(g) for g in self._bitgens], dtype=np.uint64)
        self._generators = None

    @classmethod
    def from_seed(cls, root_seed: int, *keys, n_chains: int) -> ChainStreams:
        """Streams for chains 0..n_chains-1 under ``(root_seed, *keys, "chain", i)``."""
        return cls(chain_seed_sequences(root_seed, *keys, n_chains=n_chains))

    @classmethod
    def from_seed_sequence(cls, seq: np.random.SeedSequence, n_chains: int) -> ChainStreams:
        """Streams spawned from ``seq`` (chain i gets ``seq.spawn(n)[i]``)."""
        return cls(seq.spawn(n_chains))

    def __len__(self) -> int:
        return len(self._bitgens)

    @property
    def n_chains(self) -> int:
        return len(self._bitgens)

    @property
    def bit_generators(self) -> list[np.random.PCG64]:
        return self._bitgens

    def generator(self, i: int) -> np.random.Generator:
        """A Generator drawing from chain i's stream (shares its state)."""
        if self._generators is None:
            self._generators = [np.random.Generator(g) for g in self._bitgens]
        return self._generators[i]

    @classmethod
    def concatenate(cls, *streams: ChainStreams) -> ChainStreams:
        """The chains of several ChainStreams, in order (a view: same generators, e.g. AIS replicates as one batch)."""
        return cls(_bitgens=[g for s in streams for g in s.bit_generators])

    def subset(self, idx) -> ChainStreams:
        """Streams of the chains ``idx`` (a view: same generators)."""
        idx = np.arange(len(self))[idx]
        return ChainStreams(_bitgens=[self._bitgens[i] for i in np.atleast_1d(idx)])

    def random(self, n_units: int) -> np.ndarray:
        """Uniform [0, 1) draws (n_chains, n_units), row i from chain i's stream."""
        return np.stack([self.generator(i).random(n_units) for i in range(len(self))])

    def bernoulli(self, p, n_units: int, dtype=np.float64) -> np.ndarray:
        """Binary states (n_chains, n_units) with P(1) = p, row i from chain i's stream.

        ``p`` is a scalar or an array broadcastable to (n_units,) or (n_chains, n_units).
        """
        return (self.random(n_units) < np.asarray(p)).astype(dtype)

    def get_state(self) -> list[dict]:
        """The bit generators' states (for checkpoints)."""
        return [g.state for g in self._bitgens]

    def set_state(self, states: list[dict]) -> None:
        """Restore the bit generators' states saved by :meth:`get_state`."""
        if len(states) != len(self):
            raise ValueError(f"expected {len(self)} states, got {len(states)}")
        for g, s in zip(self._bitgens, states, strict=True):
            g.state = s

    def __repr__(self) -> str:
        return f"ChainStreams(n_chains={len(self)})"


__all__ = ["ChainStreams"]
