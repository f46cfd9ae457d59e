"""CAST, coupled adaptive simulated tempering (Salakhutdinov 2010, sections 5, 6.1 and 8, Algorithm 1).

The sampler of the model statistics that :func:`bmrep.learning.dbm_samplers.make_sampler`
builds for "CAST": slow Gibbs chains give the gradient's model term, fast chains
run adaptive simulated tempering with one shared Wang-Landau weight vector, and a
swap every ``swap_every`` updates hands the slow chains the fast chains' fresh
beta = 1 states. Same interface as the other samplers of
:mod:`bmrep.learning.dbm_samplers`, plus :meth:`CoupledAdaptiveTempering.records`
(the fast chains' level occupancy and weights over training, and per swap how
many fast chains reached the lowest beta).

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

# CAST with one Wang-Landau weight vector per fast chain (Algorithm 1 read literally; the issue-51 evidence run)
PERCHAIN = "CAST-perchain"

# the per-window and per-swap records of :meth:`CoupledAdaptiveTempering.records`, with their dtypes
_WINDOW_RECORDS = {"window_end": np.int64, "occupancy": np.int64, "log_weights": np.float64}
_SWAP_RECORDS = {"swap_update": np.int64, "swap_reached_min": np.int64, "swap_swapped": np.int64}


class CoupledAdaptiveTempering:
    """CAST (Salakhutdinov 2010, section 6.1 and Algorithm 1), and CAST-perchain.

    ``n_slow`` slow chains make one Gibbs sweep per update and give the model
    statistics; ``n_fast`` fast chains run adaptive simulated tempering (a
    Gibbs sweep at their current beta, a Metropolis move of k, a Wang-Landau
    update, gamma fixed at ``gamma``) over ``n_betas`` inverse temperatures
    uniform in [beta_min, 1]. All chains are swept together (one set of
    matrix products).

    **One Wang-Landau weight vector** (g = 1 at the start) is shared by the
    fast chains: every fast chain's visit of level k multiplies g_k by
    (1 + gamma) (eq. 5), as the paper's CAST keeps "a single adaptive chain"
    of weights. Per-chain weights, gaining log(1 + gamma) a visit, take
    thousands of updates to fill log Z's ~600-nat range on MNIST's
    784-500-1000 model, and the fast chains then never temper (spec, section 3).

    With ``shared_weights=False`` it is **CAST-perchain**, the literal reading
    of Algorithm 1: every fast chain keeps its own vector, updated by its own
    visits only (everything else as CAST). With one fast chain the two are the
    same bit for bit. Its records add, per fast chain, the first update at
    which it reached the lowest beta (``first_reached_min``, -1 if never):
    when its own weights had filled enough to let it temper; ``log_weights``
    is then the mean over chains of ``log g_k - log g_0``.

    The swap (section 6.1, Fig. 3, and section 8: "after fixed lag intervals
    (we use 50). The state of the fast chain is taken to be the last state for
    which k = 1"): every ``swap_every`` updates, slow chain i takes fast chain
    i's last **fresh** beta = 1 state, a state at beta = 1 visited after the fast
    chain has left beta = 1 since the previous swap; fast chain i continues
    from slow chain i's current state, placed at beta = 1 (index 0 here)
    without a Wang-Landau update for that placement. A pair without a fresh
    state does not swap. So a slow chain never gets back the state it handed
    over, nor that state after the sweep the fast chain makes at beta = 1 before
    its first k-move (measured: 8% of swaps did, when any beta = 1 state counted).

    ``swap_every = 0`` switches the swaps off (the diagnostic "CAST-noswap" of
    :func:`bmrep.learning.dbm_samplers.make_sampler`): the fast chains then temper
    on their own and the slow chains are SAP on the slow half, with the same
    arithmetic as CAST up to its first swap.

    Records (:meth:`records`): every ``record_every`` updates the fast chains'
    visits of each level in the window (counted after the k-move, as the
    Wang-Landau update counts them) and ``log g_k - log g_0`` at the window's
    end; at every swap (none without swapping) the number of fast chains that reached the lowest beta
    since the previous swap and the number of pairs swapped.
    """

    def __init__(
        self,
        dbm,
        n_slow: int,
        n_fast: int,
        streams,
        rng,
        *,
        n_betas: int,
        beta_min: float,
        gamma: float,
        swap_every: int,
        record_every: int,
        gamma_t0: float | None = None,
        track_chain: int = 0,
        shared_weights: bool = True,
    ):
        n = n_slow + n_fast
        if len(streams) != n:
            raise ValueError(f"need one stream per chain: {len(streams)} != {n_slow} + {n_fast}")
        if int(record_every) < 1:
            raise ValueError(f"record_every must be >= 1, got {record_every}")
        if int(swap_every) < 0:
            raise ValueError(f"swap_every must be >= 0 (0: no swaps), got {swap_every}")
        self.n_slow, self.n_fast = int(n_slow), int(n_fast)
        self.chains = random_chains(dbm, n, rng)
        self.streams = streams
        self.tempering = AdaptiveTempering.create(
            linear_betas(n_betas, beta_min)[::-1].copy(),  # index 0 is beta = 1
            self.n_fast,
            gamma_schedule(gamma, gamma_t0),
            [streams.generator(i) for i in range(self.n_slow, n)],
            shared=bool(shared_weights),
        )
        self.name = "CAST" if shared_weights else PERCHAIN
        self.last_beta1 = self.chains.take(slice(self.n_slow, n))
        # per fast chain, since the previous swap: left beta = 1 (left1), has a fresh beta = 1 state (fresh,
        # recorded at update beta1_update), reached the lowest beta (reached_min)
        self.left1 = np.zeros(self.n_fast, dtype=bool)
        self.fresh = np.zeros(self.n_fast, dtype=bool)
        self.beta1_update = np.full(self.n_fast, -1, dtype=np.int64)
        self.reached_min = np.zeros(self.n_fast, dtype=bool)
        self.first_reached_min = np.full(self.n_fast, -1, dtype=np.int64)  # recorded for per-chain weights only
        self.swap_every = int(swap_every)
        self.record_every = int(record_every)
        self.n_swaps = 0  # chain pairs swapped
        self.n_skipped = 0  # chain pairs not swapped (no fresh beta = 1 state)
        self.swap_age_sum = 0  # sum over swaps of the updates since the swapped-in state was at beta = 1
        self.window_visits = np.zeros(n_betas, dtype=np.int64)  # the current window's visits per level
        self.history = {k: [] for k in (*_WINDOW_RECORDS, *_SWAP_RECORDS)}
        self.track_chain = int(track_chain)
        self.k_trace: list[int] = []

    def model_chains(self) -> DBMChains:
        c = self.chains
        s = self.n_slow
        return DBMChains(c.v[:s], c.h1[:s], c.h2[:s])

    def step(self, dbm, t):
        s = self.n_slow
        at = self.tempering
        betas = np.concatenate([np.ones(s), at.chain_betas()]).astype(dbm.dtype)
        energy = gibbs_sweep(dbm, self.chains, self.streams, betas=betas)
        at.temperature_step(energy[s:])
        self.left1 |= at.k != 0
        at_min = at.k == len(at.betas) - 1
        self.reached_min |= at_min
        self.first_reached_min[at_min & (self.first_reached_min < 0)] = t + 1
        at1 = np.flatnonzero((at.k == 0) & self.left1)  # back at beta = 1 after leaving it: fresh
        if at1.size:
            self.last_beta1.put(at1, self.chains.take(s + at1))
            self.fresh[at1] = True
            self.beta1_update[at1] = t
        self.window_visits += np.bincount(at.k, minlength=len(at.betas))
        self.k_trace.append(int(at.k[self.track_chain]))
        if (t + 1) % self.record_every == 0:
            h = self.history
            h["window_end"].append(t + 1)
            h["occupancy"].append(self.window_visits.copy())
            w = at.normalized_log_weights()
            h["log_weights"].append(w[0].copy() if at.shared else w.mean(axis=0))
            self.window_visits[:] = 0
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
            self.tempering.k[idx] = 0
            self.swap_age_sum += int((t - self.beta1_update[idx]).sum())
        self.n_swaps += int(idx.size)
        self.n_skipped += int(self.n_fast - idx.size)
        h = self.history
        h["swap_update"].append(t + 1)
        h["swap_reached_min"].append(int(self.reached_min.sum()))
        h["swap_swapped"].append(int(idx.size))
        self.fresh[:] = False
        self.left1[:] = self.tempering.k != 0  # a chain away from beta = 1 now (not swapped) has left it
        self.reached_min[:] = False
        return idx

    def after_update(self, dbm, grads):
        pass

    def records(self) -> dict:
        """The records over training, as arrays.

        Per window ``window_end`` (update), ``occupancy`` (visits per
        level, windows x levels), ``log_weights`` (log g_k - log g_0 at the window's end); per swap
        ``swap_update``, ``swap_reached_min`` (fast chains at the lowest beta since the previous swap) and
        ``swap_swapped`` (pairs swapped).
        """
        K = len(self.tempering.betas)
        out = {}
        for key, dt in {**_WINDOW_RECORDS, **_SWAP_RECORDS}.items():
            rows = self.history[key]
            shape = (0, K) if key in ("occupancy", "log_weights") else (0,)
            out[key] = np.array(rows, dtype=dt) if rows else np.zeros(shape, dtype=dt)
        out["betas"] = self.tempering.betas.copy()
        if not self.tempering.shared:
            out["first_reached_min"] = self.first_reached_min.copy()
        return out

    def diagnostics(self):
        reached = self.history["swap_reached_min"]
        return {
            "st_acceptance": float(self.tempering.n_accepted.mean() / max(self.tempering.t, 1)),
            "swaps": self.n_swaps,
            "swaps_skipped": self.n_skipped,
            "swap_mean_age": self.swap_age_sum / max(self.n_swaps, 1),
            "reached_min_last_swap": reached[-1] if reached else 0,
        }

    def get_state(self):
        """Chains, streams, the fast chains' k, the shared weights and counts, the swap flags, records."""
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
            "left1": self.left1.copy(),
            "fresh": self.fresh.copy(),
            "beta1_update": self.beta1_update.copy(),
            "reached_min": self.reached_min.copy(),
            "first_reached_min": self.first_reached_min.copy(),
            "n_swaps": self.n_swaps,
            "n_skipped": self.n_skipped,
            "swap_age_sum": self.swap_age_sum,
            "window_visits": self.window_visits.copy(),
            "records": {k: v for k, v in self.records().items() if k not in ("betas", "first_reached_min")},
            "k_trace": np.array(self.k_trace, dtype=np.int64),
        }

    def set_state(self, state):
        set_chains_state(self.chains, state["chains"])
        self.streams.set_state(state["streams"])
        at = self.tempering
        at.k, at.log_g = np.array(state["k"]), np.array(state["log_g"])
        at.t, at.adapt, at.n_accepted = int(state["t"]), bool(state["adapt"]), np.array(state["n_accepted"])
        self.last_beta1 = DBMChains(*(np.array(state["last_beta1"][k]) for k in ("v", "h1", "h2")))
        self.left1, self.fresh = np.array(state["left1"]), np.array(state["fresh"])
        self.beta1_update, self.reached_min = np.array(state["beta1_update"]), np.array(state["reached_min"])
        self.first_reached_min = np.array(state["first_reached_min"])
        self.n_swaps, self.n_skipped = int(state["n_swaps"]), int(state["n_skipped"])
        self.swap_age_sum = int(state["swap_age_sum"])
        self.window_visits = np.array(state["window_visits"])
        rec = state["records"]
        self.history = {k: [r.copy() for r in rec[k]] if rec[k].ndim == 2 else [int(x) for x in rec[k]] for k in rec}
        self.k_trace = [int(k) for k in state["k_trace"]]


__all__ = ["PERCHAIN", "CoupledAdaptiveTempering"]
