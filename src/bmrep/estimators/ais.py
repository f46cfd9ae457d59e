"""Annealed importance sampling (AIS): a model-agnostic driver and an RBM wrapper.

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
default calls ``log_f`` twice.

For a DBM with layers (v, h1, h2), the usual choice (Salakhutdinov & Hinton
2009) is a state (v, h2) with h1 summed out analytically in ``log_f`` and a
transition that Gibbs-samples h1 | (v, h2) then (v, h2) | h1 at ``beta``
(through the core's ``op.update_layer`` with per-chain ``betas``).

The uncertainty reported with ``log mean(w)`` is the delta-method standard
error ``sd(w) / (sqrt(n) * mean(w))``, computed with weights rescaled by their
maximum; it does not include the bias, and it is unreliable when the
effective sample size is small (reported as ``ess``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .base import EstimateResult, base_log_partition

__all__ = [
    "AISRun",
    "ais_log_weights",
    "anneal",
    "log_mean_exp",
    "log_mean_exp_stderr",
    "effective_sample_size",
    "linear_betas",
    "piecewise_betas",
    "adaptive_betas",
    "RBMAnnealingState",
    "rbm_tempered_log_f",
    "rbm_log_z_base",
    "rbm_annealing_model",
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


def effective_sample_size(log_w: np.ndarray) -> float:
    """Kish effective sample size ``(sum w)^2 / sum w^2`` of importance weights."""
    log_w = np.asarray(log_w, dtype=np.float64)
    w = np.exp(log_w - np.max(log_w))
    return float(w.sum() ** 2 / np.sum(w * w))


def linear_betas(n_betas: int) -> np.ndarray:
    """``n_betas`` inverse temperatures uniform on [0, 1] (both ends included)."""
    if n_betas < 2:
        raise ValueError(f"need at least 2 inverse temperatures, got {n_betas}")
    return np.linspace(0.0, 1.0, int(n_betas))


def piecewise_betas(n_betas: int) -> np.ndarray:
    """The Salakhutdinov & Murray (2008) schedule scaled to ``n_betas`` values.

    Their 14500 betas are uniform with spacing 1e-3 on [0, 0.5], 1e-4 on
    [0.5, 0.9] and 1e-5 on [0.9, 1]: fractions 500/14500, 4000/14500 and
    10000/14500 of the points. ``piecewise_betas(14501)`` reproduces it.
    """
    if n_betas < 4:
        return linear_betas(n_betas)
    n = int(n_betas) - 1
    n1 = max(1, int(round(n * 500 / 14500)))
    n2 = max(1, int(round(n * 4000 / 14500)))
    n3 = max(1, n - n1 - n2)
    return np.concatenate(
        [
            np.linspace(0.0, 0.5, n1, endpoint=False),
            np.linspace(0.5, 0.9, n2, endpoint=False),
            np.linspace(0.9, 1.0, n3 + 1),
        ]
    )


def adaptive_betas(pilot_betas: np.ndarray, step_sd: np.ndarray, n_betas: int, uniform_mix: float = 0.1) -> np.ndarray:
    """A ladder of ``n_betas`` inverse temperatures at equal thermodynamic length, from a pilot run.

    For a small step the AIS log-weight increment from ``beta`` to
    ``beta + d`` has standard deviation about ``d * s(beta)`` with
    ``s(beta)^2 = Var_beta[d/dbeta log f_beta(x)]``; under perfect transitions
    the increments are independent and, with ``n(beta)`` betas per unit
    beta, ``Var(log w) ~ int s^2 / n dbeta``; at fixed ``K = int n`` this is
    smallest, ``(int s dbeta)^2 / K``, for ``n`` proportional to ``s``: the
    constant-speed schedule that spends equal amounts of ``s(beta) dbeta`` per
    step (cf. Gelman & Meng 1998 on path sampling; Grosse, Maddison &
    Salakhutdinov 2013 on AIS schedules). The variance of log w also sets
    the downward bias of log Z (about half of it for near-Gaussian weights). ``s`` is estimated on each interval of a
    pilot ladder from the spread over runs of its increments,
    ``s_k = step_sd[k] / (beta_{k+1} - beta_k)``; the pilot's runs, lagging
    behind equilibrium where the chains mix slowly, measure the spread that
    the main run will meet. The density of betas is
    ``(1 - uniform_mix) * s / int s + uniform_mix`` (the uniform part keeps
    steps everywhere, where the pilot saw little spread), and the betas are
    its quantiles, linear within each pilot interval. Endpoints are kept.

    Any schedule fixed before the main run leaves AIS unbiased in Z, so the
    pilot must use random numbers independent of the main run.
    """
    pilot_betas = _check_betas(pilot_betas)
    step_sd = np.asarray(step_sd, dtype=np.float64)
    if step_sd.shape != (pilot_betas.size - 1,):
        raise ValueError(f"step_sd must have one entry per pilot step ({pilot_betas.size - 1}), got shape {step_sd.shape}")
    if not np.all(np.isfinite(step_sd)) or np.any(step_sd < 0):
        raise ValueError("step_sd must be finite and non-negative")
    if not 0.0 < uniform_mix <= 1.0:
        raise ValueError(f"uniform_mix must lie in (0, 1], got {uniform_mix}")
    if n_betas < 2:
        raise ValueError(f"need at least 2 inverse temperatures, got {n_betas}")
    width = np.diff(pilot_betas)
    span = pilot_betas[-1] - pilot_betas[0]
    mass = step_sd / step_sd.sum() if step_sd.sum() > 0 else width / span  # share of length per pilot interval
    mass = (1.0 - uniform_mix) * mass + uniform_mix * width / span
    cum = np.concatenate([[0.0], np.cumsum(mass)])
    cum /= cum[-1]
    betas = np.interp(np.linspace(0.0, 1.0, int(n_betas)), cum, pilot_betas)
    betas[0], betas[-1] = pilot_betas[0], pilot_betas[-1]
    return _check_betas(betas)


def _check_betas(betas: np.ndarray, increasing: bool = True) -> np.ndarray:
    betas = np.asarray(betas, dtype=np.float64)
    if betas.ndim != 1 or betas.size < 2:
        raise ValueError("betas must be a 1-d array of at least 2 inverse temperatures")
    if np.any(betas < 0) or np.any(betas > 1):
        raise ValueError("inverse temperatures must lie in [0, 1]")
    d = np.diff(betas)
    if increasing and np.any(d <= 0):
        raise ValueError("betas must be strictly increasing")
    if not increasing and np.any(d >= 0):
        raise ValueError("betas must be strictly decreasing")
    return betas


# --------------------------------------------------------------------------- driver


@dataclass
class AISRun:
    """Per-run log weights and the log-mean-exp estimate (see module docstring)."""

    log_weights: np.ndarray  # (n_runs,) including log_z_base
    log_z: float
    stderr: float
    ess: float
    n_betas: int
    state: Any = field(default=None, repr=False)
    partial_log_z: np.ndarray | None = field(default=None, repr=False)  # (K+1,) log Z_k estimates at every beta_k
    betas: np.ndarray | None = field(default=None, repr=False)  # (K+1,) the ladder used
    step_sd: np.ndarray | None = field(default=None, repr=False)  # (K,) sd over runs of each step's log-weight increment

    def result(self, method: str = "AIS", budget: float | None = None) -> EstimateResult:
        return EstimateResult(
            estimate=self.log_z,
            stderr=self.stderr,
            method=method,
            budget=float(self.n_betas - 1) if budget is None else float(budget),
            details={"ess": self.ess, "n_runs": int(self.log_weights.size)},
        )


def _default_pair(log_f):
    def pair(state, b0, b1):
        return log_f(state, b0), log_f(state, b1)

    return pair


def anneal(
    betas: np.ndarray,
    state: Any,
    *,
    log_f: Callable | None = None,
    transition: Callable,
    log_f_pair: Callable | None = None,
    transition_first: bool = False,
    partial: list | None = None,
    step_sd: list | None = None,
) -> tuple[np.ndarray, Any]:
    """Run one annealing pass and return ``(sum_j [log f_{b_j}(x) - log f_{b_{j-1}}(x)], state)``.

    Forward AIS (``transition_first=False``): at step ``j = 1..J`` the
    increment is evaluated at the current state, then (for ``j < J``) the
    state moves by ``transition(state, b_j)``. Reverse annealing
    (``transition_first=True``, used by RAISE with decreasing ``betas``): at
    step ``j`` the state first moves by ``transition(state, b_{j-1})`` and the
    increment ``log f_{b_{j-1}}(x) - log f_{b_j}(x)`` (note the sign) is
    accumulated, i.e. the returned sum is the forward-AIS weight formula
    evaluated along the reversed path (Burda et al. 2015). If ``partial`` is
    a list, the running sum after every step is appended to it; if
    ``step_sd`` is a list, the standard deviation over runs of every step's
    increment is (the input of :func:`adaptive_betas`).
    """
    if log_f_pair is None:
        if log_f is None:
            raise ValueError("give log_f or log_f_pair")
        log_f_pair = _default_pair(log_f)
    acc = None
    n_steps = betas.size - 1
    for j in range(1, n_steps + 1):
        b_prev, b_cur = float(betas[j - 1]), float(betas[j])
        if transition_first:
            state = transition(state, b_prev)
            lf_cur, lf_prev = log_f_pair(state, b_cur, b_prev)
            inc = np.asarray(lf_prev, np.float64) - np.asarray(lf_cur, np.float64)
        else:
            lf_prev, lf_cur = log_f_pair(state, b_prev, b_cur)
            inc = np.asarray(lf_cur, np.float64) - np.asarray(lf_prev, np.float64)
            if j < n_steps:
                state = transition(state, b_cur)
        acc = inc.copy() if acc is None else acc + inc
        if step_sd is not None:
            step_sd.append(float(np.std(inc, ddof=1)) if inc.size > 1 else 0.0)
        if partial is not None:
            partial.append(acc.copy())
    return acc, state


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
) -> AISRun:
    """Forward AIS with a model-agnostic interface (Neal 2001; Carlson et al. 2016 sec. 3.2).

    Parameters
    ----------
    betas : array (K+1,)
        Strictly increasing inverse temperatures from ``beta_0`` (the base,
        usually 0) to ``beta_K`` (usually 1). ``K - 1`` transitions are made.
    n_runs : int
        Number of independent annealing runs (chains).
    rng
        Passed unchanged to ``init_sample``; per-run streams keep results
        independent of threading.
    init_sample, transition, log_f, log_f_pair, log_z_base
        The model's tempered family, see the module docstring.
    record_partial : bool
        Also estimate every intermediate ``log Z_k`` from the partial weights
        (``AISRun.partial_log_z``; each is an AIS estimate for the ladder up
        to ``beta_k``).

    Returns
    -------
    AISRun
        ``log_weights`` (n_runs,) are ``log Z_0 + log w``; ``log_z`` their
        log-mean-exp, ``stderr`` its delta-method standard error.
    """
    betas = _check_betas(betas)
    if n_runs < 1:
        raise ValueError(f"n_runs must be >= 1, got {n_runs}")
    state = init_sample(int(n_runs), rng)
    partial = [] if record_partial else None
    sds: list = []
    acc, state = anneal(betas, state, log_f=log_f, log_f_pair=log_f_pair, transition=transition, partial=partial,
                        step_sd=sds)
    log_w = acc + float(log_z_base)
    partial_log_z = None
    if record_partial:
        partial_log_z = np.array([float(log_z_base)] + [log_mean_exp(p + float(log_z_base)) for p in partial])
    if not np.all(np.isfinite(log_w)):
        raise FloatingPointError("non-finite AIS log weight; check log_f and the base distribution")
    return AISRun(
        log_weights=log_w,
        log_z=log_mean_exp(log_w),
        stderr=log_mean_exp_stderr(log_w),
        ess=effective_sample_size(log_w),
        n_betas=int(betas.size),
        state=state,
        partial_log_z=partial_log_z,
        betas=betas,
        step_sd=np.asarray(sds, dtype=np.float64),
    )


# --------------------------------------------------------------------------- RBM


def _softplus(x: np.ndarray) -> np.ndarray:
    return np.logaddexp(0.0, x)


def rbm_log_z_base(base_bias: np.ndarray, n_hidden: int) -> float:
    """``log Z`` at beta = 0 of the RBM family: Bernoulli(logits base_bias) on v, uniform on h."""
    return base_log_partition(base_bias, n_hidden)


def rbm_tempered_log_f(v: np.ndarray, hidden_field: np.ndarray, b, base_bias, beta: float) -> np.ndarray:
    """``log sum_h f_beta(v, h)`` from the hidden pre-activation ``c + v W`` (Carlson et al. eq. 2).

    ``f_beta(v,h) = exp(-beta E(v,h) + (1-beta) base_bias.v)``, so with h
    summed out ``log f_beta(v) = beta b.v + (1-beta) base_bias.v +
    sum_j softplus(beta (c_j + v.W_j))`` (accumulated in float64).
    """
    v64 = np.asarray(v, np.float64)
    lin = v64 @ (beta * np.asarray(b, np.float64) + (1.0 - beta) * np.asarray(base_bias, np.float64))
    return lin + np.sum(_softplus(beta * np.asarray(hidden_field, np.float64)), axis=1)


class RBMAnnealingState:
    """Chains (v, h) of an RBM plus the cached hidden pre-activation ``c + v W``.

    The cache makes one AIS step cost the two matrix products of a Gibbs
    sweep: the field computed for the weight increment is reused to sample h.
    """

    def __init__(self, rbm, v: np.ndarray, h: np.ndarray, streams, base_bias, operator, n_threads: int = 1):
        self.rbm = rbm
        self.v = v
        self.h = h
        self.streams = streams
        self.base_bias = np.asarray(base_bias, dtype=v.dtype)
        self.operator = operator
        self.n_threads = int(n_threads)
        self._field = None
        self._terms = None

    @property
    def hidden_field(self) -> np.ndarray:
        if self._field is None:
            self._field = self.rbm.c + self.v @ self.rbm.W
            self._terms = None
        return self._field

    def _log_f_terms(self):
        """Per-state pieces of log f_beta that do not depend on beta (computed once per sweep).

        ``log f_beta(v) = beta (b.v + sum_j max(x_j, 0)) + (1 - beta) a.v + sum_j log1p(exp(-beta |x_j|))``
        with ``x = c + v W``: the same value as :func:`rbm_tempered_log_f`, with one
        exp and one log1p per unit and beta.
        """
        if self._terms is None:
            x = np.asarray(self.hidden_field, np.float64)
            v64 = np.asarray(self.v, np.float64)
            neg_abs = -np.abs(x)
            self._terms = (
                v64 @ np.asarray(self.rbm.b, np.float64) + np.maximum(x, 0.0).sum(axis=1),
                v64 @ np.asarray(self.base_bias, np.float64),
                neg_abs,
                np.empty_like(neg_abs),
            )
        return self._terms

    def log_f(self, beta: float) -> np.ndarray:
        """``log sum_h f_beta(v, h)`` of every chain (float64)."""
        lin, base, neg_abs, buf = self._log_f_terms()
        np.multiply(neg_abs, beta, out=buf)
        np.exp(buf, out=buf)
        np.log1p(buf, out=buf)
        return beta * lin + (1.0 - beta) * base + buf.sum(axis=1)

    def log_f_pair(self, beta_a: float, beta_b: float):
        return self.log_f(beta_a), self.log_f(beta_b)

    def set_visible(self, V: np.ndarray) -> None:
        """Put the chains' visible units at ``V`` (e.g. data points for RAISE)."""
        self.v[...] = V
        self._field = None
        self._terms = None

    def sweep(self, beta: float) -> "RBMAnnealingState":
        """One sweep at ``beta``: h | v then v | h, through the core's compiled layer update."""
        n = self.v.shape[0]
        betas = np.full(n, beta, dtype=self.v.dtype)
        self.operator.update_layer(self.h, self.hidden_field, self.streams, betas=betas, n_threads=self.n_threads)
        vfield = self.rbm.b + self.h @ self.rbm.W.T
        self.operator.update_layer(
            self.v, vfield, self.streams, betas=betas, base_field=self.base_bias, n_threads=self.n_threads
        )
        self._field = None
        self._terms = None
        return self

    def sweep_visible_first(self, beta: float) -> "RBMAnnealingState":
        """The reversal of :meth:`sweep`: v | h then h | v (used by RAISE)."""
        n = self.v.shape[0]
        betas = np.full(n, beta, dtype=self.v.dtype)
        vfield = self.rbm.b + self.h @ self.rbm.W.T
        self.operator.update_layer(
            self.v, vfield, self.streams, betas=betas, base_field=self.base_bias, n_threads=self.n_threads
        )
        self._field = None
        self._terms = None
        self.operator.update_layer(self.h, self.hidden_field, self.streams, betas=betas, n_threads=self.n_threads)
        return self


