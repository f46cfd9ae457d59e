import numpy as np
import pytest

from bmrep.seeds import chain_seed_sequences, rng, seed_sequence, shard_ranges


def test_same_key_same_stream_and_different_keys_differ():
    a = rng(7, "saul1996", "fig5", 3).random(5)
    b = rng(7, "saul1996", "fig5", 3).random(5)
    c = rng(7, "saul1996", "fig5", 4).random(5)
    d = rng(8, "saul1996", "fig5", 3).random(5)
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c) and not np.allclose(a, d)


def test_string_keys_do_not_depend_on_python_hash_seed():
    # The derived entropy is fixed by sha256, so this value is stable across processes.
    ss = seed_sequence(1, "abc")
    assert ss.spawn_key[0] == int.from_bytes(__import__("hashlib").sha256(b"abc").digest()[:8], "little")


def test_chain_streams_are_indexed_by_chain():
    seqs = chain_seed_sequences(3, "x", n_chains=4)
    again = chain_seed_sequences(3, "x", n_chains=6)[:4]
    for s, t in zip(seqs, again, strict=True):
        assert s.generate_state(4).tolist() == t.generate_state(4).tolist()


def test_shards_cover_repeats_exactly_once():
    shards = shard_ranges(23, 5)
    assert [len(s) for s in shards] == [5, 5, 5, 5, 3]
    assert sorted(i for s in shards for i in s) == list(range(23))


@pytest.mark.parametrize("args", [(0, 5), (5, 0), (-1, 2)])
def test_bad_shard_settings_raise(args):
    with pytest.raises(ValueError, match="must be >= 1"):
        shard_ranges(*args)


def test_negative_seed_and_bad_key_raise():
    with pytest.raises(ValueError):
        rng(-1)
    with pytest.raises(TypeError):
        rng(1, 1.5)
