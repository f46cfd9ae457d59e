"""AIS for two-layer DBMs (Salakhutdinov & Hinton 2009; Salakhutdinov & Murray 2008).

The tempered DBM family of :mod:`bmrep.models.dbm` as an annealing model
for the driver :func:`bmrep.estimators.ais.ais_log_weights`: the AIS state is
(v, h2) with h1 summed out of ``log f`` (or h1 alone with v and h2 summed
out), a transition is one Gibbs sweep of :mod:`bmrep.sampling.dbm_gibbs` at
``beta``. :func:`bmrep.estimators.ais.ais_log_partition` runs it for a DBM.
The base distributions of Salakhutdinov & Murray (2008) (data pixel means on
v, optionally mean-field means on h1 and h2) are :func:`data_base_bias` and
:func:`data_base_biases`.

Independent replicates can anneal as blocks of one set of chains, each along
its own ladder (per-block betas, see :mod:`bmrep.estimators.ais`): the
chains share the matrix products (BLAS packs the weights once for all of
them), and everything else (``log f``, the unit updates, the random streams)
is computed block by block or chain by chain exactly as for a run of its own.
:func:`batch_rows_exact` tells whether the products are, too.

What defines one such estimator is one frozen record, :class:`AISSettings`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

import numpy as np

from ..models.dbm import DBM, base_logits, mean_field, tempered_log_f, tempered_log_f_h1
from ..sampling.dbm_gibbs import DBMChains, gibbs_sweep
from ..sampling.ladders import FIXED_SCHEDULES
from ..sampling.operators import Gibbs
from .base import AnnealingModel, base_log_partition

__all__ = [
    "AISSettings",
    "AIS_SCHEDULES",
    "AIS_STATES",
    "AIS_DTYPES",
    "TemperedDBMChains",
    "TemperedDBMChainsH1",
    "dbm_annealing_model",
    "batch_rows_exact",
    "data_base_bias",
    "data_base_biases",
]


# The ladders an AISSettings' ``schedule`` names: fixed in advance, or built from a pilot run (``adaptive``).
AIS_SCHEDULES = (*FIXED_SCHEDULES, "adaptive")
# What the chains anneal: (v, h2) with h1 summed out, or h1 with v and h2 summed out (dbm_annealing_model).
AIS_STATES = ("v_h2", "h1")
# The chains' dtypes (the log weights accumulate in float64 whatever it is).
AIS_DTYPES = ("float32", "float64")


@dataclass(frozen=True)
class AISSettings:
    """Everything that defines an AIS estimate of a DBM's log Z, as one record (checked when it is made).

    No field has a default: the config's are its schema's (``$defs.ais`` and ``evaluation.ais_state`` of
    ``workflow/schemas/salakhutdinov2010.schema.yaml``), filled in when it is validated.

    Attributes
    ----------
    n_betas : int
        Inverse temperatures of the ladder, both ends included (Neal 2001;
        Salakhutdinov & Murray 2008 anneal along 14500).
    n_runs : int
        Independent annealing runs, the importance weights of one estimate.
    dtype : {"float32", "float64"}
        The chains' dtype; the log weights accumulate in float64 whatever it is.
    schedule : {"piecewise", "linear", "adaptive"}
        ``piecewise``: the Salakhutdinov & Murray (2008) ladder
        (:func:`bmrep.sampling.ladders.piecewise_betas`); ``linear``: betas
        uniform in [0, 1]; ``adaptive``: a pilot run along the ``pilot`` ladder
        of :attr:`n_pilot_betas`, then the constant-speed ladder that
        :func:`bmrep.sampling.ladders.adaptive_betas` builds from it.
    pilot : {"piecewise", "linear"}
        The ``adaptive`` schedule's pilot ladder.
    pilot_fraction : float
        The pilot's length relative to the ladder's (:attr:`n_pilot_betas`).
    uniform_mix : float
        The share of uniform spacing mixed into the adaptive ladder
        (:func:`bmrep.sampling.ladders.adaptive_betas`).
    state : {"v_h2", "h1"}
        What the chains anneal: (v, h2) with h1 summed out (Salakhutdinov &
        Hinton 2009) or h1 with v and h2 summed out (:func:`dbm_annealing_model`).
    """

    n_betas: int
    n_runs: int
    dtype: str
    schedule: str
    pilot: str
    pilot_fraction: float
    uniform_mix: float
    state: str

    def __post_init__(self):
        for name, kind in (("n_betas", int), ("n_runs", int), ("pilot_fraction", float), ("uniform_mix", float)):
            object.__setattr__(self, name, kind(getattr(self, name)))
        choices = {"schedule": AIS_SCHEDULES, "pilot": FIXED_SCHEDULES, "dtype": AIS_DTYPES, "state": AIS_STATES}
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"AIS {name} must be one of {', '.join(allowed)}, got {getattr(self, name)!r}")

    @classmethod
    def from_config(cls, ais: Mapping, state: str) -> AISSettings:
        """The settings of a validated config's AIS block (its schema's defaults filled in) annealing ``state``."""
        return cls(**{f.name: ais[f.name] for f in fields(cls) if f.name != "state"}, state=state)

    @property
    def chain_dtype(self) -> type:
        """The chains' numpy dtype (``dtype``)."""
        return np.dtype(self.dtype).type

    @property
    def n_pilot_betas(self) -> int:
        """The ``adaptive`` schedule's pilot length: ``pilot_fraction * n_betas`` betas, at least 10."""
        return max(10, int(round(self.pilot_fraction * self.n_betas)))

    def record(self) -> dict:
        """The settings as a result records them: the pilot's only for ``adaptive``, the schedule that reads them."""
        out = {"n_betas": self.n_betas, "n_runs": self.n_runs, "state": self.state, "dtype": self.dtype}
        out["schedule"] = self.schedule
        if self.schedule == "adaptive":
            out.update(pilot=self.pilot, pilot_fraction=self.pilot_fraction, uniform_mix=self.uniform_mix)
        return out