def _default_operator(operator):
    if operator is not None:
        return operator
    from ..sampling.operators import Gibbs

    return Gibbs()


def rbm_annealing_model(rbm, base_bias=None, *, operator=None, dtype=np.float64, n_threads: int = 1):
    """The RBM's tempered family as ``(init_sample, transition, log_f_pair, log_z_base)`` for the driver.

    ``init_sample(n, streams)`` draws v from the base Bernoullis (a layer
    update at beta = 0 samples exactly sigmoid(base_bias)) and h uniformly.
    """
    operator = _default_operator(operator)
    base_bias = np.zeros(rbm.n_visible) if base_bias is None else np.asarray(base_bias, np.float64)
    if base_bias.shape != (rbm.n_visible,):
        raise ValueError(f"base_bias must have shape ({rbm.n_visible},), got {base_bias.shape}")
    model = rbm.astype(dtype) if hasattr(rbm, "astype") else rbm

    def init_sample(n, streams):
        if len(streams) != n:
            raise ValueError(f"need one stream per run: {len(streams)} streams for {n} runs")
        v = np.zeros((n, model.n_visible), dtype=dtype)
        h = np.zeros((n, model.n_hidden), dtype=dtype)
        zeros = np.zeros(n, dtype=dtype)
        operator.update_layer(v, np.zeros_like(v), streams, betas=zeros, base_field=base_bias.astype(dtype), n_threads=n_threads)
        operator.update_layer(h, np.zeros_like(h), streams, betas=zeros, n_threads=n_threads)
        return RBMAnnealingState(model, v, h, streams, base_bias.astype(dtype), operator, n_threads)

    def transition(state, beta):
        return state.sweep(beta)

    def log_f_pair(state, b0, b1):
        return state.log_f_pair(b0, b1)

    return init_sample, transition, log_f_pair, rbm_log_z_base(base_bias, rbm.n_hidden)


