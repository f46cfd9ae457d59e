"""Traceable random streams.

Every random draw in the project comes from a stream derived from the single
root seed of the config and a key such as ``("saul1996", "fig5", shard)``.
Keys are hashed to integers in a way that does not depend on the Python hash
seed, so a given key yields the same stream in every process, on every
machine, for any number of cores or threads.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np

Key = str | int


def _key_to_int(key: Key) -> int:
    if isinstance(key, (bool, np.bool_)):
        raise TypeError("seed keys must be str or int, not bool")
    if isinstance(key, (int, np.integer)):
        if key < 0:
            raise ValueError(f"integer seed keys must be >= 0, got {key}")
        return int(key)
    if isinstance(key, str):
        return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "little")
    raise TypeError(f"seed keys must be str or int, got {type(key).__name__}")


def seed_sequence(root_seed: int, *keys: Key) -> np.random.SeedSequence:
    """SeedSequence for ``keys`` under ``root_seed``.

    ``seed_sequence(s, "a", 3)`` is independent of ``seed_sequence(s, "a", 4)``
    and of ``seed_sequence(s, "b", 3)``; the same arguments always give the
    same sequence.
    """
    if int(root_seed) < 0:
        raise ValueError(f"root seed must be >= 0, got {root_seed}")
    return np.random.SeedSequence(entropy=int(root_seed), spawn_key=tuple(_key_to_int(k) for k in keys))


def rng(root_seed: int, *keys: Key) -> np.random.Generator:
    """A numpy Generator (PCG64) for ``keys`` under ``root_seed``."""
    return np.random.Generator(np.random.PCG64(seed_sequence(root_seed, *keys)))


def chain_seed_sequences(root_seed: int, *keys: Key, n_chains: int) -> list[np.random.SeedSequence]:
    """One SeedSequence per chain, indexed by chain number (never by thread)."""
    if n_chains < 1:
        raise ValueError(f"n_chains must be >= 1, got {n_chains}")
    return [seed_sequence(root_seed, *keys, "chain", i) for i in range(n_chains)]


def shard_ranges(n_repeats: int, shard_size: int) -> list[range]:
    """Split ``range(n_repeats)`` into consecutive shards of ``shard_size``.

    The repeat index (not the shard) keys each repeat's random stream, so the
    numbers do not depend on how repeats are sharded.
    """
    if n_repeats < 1:
        raise ValueError(f"n_repeats must be >= 1, got {n_repeats}")
    if shard_size < 1:
        raise ValueError(f"shard_size must be >= 1, got {shard_size}")
    return [range(s, min(s + shard_size, n_repeats)) for s in range(0, n_repeats, shard_size)]


def spawn_generators(seq: np.random.SeedSequence, n: int) -> list[np.random.Generator]:
    """``n`` independent Generators spawned from ``seq``."""
    return [np.random.Generator(np.random.PCG64(s)) for s in seq.spawn(n)]


__all__: Iterable[str] = ["seed_sequence", "rng", "chain_seed_sequences", "shard_ranges", "spawn_generators"]
