"""Learning two-layer DBMs: greedy pretraining and one stochastic-approximation loop.

Pretraining (Salakhutdinov & Hinton 2009, section 3.1): two RBMs trained by
CD-1 with the doubled-input trick. The bottom RBM has tied, doubled visible
input (``P(h1 | v) = sigmoid(2 v W1 + c)``, ``P(v | h1) = sigmoid(W1 h1 + b)``);
the top RBM is trained on the bottom one's hidden probabilities with doubled
hidden-to-visible input (``P(h2 | h1) = sigmoid(h1 W2 + c2)``,
``P(h1 | h2) = sigmoid(2 W2 h2 + b')``). Composing them halves the total
input into h1, giving the DBM with ``W1, W2`` and ``c1 = (c + b') / 2``.

Joint training (Salakhutdinov 2010, sections 2.1-2.2, 8): for every minibatch,
5 mean-field updates give the data-dependent statistics; persistent sample
particles give the model's; the parameters take a gradient step with the
learning rate 10 / (2000 + t). The samplers that move the particles are
interchangeable objects (:class:`GibbsChains` = SAP / PCD,
:class:`FastWeightChains` = FPCD, :class:`TemperedTransitionChains` =
Trans-SAP, :class:`CoupledAdaptiveTempering` = CAST, Algorithm 1 + section
6.1), all driven by the single loop :func:`train_dbm`.

References
----------
Salakhutdinov, R. (2010). Learning deep Boltzmann machines using adaptive MCMC. ICML.
Salakhutdinov, R. & Hinton, G. (2009). Deep Boltzmann machines. AISTATS.
Tieleman, T. & Hinton, G. (2009). Using fast weights to improve persistent
contrastive divergence. ICML.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from bmrep.learning.optimizers import SGD, inverse_time
from bmrep.models.dbm import DBM, mean_field
from bmrep.models.rbm import sigmoid
from bmrep.sampling.dbm_gibbs import DBMChains, gibbs_sweep, random_chains
from bmrep.sampling.operators import Gibbs
from bmrep.sampling.tempered_transitions import tempered_transition, uniform_ladder
from bmrep.sampling.wang_landau import AdaptiveTempering, gamma_schedule, uniform_betas


# -- greedy pretraining -------------------------------------------------------
def train_doubled_rbm(
    data: np.ndarray,
    n_hidden: int,
    *,
    up_scale: float,
    down_scale: float,
    n_epochs: int,
    batch_size: int,
    lr: float,
    momentum: float,
    weight_decay: float,
    rng: np.random.Generator,
    streams,
    dtype=np.float32,
    init_scale: float = 0.01,
    log: Callable | None = None,
):
    """CD-1 for an RBM with scaled bottom-up / top-down input (the doubling trick).

    ``P(h | v) = sigmoid(up_scale * v W + c)``, ``P(v | h) = sigmoid(down_scale * h W^T + b)``;
    the gradient is the usual ``<v h>_data - <v h>_recon`` (Salakhutdinov &
    Hinton 2009). Hidden units of the positive phase are sampled through the
    sampling core's ``update_layer`` (one stream per minibatch row).

    Returns
    -------
    dict with ``W`` (n_visible, n_hidden), ``b``, ``c``.
    """
    X = np.asarray(data, dtype=dtype)
    n, D = X.shape
    if batch_size > n:
        raise ValueError(f"batch_size {batch_size} exceeds the {n} training cases")
    if len(streams) != batch_size:
        raise ValueError(f"need one stream per minibatch row: {len(streams)} != {batch_size}")
    p = {
        "W": rng.normal(0.0, init_scale, (D, n_hidden)).astype(dtype),
        "b": np.zeros(D, dtype),
        "c": np.zeros(n_hidden, dtype),
    }
    opt = SGD(lr, momentum=momentum, decay=weight_decay, decay_keys=["W"])
    op = Gibbs()
    n_batches = n // batch_size
    h = np.zeros((batch_size, n_hidden), dtype)
    for epoch in range(n_epochs):
        order = rng.permutation(n)
        for bi in range(n_batches):
            v0 = X[order[bi * batch_size : (bi + 1) * batch_size]]
            f0 = up_scale * (v0 @ p["W"]) + p["c"]
            ph0 = sigmoid(f0).astype(dtype)
            op.update_layer(h, f0, streams)
            pv1 = sigmoid(down_scale * (h @ p["W"].T) + p["b"]).astype(dtype)
            ph1 = sigmoid(up_scale * (pv1 @ p["W"]) + p["c"]).astype(dtype)
            g = {"W": (v0.T @ ph0 - pv1.T @ ph1) / batch_size, "b": (v0 - pv1).mean(0), "c": (ph0 - ph1).mean(0)}
            opt.step(p, g)
        if log is not None:
            log(
                epoch + 1,
                float(
                    np.mean(
                        (
                            X[order[:1000]]
                            - sigmoid(
                                down_scale * (sigmoid(up_scale * (X[order[:1000]] @ p["W"]) + p["c"]) @ p["W"].T)
                                + p["b"]
                            )
                        )
                        ** 2
                    )
                ),
            )
    return p


def pretrain_dbm(
    X: np.ndarray,
    n_hidden1: int,
    n_hidden2: int,
    *,
    n_epochs: int,
    batch_size: int,
    lr: float,
    momentum: float,
    weight_decay: float,
    rng: np.random.Generator,
    streams,
    dtype=np.float32,
    log: Callable | None = None,
) -> DBM:
    """Greedy layer-wise pretraining of a 2-layer DBM (Salakhutdinov & Hinton 2009).

    See the module docstring for the doubling trick and the composition rule.
    ``streams`` (one per minibatch row) is used for both RBMs.
    """
    r1 = train_doubled_rbm(
        X,
        n_hidden1,
        up_scale=2.0,
        down_scale=1.0,
        n_epochs=n_epochs,
        batch_size=batch_size,
        lr=lr,
        momentum=momentum,
        weight_decay=weight_decay,
        rng=rng,
        streams=streams,
        dtype=dtype,
        log=None if log is None else (lambda e, r: log("rbm1", e, r)),
    )
    H1 = sigmoid(2.0 * (np.asarray(X, dtype) @ r1["W"]) + r1["c"]).astype(dtype)
    r2 = train_doubled_rbm(
        H1,
        n_hidden2,
        up_scale=1.0,
        down_scale=2.0,
        n_epochs=n_epochs,
        batch_size=batch_size,
        lr=lr,
        momentum=momentum,
        weight_decay=weight_decay,
        rng=rng,
        streams=streams,
        dtype=dtype,
        log=None if log is None else (lambda e, r: log("rbm2", e, r)),
    )
    return DBM(r1["W"], r2["W"], r1["b"], 0.5 * (r1["c"] + r2["b"]), r2["c"]).astype(dtype)


# -- samplers of the model statistics ----------------------------------------
def _gradient(dbm: DBM, V, mu1, mu2, model: DBMChains) -> dict:
    """Ascent direction of eq. (2): data statistics under Q minus model statistics of the particles."""
    B, M = V.shape[0], model.n_chains
    return {
        "W1": V.T @ mu1 / B - model.v.T @ model.h1 / M,
        "W2": mu1.T @ mu2 / B - model.h1.T @ model.h2 / M,
        "b": V.mean(0) - model.v.mean(0),
        "c1": mu1.mean(0) - model.h1.mean(0),
        "c2": mu2.mean(0) - model.h2.mean(0),
    }


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


class FastWeightChains(GibbsChains):
    """FPCD (Tieleman & Hinton 2009; Salakhutdinov 2010, section 3): particles
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


