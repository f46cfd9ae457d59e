"""Annealed importance sampling (AIS): a model-agnostic driver and log Z of an RBM or a DBM.

Neal (2001); for RBMs Salakhutdinov & Murray (2008); as used by Carlson et al.
(2016, sec. 3.2, eq. 23). The AIS log-weight of one run through the inverse
temperatures ``0 = beta_0 < beta_1 < ... < beta_K = 1`` is

    log w = sum_{k=1}^{K} [log f_{beta_k}(x_{k-1}) - log f_{beta_{k-1}}(x_{k-1})],

with ``x_0 ~ p_{beta_0}`` (the normalised base) and ``x_k ~ T_k(. | x_{k-1})``
a transition that leaves ``f_{beta_k}`` invariant. ``E[w] = Z_K / Z_0``, so
``log Z_0 + log mean(w)`` estimates ``log Z_K`` with a downward bias in log
space (Jensen); that is the lower half of the AIS/RAISE sandwich.

Plugging in another model (the interface the DBM code uses)
------------------------------------------------------------
:func:`ais_log_weights` knows nothing about RBMs. A model supplies

``init_sample(n_runs, rng) -> state``
    ``n_runs`` exact samples of the base distribution ``p_{beta_0}``; ``rng``
    is whatever was passed as ``rng`` (a ``numpy.random.Generator`` or the
    core's ``ChainStreams``, one stream per run). ``state`` is any object.
``log_f(state, beta) -> ndarray (n_runs,)``
    Unnormalised log density of the tempered family at ``beta`` (float64),
    e.g. for the family of Carlson et al. eq. 2,
    ``beta * log f(x) + (1 - beta) * log p1(x)``. Latent layers that can be
    summed out analytically should be (lower variance).
``transition(state, beta) -> state``
    One MCMC transition leaving ``f_beta`` invariant (may update in place and
    return the same object).
``log_z_base``
    ``log Z_0``, the log normaliser of ``f_{beta_0}``.

Optionally ``log_f_pair(state, beta_from, beta_to) -> (log_f_from, log_f_to)``
evaluates both terms at once (a model can reuse one matrix product); the
default calls ``log_f`` twice. A run that saves checkpoints (``checkpoint=``,
:mod:`bmrep.estimators.annealing`) needs ``state.get_state()`` (the chains,
cached products and random streams, as arrays and JSON values) and
``state.set_state(saved)``.

Independent AIS replicates can run as one set of chains (blocks): with a
matrix of ladders ``betas`` (K+1, B), column ``g`` is the ladder of the
``g``-th of B equal blocks of consecutive runs, ``log_f``, ``log_f_pair``
and ``transition`` receive the B blocks' betas of the step as a float64
array (B,) instead of a float, and :func:`ais_log_weights` returns one
:class:`AISRun` per block, each computed from its block's runs alone. A
model that takes such arrays (the DBM family of
:mod:`bmrep.estimators.dbm_ais`) shares its matrix products between the
blocks, and nothing else.

The RBM's family is :mod:`bmrep.estimators.rbm_ais`; both families give the
four as a :class:`~bmrep.estimators.base.AnnealingModel`. For a DBM with layers
(v, h1, h2), the usual choice (Salakhutdinov & Hinton 2009) is a state
(v, h2) with h1 summed out analytically in ``log_f`` and a transition that
Gibbs-samples h1 | (v, h2) then (v, h2) | h1 at ``beta`` (through the core's
``op.update_layer`` with per-chain ``betas``): :mod:`bmrep.estimators.dbm_ais`.
:func:`ais_log_partition` runs either. Ladders of betas are in
:mod:`bmrep.sampling.ladders`.

The uncertainty reported with ``log mean(w)`` is the delta-method standard
error ``sd(w) / (sqrt(n) * mean(w))``, computed with weights rescaled by their
maximum; it does not include the bias, and it is unreliable when the
effective sample size is small (reported as ``ess``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..models.dbm import DBM
from ..sampling.ladders import check_betas
from .annealing import anneal
from .base import EstimateResult
from .dbm_ais import dbm_annealing_model
from .rbm_ais import rbm_annealing_model

__all__ = [
    "AISRun",
    "ais_log_weights",
    "anneal",
    "log_mean_exp",
    "log_mean_exp_stderr",
    "grouped_log_mean_exp",
    "effective_sample_size",
    "ais_log_partition",
]


# --------------------------------------------------------------------------- numerics


def log_mean_exp(log_w: np.ndarray) -> float:
    """``log(mean(exp(log_w)))`` without overflow."""
    log_w = np.asarray(log_w, dtype=np.float64)
    m = np.max(log_w)
    if not np.isfinite(m):
        return float(m)
    return float(m + np.log(np.mean(np.exp(log_w - m))))


def log_mean_exp_stderr(log_w: np.ndarray) -> float:
    """Delta-method standard error of :func:`log_mean_exp`: ``sd(w) / (sqrt(n) mean(w))``."""
    log_w = np.asarray(log_w, dtype=np.float64)
    n = log_w.size
    if n < 2:
        return float("nan")
    w = np.exp(log_w - np.max(log_w))
    return float(np.std(w, ddof=1) / (np.sqrt(n) * np.mean(w)))


def grouped_log_mean_exp(log_w_rows: np.ndarray, group: int) -> np.ndarray:
    """:func:`log_mean_exp` of the runs of each disjoint block of ``group`` consecutive rows (a remainder is dropped).

    ``log_w_rows`` holds one AIS replicate's log weights per row. A block's
    value is the estimate an evaluation makes when it pools ``group``
    replicates' runs into one (its Jensen bias, ``E[log mean w] < log Z``,
    shrinks as the pool grows: comparing pools of several sizes shows it).
    """
    rows = np.asarray(log_w_rows, dtype=np.float64)
    n = rows.shape[0] // int(group)
    if n == 0:
        return np.empty(0)
    blocks = rows[: n * int(group)].reshape(n, -1)
    return np.array([log_mean_exp(b) for b in blocks])


def effective_sample_size(log_w: np.ndarray) -> float:
    """Kish effective sample size ``(sum w)^2 / sum w^2`` of importance weights."""
    log_w = np.asarray(log_w, dtype=np.float64)
    w = np.exp(log_w - np.max(log_w))
    return float(w.sum() ** 2 / np.sum(w * w))


# --------------------------------------------------------------------------- driver


@dataclass(frozen=True)
class AISRun(EstimateResult):
    """The AIS result record: ``estimate`` is the log-mean-exp of the weights, ``ess`` theirs (see module docstring).

    An :class:`~bmrep.estimators.base.EstimateResult` (``method="AIS"``, ``budget``
    the ``K`` annealing steps, ``details["n_runs"]``) that also keeps the per-run
    arrays the callers need (weights, final states, the partial ``log Z_k``).
    """

    log_weights: np.ndarray | None = field(default=None, repr=False)  # (n_runs,) including log_z_base
    n_betas: int = 0
    state: Any = field(default=None, repr=False)
    partial_log_z: np.ndarray | None = field(default=None, repr=False)  # (K+1,) log Z_k estimates at every beta_k
    betas: np.ndarray | None = field(default=None, repr=False)  # (K+1,) the ladder used
    step_sd: np.ndarray | None = field(
        default=None, repr=False
    )  # (K,) sd over runs of each step's log-weight increment


def _check_ladders(betas) -> np.ndarray:
    """One ladder (K+1,) or a matrix (K+1, B) of ladders, one per block of runs, each checked (float64)."""
    betas = np.asarray(betas, dtype=np.float64)
    if betas.ndim != 2:
        return check_betas(betas)
    if betas.shape[1] < 1:
        raise ValueError("a matrix of ladders needs at least one column")
    for col in betas.T:
        check_betas(col)
    return betas


def ais_log_weights(
    betas: np.ndarray,
    *,
    n_runs: int,
    rng: Any,
    init_sample: Callable,
    transition: Callable,
    log_z_base: float,
    log_f: Callable | None = None,
    log_f_pair: Callable | None = None,
    record_partial: bool = False,
    checkpoint=None,
) -> AISRun | list[AISRun]:
    """Forward AIS with a model-agnostic interface (Neal 2001; Carlson et al. 2016 sec. 3.2).

    Parameters
    ----------
    betas : array (K+1,) or (K+1, B)
        Strictly increasing inverse temperatures from ``beta_0`` (the base,
        usually 0) to ``beta_K`` (usually 1). ``K - 1`` transitions are made.
        A matrix gives one ladder per block of ``n_runs / B`` consecutive
        runs (independent replicates in one set of chains, see the module
        docstring; the model must take per-block betas).
    n_runs : int
        Number of independent annealing runs (chains), all blocks together.
    rng
        Passed unchanged to ``init_sample``; per-run streams keep results
        independent of threading.
    init_sample, transition, log_f, log_f_pair, log_z_base
        The model's tempered family, see the module docstring.
    record_partial : bool
        Also estimate every intermediate ``log Z_k`` from the partial weights
        (``AISRun.partial_log_z``; each is an AIS estimate for the ladder up
        to ``beta_k``).
    checkpoint : bmrep.learning.checkpoint.Checkpoint, optional
        Save the annealing every ``checkpoint.every`` steps and resume from a
        saved one (:func:`bmrep.estimators.annealing.anneal`; the model's
        state needs ``get_state`` / ``set_state``). The base is sampled anew
        and then replaced by the saved chains and streams, so a resumed run
        returns the bits of an uninterrupted one.

    Returns
    -------
    AISRun, or a list of B AISRun for a matrix of ladders
        ``log_weights`` (n_runs,) are ``log Z_0 + log w``; ``estimate`` their
        log-mean-exp, ``stderr`` its delta-method standard error. A block's
        record is computed from its own runs only (its ``state`` is that of
        all the runs).
    """
    betas = _check_ladders(betas)
    if n_runs < 1:
        raise ValueError(f"n_runs must be >= 1, got {n_runs}")
    n_blocks = betas.shape[1] if betas.ndim == 2 else 0
    if n_blocks and n_runs % n_blocks:
        raise ValueError(f"{n_runs} runs do not split into {n_blocks} equal blocks")
    state = init_sample(int(n_runs), rng)
    partial = [] if record_partial else None
    sds: list = []
    acc, state = anneal(
        betas,
        state,
        log_f=log_f,
        log_f_pair=log_f_pair,
        transition=transition,
        partial=partial,
        step_sd=sds,
        checkpoint=checkpoint,
    )
    log_w = acc + float(log_z_base)
    if not np.all(np.isfinite(log_w)):
        raise FloatingPointError("non-finite AIS log weight; check log_f and the base distribution")
    sds = np.asarray(sds, dtype=np.float64)
    if not n_blocks:
        return _run_record(log_w, betas, sds, partial, log_z_base, state)
    m = n_runs // n_blocks
    blocks = [slice(g * m, (g + 1) * m) for g in range(n_blocks)]
    return [
        _run_record(
            log_w[s].copy(),
            np.ascontiguousarray(betas[:, g]),
            np.ascontiguousarray(sds[:, g]),
            None if partial is None else [p[s] for p in partial],
            log_z_base,
            state,
        )
        for g, s in enumerate(blocks)
    ]


def _run_record(log_w, betas, step_sd, partial, log_z_base, state) -> AISRun:
    """The :class:`AISRun` of one set of runs from its log weights, ladder, step spreads and partial sums."""
    partial_log_z = None
    if partial is not None:
        partial_log_z = np.array([float(log_z_base)] + [log_mean_exp(p + float(log_z_base)) for p in partial])
    return AISRun(
        estimate=log_mean_exp(log_w),
        stderr=log_mean_exp_stderr(log_w),
        method="AIS",
        budget=float(betas.size - 1),
        details={"n_runs": int(log_w.size)},
        ess=effective_sample_size(log_w),
        log_weights=log_w,
        n_betas=int(betas.size),
        state=state,
        partial_log_z=partial_log_z,
        betas=betas,
        step_sd=step_sd,
    )


def ais_log_partition(
    model,
    n_runs: int,
    betas: np.ndarray,
    streams,
    base_bias=None,
    *,
    operator=None,
    dtype=np.float64,
    n_threads: int = 1,
    record_partial: bool = False,
    state: str | None = None,
    checkpoint=None,
) -> AISRun | list[AISRun]:
    """AIS estimate of the log Z of an RBM or a DBM (Salakhutdinov & Murray 2008; Salakhutdinov & Hinton 2009).

    Carlson et al. (2016, sec. 3.2) for RBMs; for a DBM, over {v, h2} with h1
    summed out (or over h1 alone, ``state="h1"``). Log weights accumulate in
    float64 whatever ``dtype`` the chains use.

    Parameters
    ----------
    model : bmrep.models.rbm.RBM or bmrep.models.dbm.DBM
    n_runs : int
        Number of annealing runs (chains); ``len(streams)`` must equal it.
    betas : array (K+1,), or (K+1, B) for a DBM
        Increasing inverse temperatures from 0 to 1
        (:mod:`bmrep.sampling.ladders`); ``K - 1`` sweeps per run. A matrix
        anneals B independent blocks of ``n_runs / B`` consecutive runs, each
        along its column, in one set of chains (:func:`ais_log_weights`).
    streams : bmrep.sampling.ChainStreams
        One random stream per run.
    base_bias : optional
        Logits of the base Bernoullis: an array (n_visible,) (zeros: uniform;
        see :mod:`bmrep.estimators.base`), or for a DBM a triple
        ``(a, a1, a2)`` (see :func:`bmrep.models.dbm.base_logits`).
    record_partial : bool
        Also return the estimate of every intermediate ``log Z_k``
        (``AISRun.partial_log_z``), e.g. to locate where along the ladder an
        estimate drifts from exact values.
    state : {"v_h2", "h1"}, optional
        DBMs only: the annealed layers (:func:`bmrep.estimators.dbm_ais.dbm_annealing_model`);
        default ``"v_h2"``.
    checkpoint : bmrep.learning.checkpoint.Checkpoint, optional
        Resumable annealing (:func:`ais_log_weights`); off by default.

    Returns
    -------
    AISRun, or a list of B AISRun (one per block) for a matrix of ladders
    """
    options = {"operator": operator, "dtype": dtype, "n_threads": n_threads}
    if isinstance(model, DBM):
        family = dbm_annealing_model(model, base_bias, state="v_h2" if state is None else state, **options)
    elif state is not None:
        raise ValueError("state selects the annealed layers of a DBM; an RBM's AIS state is (v, h)")
    elif np.ndim(betas) != 1:
        raise ValueError("blocks of runs with their own ladders (a matrix of betas) are implemented for DBMs only")
    else:
        family = rbm_annealing_model(model, base_bias, **options)
    return ais_log_weights(
        betas, n_runs=n_runs, rng=streams, record_partial=record_partial, checkpoint=checkpoint, **family._asdict()
    )
