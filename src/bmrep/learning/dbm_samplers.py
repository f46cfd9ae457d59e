"""The samplers of a DBM's model statistics during joint training (Salakhutdinov 2010).

Persistent particles give the model term of the gradient of eq. (2); the
samplers that move them are interchangeable objects driven by
:func:`bmrep.learning.dbm_training.train_dbm`: :class:`GibbsChains` = SAP /
PCD, :class:`FastWeightChains` = FPCD, :class:`TemperedTransitionChains` =
Trans-SAP, :class:`CoupledAdaptiveTempering` = CAST (Algorithm 1 + section
6.1). Each has ``model_chains()``, ``step(dbm, t)``, ``after_update(dbm,
grads)``, ``diagnostics()`` and ``get_state()`` / ``set_state(state)`` (all
they change, for checkpoints: :mod:`bmrep.learning.checkpoint`);
:func:`make_sampler` builds one by name.

References
----------
Salakhutdinov, R. (2010). Learning deep Boltzmann machines using adaptive MCMC. ICML.
Salakhutdinov, R. (2009). Learning in Markov random fields using tempered transitions. NIPS 22.
Tieleman, T. & Hinton, G. (2009). Using fast weights to improve persistent
contrastive divergence. ICML.
"""

from __future__ import annotations

import numpy as np

from bmrep.learning.checkpoint import copy_into
from bmrep.models.dbm import DBM
from bmrep.sampling.dbm_gibbs import DBMChains, gibbs_sweep, random_chains
from bmrep.sampling.ladders import linear_betas
from bmrep.sampling.tempered_transitions import tempered_transition
from bmrep.sampling.wang_landau import AdaptiveTempering, gamma_schedule


def chains_state(chains: DBMChains) -> dict:
    """Copies of a chain set's arrays (for checkpoints)."""
    return {"v": chains.v.copy(), "h1": chains.h1.copy(), "h2": chains.h2.copy()}


def set_chains_state(chains: DBMChains, state) -> None:
    """Overwrite a chain set's arrays in place with :func:`chains_state`'s."""
    chains.put(slice(None), DBMChains(state["v"], state["h1"], state["h2"]))


class GibbsChains:
    """SAP (= PCD): persistent chains, ``n_sweeps`` Gibbs sweeps per parameter update."""

    name = "SAP"

    def __init__(self, dbm: DBM, n_chains: int, streams, rng: np.random.Generator, n_sweeps: int = 1):
        if len(streams) != n_chains:
            raise ValueError(f"need one stream per chain: {len(streams)} != {n_chains}")
        self.chains = random_chains(dbm, n_chains, rng)
        self.streams = streams
        self.n_sweeps = int(n_sweeps)

    def model_chains(self) -> DBMChains:
        return self.chains

    def step(self, dbm: DBM, t: int) -> None:
        for _ in range(self.n_sweeps):
            gibbs_sweep(dbm, self.chains, self.streams)

    def after_update(self, dbm: DBM, grads: dict) -> None:
        pass

    def diagnostics(self) -> dict:
        return {}

    def get_state(self) -> dict:
        """The chains and their random streams: all that :meth:`step` changes."""
        return {"chains": chains_state(self.chains), "streams": self.streams.get_state()}

    def set_state(self, state) -> None:
        set_chains_state(self.chains, state["chains"])
        self.streams.set_state(state["streams"])


class FastWeightChains(GibbsChains):
    """FPCD: persistent particles moved under the model's weights plus fast weights.

    Tieleman & Hinton (2009); Salakhutdinov (2010), section 3. The particles
    move under ``theta + theta_fast``; after each update the fast weights take
    ``fast <- fast_decay * fast + fast_lr * grad`` (a large fixed rate and a
    strong decay).
    """

    name = "FPCD"

    def __init__(self, dbm, n_chains, streams, rng, n_sweeps=1, fast_lr: float = 0.005, fast_decay: float = 0.95):
        super().__init__(dbm, n_chains, streams, rng, n_sweeps)
        if not 0.0 <= fast_decay < 1.0:
            raise ValueError(f"fast_decay must be in [0, 1), got {fast_decay}")
        self.fast = {k: np.zeros_like(a) for k, a in dbm.params().items()}
        self.fast_lr, self.fast_decay = float(fast_lr), float(fast_decay)

    def step(self, dbm, t):
        p = dbm.params()
        combined = DBM(*(p[k] + self.fast[k] for k in ("W1", "W2", "b", "c1", "c2")))
        for _ in range(self.n_sweeps):
            gibbs_sweep(combined, self.chains, self.streams)

    def after_update(self, dbm, grads):
        for k, g in grads.items():
            f = self.fast[k]
            f *= self.fast_decay
            f += self.fast_lr * g.astype(f.dtype)

    def get_state(self):
        return {**super().get_state(), "fast": {k: f.copy() for k, f in self.fast.items()}}

    def set_state(self, state):
        super().set_state(state)
        copy_into(self.fast, state["fast"])


