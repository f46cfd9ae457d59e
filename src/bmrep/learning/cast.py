"""CAST, coupled adaptive simulated tempering (Salakhutdinov 2010, sections 5, 6.1 and 8, Algorithm 1).

The sampler of the model statistics that :func:`bmrep.learning.dbm_samplers.make_sampler`
builds for "CAST": slow Gibbs chains give the gradient's model term, fast chains
run adaptive simulated tempering, and a swap every ``swap_every`` updates hands
the slow chains the fast chains' beta = 1 states. Same interface as the other
samplers of :mod:`bmrep.learning.dbm_samplers`.

References
----------
Salakhutdinov, R. (2010). Learning deep Boltzmann machines using adaptive MCMC. ICML.
"""

from __future__ import annotations

import numpy as np

from bmrep.learning.checkpoint import chains_state, set_chains_state
from bmrep.sampling.dbm_gibbs import DBMChains, gibbs_sweep, random_chains
from bmrep.sampling.ladders import linear_betas
from bmrep.sampling.wang_landau import AdaptiveTempering, gamma_schedule


class CoupledAdaptiveTempering:
    """CAST (Salakhutdinov 2010, section 6.1 and Algorithm 1).

    ``n_slow`` slow chains make one Gibbs sweep per update and give the model
    statistics; ``n_fast`` fast chains run adaptive simulated tempering (a
    Gibbs sweep at their current beta, a Metropolis move of k, a Wang-Landau
    update of their weights, gamma fixed at ``gamma``) over ``n_betas``
    inverse temperatures uniform in [beta_min, 1]. All chains are swept
    together (one set of matrix products).

    The swap (section 6.1, Fig. 3, and section 8: "after fixed lag intervals
    (we use 50). The state of the fast chain is taken to be the last state for
    which k = 1"): every ``swap_every`` updates, for every pair i whose fast
    chain has been at beta = 1 since the previous swap, slow chain i takes the
    last such state and fast chain i continues from slow chain i's current
    state, placed at beta = 1 (index 0 here) without a Wang-Landau update for
    that placement. A pair whose fast chain has not been at beta = 1 since the
    previous swap does not swap, so a slow chain never gets back the state it
    handed over (its own earlier state) and never a stale one.

    ``place_at_beta1=False`` (not the paper's; a diagnostic) leaves the fast
    chain at its current k: the forced returns to beta = 1 bias the
    Wang-Landau weights towards beta = 1 (tests/test_cast_swap.py), this does not.
    """

    name = "CAST"

    def __init__(
        self,
        dbm,
        n_slow: int,
        n_fast: int,
        streams,
        rng,
        *,
        n_betas: int = 20,
        beta_min: float = 0.9,
        gamma: float = 10.0,
        gamma_t0: float | None = None,
        swap_every: int = 50,
        track_chain: int = 0,
        place_at_beta1: bool = True,
    ):
        n = n_slow + n_fast
        if len(streams) != n:
            raise ValueError(f"need one stream per chain: {len(streams)} != {n_slow} + {n_fast}")
        self.n_slow, self.n_fast = int(n_slow), int(n_fast)
        self.chains = random_chains(dbm, n, rng)
        self.streams = streams
        fast_idx = range(self.n_slow, n)
        self.tempering = AdaptiveTempering.create(
            linear_betas(n_betas, beta_min)[::-1].copy(),  # index 0 is beta = 1
            self.n_fast,
            gamma_schedule(gamma, gamma_t0),
            [streams.generator(i) for i in fast_idx],
        )
        self.last_beta1 = self.chains.take(slice(self.n_slow, n))
        # fresh[i]: fast chain i has been at beta = 1 since the previous swap, at update beta1_update[i]
        self.fresh = np.zeros(self.n_fast, dtype=bool)
        self.beta1_update = np.full(self.n_fast, -1, dtype=np.int64)
        self.swap_every = int(swap_every)
        self.place_at_beta1 = bool(place_at_beta1)
        self.n_swaps = 0  # chain pairs swapped
        self.n_skipped = 0  # chain pairs not swapped (no fresh beta = 1 state)
        self.swap_age_sum = 0  # sum over swaps of the updates since the swapped-in state was at beta = 1
        self.track_chain = int(track_chain)
        self.k_trace: list[int] = []

    def model_chains(self) -> DBMChains:
        c = self.chains
        s = self.n_slow
        return DBMChains(c.v[:s], c.h1[:s], c.h2[:s])

    def step(self, dbm, t):
        s = self.n_slow
        betas = np.concatenate([np.ones(s), self.tempering.chain_betas()]).astype(dbm.dtype)
        energy = gibbs_sweep(dbm, self.chains, self.streams, betas=betas)
        self.tempering.temperature_step(energy[s:])
        at1 = np.flatnonzero(self.tempering.k == 0)
        if at1.size:
            self.last_beta1.put(at1, self.chains.take(s + at1))
            self.fresh[at1] = True
            self.beta1_update[at1] = t
        self.k_trace.append(int(self.tempering.k[self.track_chain]))
        if self.swap_every and (t + 1) % self.swap_every == 0:
            self.swap(t)

    def swap(self, t: int) -> np.ndarray:
        """Swap every pair whose fast chain has a fresh beta = 1 state (section 8); returns the pairs swapped."""
        idx = np.flatnonzero(self.fresh)
        if idx.size:
            slow_old = self.chains.take(idx)
            self.chains.put(idx, self.last_beta1.take(idx))
            self.chains.put(self.n_slow + idx, slow_old)
            # placed at beta = 1; no Wang-Landau update for the placement (the weights count k-moves only)
            if self.place_at_beta1:
                self.tempering.k[idx] = 0
            self.swap_age_sum += int((t - self.beta1_update[idx]).sum())
        self.n_swaps += int(idx.size)
        self.n_skipped += int(self.n_fast - idx.size)
        self.fresh[:] = False
        return idx

    def after_update(self, dbm, grads):
        pass

    def diagnostics(self):
        return {
            "st_acceptance": float(self.tempering.n_accepted.mean() / max(self.tempering.t, 1)),
            "swaps": self.n_swaps,
            "swaps_skipped": self.n_skipped,
            "swap_mean_age": self.swap_age_sum / max(self.n_swaps, 1),
        }

    def get_state(self):
        """Chains, streams, the fast chains' k, Wang-Landau weights and counts, last beta = 1 states, swap counts."""
        at = self.tempering
        return {
            "chains": chains_state(self.chains),
            "streams": self.streams.get_state(),
            "k": at.k.copy(),
            "log_g": at.log_g.copy(),
            "t": at.t,
            "n_accepted": at.n_accepted.copy(),
            "adapt": at.adapt,
            "last_beta1": chains_state(self.last_beta1),
            "fresh": self.fresh.copy(),
            "beta1_update": self.beta1_update.copy(),
            "n_swaps": self.n_swaps,
            "n_skipped": self.n_skipped,
            "swap_age_sum": self.swap_age_sum,
            "k_trace": np.array(self.k_trace, dtype=np.int64),
        }

    def set_state(self, state):
        set_chains_state(self.chains, state["chains"])
        self.streams.set_state(state["streams"])
        at = self.tempering
        at.k, at.log_g = np.array(state["k"]), np.array(state["log_g"])
        at.t, at.adapt, at.n_accepted = int(state["t"]), bool(state["adapt"]), np.array(state["n_accepted"])
        self.last_beta1 = DBMChains(*(np.array(state["last_beta1"][k]) for k in ("v", "h1", "h2")))
        self.fresh, self.beta1_update = np.array(state["fresh"]), np.array(state["beta1_update"])
        self.n_swaps, self.n_skipped = int(state["n_swaps"]), int(state["n_skipped"])
        self.swap_age_sum = int(state["swap_age_sum"])
        self.k_trace = [int(k) for k in state["k_trace"]]


__all__ = ["CoupledAdaptiveTempering"]
