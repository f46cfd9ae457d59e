"""The samplers of a DBM's model statistics during joint training (Salakhutdinov 2010).

Persistent particles give the model term of the gradient of eq. (2); the
samplers that move them are interchangeable objects driven by
:func:`bmrep.learning.dbm_training.train_dbm`: :class:`GibbsChains` = SAP /
PCD, :class:`FastWeightChains` = FPCD, :class:`TemperedTransitionChains` =
Trans-SAP, :class:`bmrep.learning.cast.CoupledAdaptiveTempering` = CAST (Algorithm 1 + section
6.1). Each has ``model_chains()``, ``step(dbm, t)``, ``after_update(dbm,
grads)``, ``diagnostics()`` and ``get_state()`` / ``set_state(state)`` (all
they change, for checkpoints: :mod:`bmrep.learning.checkpoint`);
:func:`make_sampler` builds one by name from one :class:`SamplerSettings`.

References
----------
Salakhutdinov, R. (2010). Learning deep Boltzmann machines using adaptive MCMC. ICML.
Salakhutdinov, R. (2009). Learning in Markov random fields using tempered transitions. NIPS 22.
Tieleman, T. & Hinton, G. (2009). Using fast weights to improve persistent
contrastive divergence. ICML.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

import numpy as np

from bmrep.learning.cast import PERCHAIN, CoupledAdaptiveTempering
from bmrep.learning.checkpoint import chains_state, copy_into, set_chains_state
from bmrep.models.dbm import DBM
from bmrep.sampling.dbm_gibbs import DBMChains, gibbs_sweep, random_chains
from bmrep.sampling.ladders import linear_betas
from bmrep.sampling.tempered_transitions import tempered_transition


class GibbsChains:
    """SAP (= PCD): persistent chains, ``n_sweeps`` Gibbs sweeps per parameter update.

    The chains start from ``chains`` if given, else from independent Bernoulli(1/2) units drawn from ``rng``.
    """

    name = "SAP"

    def __init__(self, dbm: DBM, n_chains: int, streams, rng: np.random.Generator, n_sweeps: int = 1, chains=None):
        if len(streams) != n_chains:
            raise ValueError(f"need one stream per chain: {len(streams)} != {n_chains}")
        self.chains = random_chains(dbm, n_chains, rng) if chains is None else chains
        self.streams = streams
        self.n_sweeps = int(n_sweeps)

    def model_chains(self) -> DBMChains:
        return self.chains

    def step(self, dbm: DBM, t: int) -> None:
        for _ in range(self.n_sweeps):
            gibbs_sweep(dbm, self.chains, self.streams, energy=False)

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

    def __init__(self, dbm, n_chains, streams, rng, *, fast_lr: float, fast_decay: float, n_sweeps: int = 1):
        super().__init__(dbm, n_chains, streams, rng, n_sweeps)
        if not 0.0 <= fast_decay < 1.0:
            raise ValueError(f"fast_decay must be in [0, 1), got {fast_decay}")
        self.fast = {k: np.zeros_like(a) for k, a in dbm.params().items()}
        self.fast_lr, self.fast_decay = float(fast_lr), float(fast_decay)

    def step(self, dbm, t):
        p = dbm.params()
        combined = DBM(*(p[k] + self.fast[k] for k in ("W1", "W2", "b", "c1", "c2")))
        for _ in range(self.n_sweeps):
            gibbs_sweep(combined, self.chains, self.streams, energy=False)

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

    def __init__(self, dbm, n_chains, streams, rng, *, n_levels: int, beta_min: float, every: int, n_sweeps: int = 1):
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


# The control of the claim tempering_helps_cast (spec, section 3; ours, not the paper's): SAP on CAST's
# slow half alone, i.e. CAST without its fast chains and swaps.
CONTROL = "SAP-50"
# A diagnostic (spec, section 3; not in Table 1): CAST with its swaps switched off (swap_every = 0), so that its
# fast chains' occupancy and Wang-Landau weights show what the swaps' placements at beta = 1 do to them.
NOSWAP = "CAST-noswap"
ALGORITHMS = ("SAP", CONTROL, "FPCD", "Trans-SAP", "CAST", NOSWAP, PERCHAIN)


@dataclass(frozen=True)
class SamplerSettings:
    """The settings of every sampler of :func:`make_sampler`, one record; each algorithm reads its own fields.

    The defaults are Salakhutdinov (2010)'s (section 8; FPCD's from Tieleman & Hinton 2009), for a caller of the
    library; the workflow builds the record from its validated config (:meth:`from_config`), which has every one.

    Attributes
    ----------
    n_chains : int
        Persistent particles in all (CAST: half slow, half fast; SAP-50: CAST's slow half). Section 8: 100.
    fpcd_fast_lr, fpcd_fast_decay : float
        FPCD's fast weights, ``fast <- fpcd_fast_decay * fast + fpcd_fast_lr * grad`` (Tieleman & Hinton 2009:
        the initial slow rate, decay 19/20).
    tt_levels, tt_beta_min, tt_every
        Trans-SAP: a tempered transition over ``tt_levels`` betas uniform in [tt_beta_min, 1] every ``tt_every``
        updates (Salakhutdinov 2009; section 8: 20 levels in [0.9, 1]).
    cast_n_betas, cast_beta_min, cast_gamma
        CAST's fast chains: adaptive simulated tempering over ``cast_n_betas`` betas uniform in [cast_beta_min, 1],
        Wang-Landau rate ``cast_gamma`` (section 8: 20 betas in [0.9, 1]; Algorithm 1).
    cast_swap_every, cast_record_every : int
        CAST's swap of slow and fast chains every ``cast_swap_every`` updates (section 8: 50) and the window of its
        records (:meth:`bmrep.learning.cast.CoupledAdaptiveTempering.records`).
    """

    n_chains: int = 100
    fpcd_fast_lr: float = 0.005
    fpcd_fast_decay: float = 0.95
    tt_levels: int = 20
    tt_beta_min: float = 0.9
    tt_every: int = 1
    cast_n_betas: int = 20
    cast_beta_min: float = 0.9
    cast_gamma: float = 10.0
    cast_swap_every: int = 50
    cast_record_every: int = 50

    @classmethod
    def from_config(cls, train: Mapping) -> SamplerSettings:
        """The settings of a validated config's training section, which names every field as this record does."""
        return cls(**{f.name: train[f.name] for f in fields(cls)})