def _blocks(n_chains: int, *betas):
    """``(rows, beta_1, beta_2, ...)`` for every block of chains that shares its betas.

    A float beta is one block of all the chains; arrays (B,) of per-block betas
    (:func:`bmrep.estimators.ais.anneal` with a matrix of ladders) give B
    blocks of ``n_chains / B`` consecutive chains. ``log f`` is evaluated
    block by block with float betas, on arrays of a block's shape, so a
    block gets the very arithmetic of a run of its own.
    """
    if np.ndim(betas[0]) == 0:
        return [(slice(None), *(float(b) for b in betas))]
    n_blocks = len(betas[0])
    m = n_chains // n_blocks
    return [(slice(g * m, (g + 1) * m), *(float(b[g]) for b in betas)) for g in range(n_blocks)]


def _log_f_pairs(n_chains: int, beta_a, beta_b, pair):
    """``pair(rows, a, b)`` of every block (:func:`_blocks`), joined in chain order."""
    parts = [pair(*blk) for blk in _blocks(n_chains, beta_a, beta_b)]
    if len(parts) == 1:
        return parts[0]
    return tuple(np.concatenate(x) for x in zip(*parts, strict=True))


def _chain_betas(beta, n_chains: int, dtype) -> np.ndarray:
    """One inverse temperature per chain (the kernels' ``betas``) from a float or per-block betas (B,)."""
    b = np.atleast_1d(np.asarray(beta, dtype=np.float64))
    # float64 -> dtype as np.full(n, float, dtype) rounds it
    return np.repeat(b, n_chains // b.size).astype(dtype)


class TemperedDBMChains:
    """DBM chains in the tempered family annealed over {v, h2} (h1 summed out), with the cached pre-activation of h1.

    The DBM counterpart of :class:`bmrep.sampling.tempered_rbm.TemperedRBMChains`.

    ``log_f`` of the increment and the h1 update of the next transition need
    the same product ``v W1 + h2 W2^T + c1``; it is computed once per step.
    """

    def __init__(self, dbm: DBM, chains: DBMChains, streams, base_bias, operator, n_threads: int = 1):
        self.dbm = dbm
        self.chains = chains
        self.streams = streams
        self.base_bias = base_logits(dbm, base_bias)
        self.operator = operator
        self.n_threads = int(n_threads)
        self._field = None

    def load(self, chains: DBMChains) -> TemperedDBMChains:
        """Replace the chains' states by those of ``chains`` (reverse AIS starts from given samples)."""
        for dst, src in ((self.chains.v, chains.v), (self.chains.h1, chains.h1), (self.chains.h2, chains.h2)):
            dst[...] = src
        self._field = None  # the cached fields belonged to the old states
        return self

    def get_state(self) -> dict:
        """Copies of the chains, their streams' states and the cached field(s) (an annealing checkpoint).

        The cache is saved so that a resumed step uses the product the
        interrupted one would have (the same bits whoever computes it next).
        """
        f = self._field
        fields = None if f is None else [x.copy() for x in (f if isinstance(f, tuple) else (f,))]
        c = self.chains
        return {"v": c.v.copy(), "h1": c.h1.copy(), "h2": c.h2.copy(), "streams": self.streams.get_state(),
                "fields": fields, "tuple": isinstance(f, tuple)}  # fmt: skip

    def set_state(self, state: dict) -> None:
        """Restore :meth:`get_state` in place."""
        for k in ("v", "h1", "h2"):
            getattr(self.chains, k)[...] = state[k]
        self.streams.set_state(state["streams"])
        fields = state["fields"]
        if fields is None:
            self._field = None
        else:
            fields = tuple(np.array(x) for x in fields)
            self._field = fields if state["tuple"] else fields[0]

    @property
    def field_h1(self) -> np.ndarray:
        if self._field is None:
            c, d = self.chains, self.dbm
            self._field = c.v @ d.W1 + c.h2 @ d.W2.T + d.c1
        return self._field

    def log_f_pair(self, beta_a, beta_b):
        c, f1 = self.chains, self.field_h1

        def pair(rows, a, b):
            # the float64 copies of the block's (v, h2) that tempered_log_f makes, once for both betas
            v, h2 = (np.asarray(x[rows], dtype=np.float64) for x in (c.v, c.h2))
            return (
                tempered_log_f(self.dbm, v, h2, a, self.base_bias, f1[rows]),
                tempered_log_f(self.dbm, v, h2, b, self.base_bias, f1[rows]),
            )

        return _log_f_pairs(c.n_chains, beta_a, beta_b, pair)

    def sweep(self, beta) -> TemperedDBMChains:
        betas = _chain_betas(beta, self.chains.n_chains, self.dbm.dtype)
        gibbs_sweep(
            self.dbm,
            self.chains,
            self.streams,
            betas=betas,
            base_bias=self.base_bias,
            operator=self.operator,
            n_threads=self.n_threads,
            field_h1=self.field_h1,
            energy=False,
        )
        self._field = None
        return self


class TemperedDBMChainsH1(TemperedDBMChains):
    """DBM chains in the tempered family annealed over h1 alone (v and h2 summed out).

    The fields ``h1 W1^T + b`` and ``h1 W2 + c2`` are cached: one step samples
    v, h2 | h1 with those fields, then h1 | v, h2.
    """

    @property
    def fields_given_h1(self):
        if self._field is None:
            c, d = self.chains, self.dbm
            self._field = (c.h1 @ d.W1.T + d.b, c.h1 @ d.W2 + d.c2)
        return self._field

    def log_f_pair(self, beta_a, beta_b):
        fv, f2 = self.fields_given_h1
        h1 = self.chains.h1

        def pair(rows, a, b):
            return (
                tempered_log_f_h1(self.dbm, h1[rows], a, self.base_bias, fv[rows], f2[rows]),
                tempered_log_f_h1(self.dbm, h1[rows], b, self.base_bias, fv[rows], f2[rows]),
            )

        return _log_f_pairs(self.chains.n_chains, beta_a, beta_b, pair)

    def sweep(self, beta) -> TemperedDBMChainsH1:
        c, d = self.chains, self.dbm
        betas = _chain_betas(beta, c.n_chains, d.dtype)
        fv, f2 = self.fields_given_h1
        a, a1, a2 = (x.astype(d.dtype) for x in self.base_bias)
        self.operator.update_layer(c.v, fv, self.streams, betas=betas, base_field=a, n_threads=self.n_threads)
        self.operator.update_layer(c.h2, f2, self.streams, betas=betas, base_field=a2, n_threads=self.n_threads)
        f1 = c.v @ d.W1 + c.h2 @ d.W2.T + d.c1
        self.operator.update_layer(c.h1, f1, self.streams, betas=betas, base_field=a1, n_threads=self.n_threads)
        self._field = None
        return self


def dbm_annealing_model(
    dbm: DBM, base_bias=None, *, operator=None, dtype=np.float64, n_threads: int = 1, state: str = "v_h2"
) -> AnnealingModel:
    """The tempered DBM family as an :class:`~bmrep.estimators.base.AnnealingModel`.

    It is the model argument of :func:`bmrep.estimators.ais.ais_log_weights`
    (through :func:`bmrep.estimators.ais.ais_log_partition`).

    The AIS state is (v, h2) with h1 summed out in ``log_f``
    (:func:`tempered_log_f`); the transition at beta is one Gibbs sweep
    h1 | (v, h2), then v, h2 | h1, which leaves the {v, h2} marginal of
    ``p_beta`` invariant. ``init_sample(n, streams)`` draws exactly from the
    base (v ~ Bernoulli(sigmoid(a)), h uniform) with the chains' own streams.

    ``state="h1"`` instead anneals h1 alone with v and h2 summed out
    (:func:`tempered_log_f_h1`): given h1 the two other layers are
    independent, so this integrates 1284 of the 1784 units of a 784-500-1000
    DBM analytically instead of 500 (lower variance at the same cost).

    ``transition`` and ``log_f_pair`` take a float beta or per-block betas
    (B,) (blocks of consecutive chains, :func:`bmrep.estimators.ais.anneal`).
    """
    if state not in AIS_STATES:
        raise ValueError(f"AIS state must be 'v_h2' (h1 summed out) or 'h1' (v, h2 summed out), got {state!r}")
    state_cls = TemperedDBMChains if state == "v_h2" else TemperedDBMChainsH1
    op = Gibbs() if operator is None else operator
    model = dbm.astype(dtype)
    bases = base_logits(dbm, base_bias)
    D, F1, F2 = dbm.shape

    def init_sample(n, streams):
        if len(streams) != n:
            raise ValueError(f"need one stream per AIS run: {len(streams)} streams for {n} runs")
        ch = DBMChains(np.zeros((n, D), dtype), np.zeros((n, F1), dtype), np.zeros((n, F2), dtype))
        zeros = np.zeros(n, dtype=dtype)
        # a layer update at beta = 0 draws sigmoid(base) exactly
        for x, base in zip((ch.v, ch.h1, ch.h2), bases, strict=True):
            op.update_layer(
                x, np.zeros_like(x), streams, betas=zeros, base_field=base.astype(dtype), n_threads=n_threads
            )
        return state_cls(model, ch, streams, bases, op, n_threads)

    def transition(state, beta):
        return state.sweep(beta)

    def log_f_pair(state, b0, b1):
        return state.log_f_pair(b0, b1)

    return AnnealingModel(init_sample, transition, log_f_pair, base_log_partition(bases))


def batch_rows_exact(dbm: DBM, n_runs: int, n_blocks: int, dtype=np.float64) -> bool:
    """Whether ``n_blocks`` blocks of ``n_runs`` chains batched together get the bits each gets alone.

    In the chains above every quantity of a chain depends on its own row
    only, except through the BLAS products ``v W1``, ``h2 W2^T``, ``h1 W1^T``
    and ``h1 W2``: a BLAS may sum a row in another order in a product of more
    rows (another kernel for the remainder rows, or a small-matrix path). On
    OpenBLAS 0.3.31 (AVX-512) float32 blocks of 50 chains of a 784-500-1000
    DBM come out identical, float64 blocks of 100 do not (a few entries of the
    last rows of each block differ in the last bit). This computes the four
    products of fixed random binary states of all the rows, with the model's
    weights in ``dtype``, and compares each block with its product alone; a
    different summation order shows on such states in almost every entry it
    touches, so a pass means the kernels treat a block's rows alike.
    """
    n_runs, n_blocks = int(n_runs), int(n_blocks)
    if n_blocks == 1:
        return True
    d = dbm.astype(dtype)
    rng = np.random.default_rng(0)  # a fixed probe, apart from every stream of the estimate
    v, h1, h2 = ((rng.random((n_runs * n_blocks, k)) < 0.5).astype(dtype) for k in d.shape)
    for x, W in ((v, d.W1), (h2, d.W2.T), (h1, d.W1.T), (h1, d.W2)):
        batched = x @ W
        for g in range(n_blocks):
            rows = slice(g * n_runs, (g + 1) * n_runs)
            if not np.array_equal(batched[rows], x[rows].copy() @ W):
                return False
    return True


def data_base_bias(X, eps: float = 0.02) -> np.ndarray:
    """Logits of the training data's pixel means, clipped to [eps, 1-eps].

    This is the AIS base distribution of Salakhutdinov & Murray (2008).
    """
    p = np.clip(np.asarray(X, dtype=np.float64).mean(axis=0), eps, 1.0 - eps)
    return np.log(p) - np.log1p(-p)


def data_base_biases(dbm: DBM, X, n_mean_field: int = 10, eps: float = 0.02):
    """Base logits for all three layers, from the data and its mean-field posterior.

    On v the data pixel means, on h1 and h2 the mean-field posterior means
    averaged over X (all clipped to [eps, 1-eps]).

    A base whose hidden layers already look like the data-driven regime keeps
    the annealing path away from the abrupt ordering of strongly coupled
    hidden units that a uniform hidden base has to cross.
    """
    mu1, mu2 = mean_field(dbm, np.asarray(X, dtype=dbm.dtype), n_iter=n_mean_field)
    return tuple(data_base_bias(m, eps) for m in (X, mu1, mu2))
