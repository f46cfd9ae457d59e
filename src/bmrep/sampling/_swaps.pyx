# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled decisions of one neighbour-swap round of parallel tempering (private).

The public API is :class:`bmrep.sampling.parallel_tempering.ParallelTempering`,
which computes every acceptance probability the round can need with numpy
(so they are numpy's to the last bit) and leaves this loop only the
sequential part: pairs (0,1), (1,2), ... in order, each seeing the states
the previous swap left. At 16x16 RBMs and 5 temperatures the numpy version
of this loop (fancy-indexed row swaps per pair) cost more than the sweeps.
"""


def swap_round(const double[:, :, ::1] p, const double[:, ::1] u, long[:, ::1] pos, long[::1] n_accepted):
    """Decide the swaps of one round of every ladder; ``pos`` receives where each position's state came from.

    Parameters
    ----------
    p : (R, t - 1, t)
        ``p[r, i, j]``: probability of accepting the swap of pair (i, i + 1) of
        ladder r when position i holds the state that started the round at
        position j (j <= i; position i + 1 still holds its own).
    u : (R, t - 1)
        Uniform draws; the swap is accepted if ``u[r, i] < p[r, i, j]``.
    pos : (R, t), output
        ``pos[r, k]``: the position whose state is at position k after the round.
    n_accepted : (t - 1,), incremented by the accepted swaps per pair.
    """
    cdef Py_ssize_t R = pos.shape[0], t = pos.shape[1], r, i, k
    cdef long carry, tmp
    if p.shape[0] != R or p.shape[1] != t - 1 or p.shape[2] != t or u.shape[0] != R or u.shape[1] != t - 1:
        raise ValueError(f"shapes differ: p {tuple(p.shape)[:3]}, u {tuple(u.shape)[:2]}, pos ({R}, {t})")
    if n_accepted.shape[0] != t - 1:
        raise ValueError(f"n_accepted has {n_accepted.shape[0]} entries, expected {t - 1}")
    with nogil:
        for r in range(R):
            for k in range(t):
                pos[r, k] = k
            carry = 0  # the state at position i started at position `carry`
            for i in range(t - 1):
                if u[r, i] < p[r, i, carry]:
                    tmp = pos[r, i]
                    pos[r, i] = pos[r, i + 1]
                    pos[r, i + 1] = tmp
                    n_accepted[i] += 1
                else:
                    carry = i + 1