def make_sampler(algorithm: str, dbm: DBM, streams, rng: np.random.Generator, settings: SamplerSettings):
    """Build the sampler of ``algorithm`` in :data:`ALGORITHMS` with the fields of ``settings`` it reads.

    It has ``settings.n_chains`` particles in all (CAST: half slow, half fast), except
    :data:`CONTROL` ("SAP-50"): SAP on the streams and initial states of
    CAST's slow half (chains 0 .. n_chains/2 - 1 of the same ``streams`` and
    ``rng``), so that with the same streams it is CAST without fast chains
    and swaps, bit for bit up to CAST's first swap; and :data:`NOSWAP`
    ("CAST-noswap"): CAST with ``swap_every = 0`` (its slow chains are then
    SAP-50's chains, its fast chains CAST's up to CAST's first swap); and
    :data:`PERCHAIN` ("CAST-perchain"): CAST with one Wang-Landau vector per
    fast chain instead of one shared vector (same streams and initial chains).

    Raises
    ------
    ValueError
        For an unknown algorithm, or CAST, its control or CAST-noswap with an odd ``n_chains``.
    """
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown DBM learning algorithm {algorithm!r}; expected one of {', '.join(ALGORITHMS)}")
    s, n_chains = settings, int(settings.n_chains)
    if algorithm == "SAP":
        return GibbsChains(dbm, n_chains, streams, rng)
    if algorithm == "FPCD":
        return FastWeightChains(dbm, n_chains, streams, rng, fast_lr=s.fpcd_fast_lr, fast_decay=s.fpcd_fast_decay)
    if algorithm == "Trans-SAP":
        tt = {"n_levels": s.tt_levels, "beta_min": s.tt_beta_min, "every": s.tt_every}
        return TemperedTransitionChains(dbm, n_chains, streams, rng, **tt)
    if n_chains % 2:
        raise ValueError(f"{algorithm} splits n_chains into slow and fast halves; got odd n_chains={n_chains}")
    half = n_chains // 2
    if algorithm == CONTROL:  # CAST's initial chains are drawn for all n_chains; the slow half is the first
        slow = random_chains(dbm, n_chains, rng).take(slice(0, half))
        return GibbsChains(dbm, half, streams.subset(slice(0, half)), rng, chains=slow)
    return CoupledAdaptiveTempering(
        dbm, half, half, streams, rng,
        n_betas=s.cast_n_betas, beta_min=s.cast_beta_min, gamma=s.cast_gamma,
        swap_every=0 if algorithm == NOSWAP else s.cast_swap_every, record_every=s.cast_record_every,
        shared_weights=algorithm != PERCHAIN,
    )  # fmt: skip


__all__ = [
    "ALGORITHMS",
    "SamplerSettings",
    "CONTROL",
    "NOSWAP",
    "PERCHAIN",
    "GibbsChains",
    "FastWeightChains",
    "TemperedTransitionChains",
    "CoupledAdaptiveTempering",
    "make_sampler",
]
