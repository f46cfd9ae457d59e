"""Exact RBM log Z through the compiled walk over enumerated states (bmrep.models.exact._rbm_enum).

``log_partition`` must give numpy's value of its definition, the chunked
log-sum-exp of ``-F`` over every state of the enumerated layer
(``tempered_free_energy_v`` / ``_h``), to the last bit, for both layers,
tempered or not, with and without a base distribution, any chunk size.
"""

import numpy as np
import pytest
from scipy.special import logsumexp

from bmrep.models.exact import _rbm_enum, all_states, states_range
from bmrep.models.exact import rbm as exact
from bmrep.models.rbm import RBM, tempered_free_energy_h, tempered_free_energy_v


def _definition(rbm, beta, base, layer, chunk_bits):
    """numpy's chunked log-sum-exp of -F (the computation log_partition replaced)."""
    k = rbm.n_visible if layer == "visible" else rbm.n_hidden
    free = tempered_free_energy_v if layer == "visible" else tempered_free_energy_h
    S = all_states(k).astype(np.float64)
    step = 2**chunk_bits
    return float(logsumexp([logsumexp(-free(rbm, S[i : i + step], beta, base)) for i in range(0, 2**k, step)]))


SHAPES = [(16, 16), (784, 10), (4, 6), (7, 3), (12, 8), (30, 12), (3, 1), (1, 4)]


@pytest.mark.parametrize("shape", SHAPES)
def test_log_partition_is_numpys_definition_to_the_bit(shape):
    n, m = shape
    rng = np.random.default_rng(n * 100 + m)
    for scale in (0.01, 1.0, 10.0) if n * m <= 256 else (1.0,):
        rbm = RBM(rng.normal(0, scale, (n, m)), rng.normal(0, scale, n), rng.normal(0, scale, m))
        a = rng.normal(0, 1, n)
        for beta, base in [(1.0, None), (0.3, a), (1.0, a), (0.0, None)]:
            for layer in [name for name, units in (("visible", n), ("hidden", m)) if units <= 16]:
                for chunk_bits in (15, 2) if min(n, m) <= 8 else (15,):
                    got = exact.log_partition(rbm, beta, base, layer=layer, chunk_bits=chunk_bits)
                    assert got == _definition(rbm, beta, base, layer, chunk_bits), (shape, scale, beta, layer)


@pytest.mark.parametrize("shape", [(16, 16), (784, 10)])
def test_the_walk_is_used_for_bruegge2013s_models(shape):
    """Not vacuous: Brügge et al.'s 16x16 and 784x10 RBMs take the walk (numpy adds in unit order there)."""
    n, m = shape
    k, hidden = (n, False) if n <= m else (m, True)
    assert exact._unit_order_product(2 ** min(k, exact.CHUNK_BITS), n, m, hidden)


def test_the_fallback_gives_the_same_value(monkeypatch):
    rbm = RBM(*(np.random.default_rng(1).normal(0, 1, s) for s in ((10, 12), 10, 12)))
    walked = exact.log_partition(rbm, 0.5, np.ones(10))
    monkeypatch.setattr(exact, "_walk_terms", lambda *args: None)
    assert exact.log_partition(rbm, 0.5, np.ones(10)) == walked


def test_unit_order_sums_are_sums_of_the_rows_that_are_on():
    A = np.random.default_rng(2).normal(0, 1, (6, 5))
    S = states_range(8, 40, 6, dtype=np.float64)
    want = np.zeros((32, 5))
    for i in range(6):  # in unit order, one term at a time
        want = want + S[:, i : i + 1] * A[i]
    assert np.array_equal(_rbm_enum.unit_order_sums(A, 8, 40), want)
    with pytest.raises(ValueError, match="out of range"):
        _rbm_enum.unit_order_sums(A, 0, 65)