class TemperedTransitionChains(GibbsChains):
    """Trans-SAP: persistent particles moved by tempered transitions (Salakhutdinov, NIPS 2009).

    A tempered transition (Neal 1996) runs over ``n_levels`` inverse
    temperatures uniform in [beta_min, 1] every ``every`` updates, with plain
    Gibbs sweeps in between.
    """

    name = "Trans-SAP"

    def __init__(
        self, dbm, n_chains, streams, rng, n_sweeps=1, n_levels: int = 20, beta_min: float = 0.9, every: int = 1
    ):
        super().__init__(dbm, n_chains, streams, rng, n_sweeps)
        self.ladder = linear_betas(n_levels + 1, beta_min)[::-1].copy()  # walked from beta = 1 down
        self.every = max(int(every), 1)
        self.n_tried = 0
        self.n_accepted = 0

    def step(self, dbm, t):
        if t % self.every:
            return super().step(dbm, t)
        n = self.chains.n_chains

        def sweep(ch, beta, reverse):
            return gibbs_sweep(dbm, ch, self.streams, betas=np.full(n, beta, dbm.dtype), reverse=reverse)

        energy = dbm.energy(self.chains.v, self.chains.h1, self.chains.h2)
        log_u = np.log(self.streams.random(1)[:, 0])
        acc, _ = tempered_transition(self.chains, self.ladder, sweep, energy, log_u)
        self.n_tried += n
        self.n_accepted += int(acc.sum())

    def diagnostics(self):
        return {"tt_acceptance": self.n_accepted / max(self.n_tried, 1)}

    def get_state(self):
        return {**super().get_state(), "n_tried": self.n_tried, "n_accepted": self.n_accepted}

    def set_state(self, state):
        super().set_state(state)
        self.n_tried, self.n_accepted = int(state["n_tried"]), int(state["n_accepted"])


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


# make_sampler's options of each algorithm (not given: the sampler's constructor default) ...
_OPTIONS = {
    "SAP": (),
    "FPCD": ("fast_lr", "fast_decay"),
    "Trans-SAP": ("tt_levels", "tt_beta_min", "tt_every"),
    "CAST": ("n_betas", "beta_min", "gamma", "gamma_t0", "swap_every"),
}
# ... and the constructor's names of those that differ (Trans-SAP's are prefixed, as CAST also has a beta_min)
_RENAMED = {"tt_levels": "n_levels", "tt_beta_min": "beta_min", "tt_every": "every"}


def make_sampler(algorithm: str, dbm: DBM, streams, rng: np.random.Generator, *, n_chains: int = 100, **options):
    """Build the sampler of ``algorithm`` in :data:`ALGORITHMS`.

    It has ``n_chains`` particles in all (CAST: half slow, half fast).
    ``options`` are the settings of any algorithm, those of the others being
    ignored (so one call site serves all four): FPCD ``fast_lr``,
    ``fast_decay``; Trans-SAP ``tt_levels``, ``tt_beta_min``, ``tt_every``
    (:class:`TemperedTransitionChains`' ``n_levels``, ``beta_min``,
    ``every``); CAST ``n_betas``, ``beta_min``, ``gamma``, ``gamma_t0``,
    ``swap_every``. An option not given takes the sampler's default.

    Raises
    ------
    ValueError
        For an unknown algorithm, or CAST with an odd ``n_chains``.
    TypeError
        For an option no algorithm has.
    """
    if algorithm not in _OPTIONS:
        raise ValueError(f"unknown DBM learning algorithm {algorithm!r}; expected SAP, FPCD, Trans-SAP or CAST")
    unknown = set(options).difference(*_OPTIONS.values())
    if unknown:
        raise TypeError(f"make_sampler got unknown options {sorted(unknown)}")
    kw = {_RENAMED.get(key, key): options[key] for key in _OPTIONS[algorithm] if key in options}
    if algorithm == "SAP":
        return GibbsChains(dbm, n_chains, streams, rng)
    if algorithm == "FPCD":
        return FastWeightChains(dbm, n_chains, streams, rng, **kw)
    if algorithm == "Trans-SAP":
        return TemperedTransitionChains(dbm, n_chains, streams, rng, **kw)
    if n_chains % 2:
        raise ValueError(f"CAST splits n_chains into slow and fast halves; got odd n_chains={n_chains}")
    return CoupledAdaptiveTempering(dbm, n_chains // 2, n_chains // 2, streams, rng, **kw)


ALGORITHMS = tuple(_OPTIONS)

__all__ = [
    "ALGORITHMS",
    "GibbsChains",
    "FastWeightChains",
    "TemperedTransitionChains",
    "CoupledAdaptiveTempering",
    "make_sampler",
]