def ais_log_partition(
    rbm,
    n_runs: int,
    betas: np.ndarray,
    streams,
    base_bias: np.ndarray | None = None,
    *,
    operator=None,
    dtype=np.float64,
    n_threads: int = 1,
    record_partial: bool = False,
) -> AISRun:
    """AIS estimate of an RBM's log Z (Salakhutdinov & Murray 2008; Carlson et al. 2016 sec. 3.2).

    Parameters
    ----------
    rbm : bmrep.models.rbm.RBM
    n_runs : int
        Number of annealing runs (chains); ``len(streams)`` must equal it.
    betas : array
        Increasing inverse temperatures from 0 to 1 (:func:`linear_betas`,
        :func:`piecewise_betas`); ``len(betas) - 2`` sweeps per run.
    streams : bmrep.sampling.ChainStreams
        One random stream per run.
    base_bias : array (n_visible,), optional
        Logits of the base Bernoullis on v (zeros: uniform); see
        :mod:`bmrep.estimators.base`.
    """
    init_sample, transition, log_f_pair, log_z0 = rbm_annealing_model(
        rbm, base_bias, operator=operator, dtype=dtype, n_threads=n_threads
    )
    return ais_log_weights(
        betas,
        n_runs=n_runs,
        rng=streams,
        init_sample=init_sample,
        transition=transition,
        log_f_pair=log_f_pair,
        log_z_base=log_z0,
        record_partial=record_partial,
    )