class TemperedTransitionChains(GibbsChains):
    """Trans-SAP (Salakhutdinov 2010 NIPS): persistent particles moved by tempered
    transitions (Neal 1996) over ``n_levels`` inverse temperatures uniform in
    [beta_min, 1], every ``every`` updates (plain Gibbs sweeps in between).
    """

    name = "Trans-SAP"

    def __init__(
        self, dbm, n_chains, streams, rng, n_sweeps=1, n_levels: int = 20, beta_min: float = 0.9, every: int = 1
    ):
        super().__init__(dbm, n_chains, streams, rng, n_sweeps)
        self.ladder = uniform_ladder(n_levels, beta_min)
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


class CoupledAdaptiveTempering:
    """CAST (Salakhutdinov 2010, section 6.1 and Algorithm 1).

    ``n_slow`` slow chains make one Gibbs sweep per update and give the model
    statistics; ``n_fast`` fast chains run adaptive simulated tempering (a
    Gibbs sweep at their current beta, a Metropolis move of k, a Wang-Landau
    update of their weights, gamma fixed at ``gamma``) over ``n_betas``
    inverse temperatures uniform in [beta_min, 1]. Every ``swap_every``
    updates, slow chain i takes the last beta = 1 state of fast chain i and
    fast chain i continues from slow chain i's state at beta = 1 (section 8:
    swapping after a fixed lag avoids swapping the same states back and forth).
    All chains are swept together (one set of matrix products).
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
    ):
        n = n_slow + n_fast
        if len(streams) != n:
            raise ValueError(f"need one stream per chain: {len(streams)} != {n_slow} + {n_fast}")
        self.n_slow, self.n_fast = int(n_slow), int(n_fast)
        self.chains = random_chains(dbm, n, rng)
        self.streams = streams
        fast_idx = range(self.n_slow, n)
        self.tempering = AdaptiveTempering.create(
            uniform_betas(n_betas, beta_min),
            self.n_fast,
            gamma_schedule(gamma, gamma_t0),
            [streams.generator(i) for i in fast_idx],
        )
        self.last_beta1 = self.chains.take(slice(self.n_slow, n))
        self.swap_every = int(swap_every)
        self.n_swaps = 0
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
        self.k_trace.append(int(self.tempering.k[self.track_chain]))
        if self.swap_every and (t + 1) % self.swap_every == 0:
            slow_old = self.chains.take(slice(0, s))
            self.chains.put(slice(0, s), self.last_beta1)
            self.chains.put(slice(s, s + self.n_fast), slow_old)
            self.last_beta1 = slow_old.copy()
            self.tempering.k[:] = 0
            self.n_swaps += 1

    def after_update(self, dbm, grads):
        pass

    def diagnostics(self):
        return {
            "st_acceptance": float(self.tempering.n_accepted.mean() / max(self.tempering.t, 1)),
            "swaps": self.n_swaps,
        }


# -- the stochastic-approximation loop ----------------------------------------
@dataclass
class TrainingHistory:
    """What :func:`train_dbm` records: callback outputs and timings."""

    records: list = field(default_factory=list)
    seconds: float = 0.0
    n_updates: int = 0


def train_dbm(
    dbm: DBM,
    X: np.ndarray,
    sampler,
    *,
    n_updates: int,
    batch_size: int = 100,
    n_mean_field: int = 5,
    lr: float | Callable[[int], float] = inverse_time(10.0, 2000.0),
    weight_decay: float = 0.0,
    rng: np.random.Generator,
    callback: Callable | None = None,
    callback_every: int = 1000,
    start_update: int = 0,
) -> TrainingHistory:
    """Stochastic approximation (SAP, section 2.2) with mean-field data statistics (section 2.1).

    For t = 1..n_updates: take the next minibatch (reshuffled every epoch),
    run ``n_mean_field`` mean-field updates, advance the sampler's particles
    (``sampler.step``), and take the ascent step of eq. (2) with learning
    rate ``lr(t)`` (default 10 / (2000 + t), section 8) and L2 decay on the
    weights; then ``sampler.after_update`` (FPCD's fast weights).

    ``callback(t, dbm, sampler)`` is called after updates ``callback_every``,
    ``2 * callback_every``, ...; its non-None returns are collected.
    ``dbm`` is updated in place.
    """
    X = np.asarray(X, dtype=dbm.dtype)
    n = X.shape[0]
    if batch_size > n:
        raise ValueError(f"batch_size {batch_size} exceeds the {n} training cases")
    opt = SGD(lr, decay=weight_decay, decay_keys=["W1", "W2"])
    opt.t = int(start_update)
    params = dbm.params()
    n_batches = n // batch_size
    order = rng.permutation(n)
    hist = TrainingHistory()
    t0 = time.perf_counter()
    for t in range(n_updates):
        bi = t % n_batches
        if bi == 0 and t > 0:
            order = rng.permutation(n)
        V = X[order[bi * batch_size : (bi + 1) * batch_size]]
        mu1, mu2 = mean_field(dbm, V, n_iter=n_mean_field)
        sampler.step(dbm, t)
        grads = _gradient(dbm, V, mu1, mu2, sampler.model_chains())
        opt.step(params, grads)
        sampler.after_update(dbm, grads)
        if not np.isfinite(params["W1"][0, 0]):
            raise FloatingPointError(f"DBM parameters diverged at update {t + 1}")
        if callback is not None and (t + 1) % callback_every == 0:
            r = callback(t + 1, dbm, sampler)
            if r is not None:
                hist.records.append(r)
    hist.seconds = time.perf_counter() - t0
    hist.n_updates = n_updates
    return hist


def make_sampler(
    algorithm: str,
    dbm: DBM,
    streams,
    rng: np.random.Generator,
    *,
    n_chains: int = 100,
    fast_lr: float = 0.005,
    fast_decay: float = 0.95,
    tt_levels: int = 20,
    tt_beta_min: float = 0.9,
    tt_every: int = 1,
    n_betas: int = 20,
    beta_min: float = 0.9,
    gamma: float = 10.0,
    gamma_t0: float | None = None,
    swap_every: int = 50,
):
    """The sampler of ``algorithm`` in {"SAP", "FPCD", "Trans-SAP", "CAST"} with ``n_chains``
    particles in all (CAST: half slow, half fast).
    """
    if algorithm == "SAP":
        return GibbsChains(dbm, n_chains, streams, rng)
    if algorithm == "FPCD":
        return FastWeightChains(dbm, n_chains, streams, rng, fast_lr=fast_lr, fast_decay=fast_decay)
    if algorithm == "Trans-SAP":
        return TemperedTransitionChains(
            dbm, n_chains, streams, rng, n_levels=tt_levels, beta_min=tt_beta_min, every=tt_every
        )
    if algorithm == "CAST":
        if n_chains % 2:
            raise ValueError(f"CAST splits n_chains into slow and fast halves; got odd n_chains={n_chains}")
        return CoupledAdaptiveTempering(
            dbm,
            n_chains // 2,
            n_chains // 2,
            streams,
            rng,
            n_betas=n_betas,
            beta_min=beta_min,
            gamma=gamma,
            gamma_t0=gamma_t0,
            swap_every=swap_every,
        )
    raise ValueError(f"unknown DBM learning algorithm {algorithm!r}; expected SAP, FPCD, Trans-SAP or CAST")


ALGORITHMS = ("SAP", "FPCD", "Trans-SAP", "CAST")

__all__ = [
    "ALGORITHMS",
    "train_doubled_rbm",
    "pretrain_dbm",
    "GibbsChains",
    "FastWeightChains",
    "TemperedTransitionChains",
    "CoupledAdaptiveTempering",
    "TrainingHistory",
    "train_dbm",
    "make_sampler",
]
