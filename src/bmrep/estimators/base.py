"""Base distributions p1 of the tempered family and the common estimate record.

Carlson et al. (2016) eq. 2: ``f_k(x) = f(x)^beta_k p1(x)^(1 - beta_k)``. For
RBMs p1 is a product of Bernoullis on the visible units (uniform on the
hidden units), either uniform or matching the training data's marginals
(Salakhutdinov & Murray 2008, used for Carlson et al. Fig. 3). A base is
given by its logits ``base_bias`` (n_visible,). :class:`AnnealingModel` is
such a family as the AIS and RAISE drivers take it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np
from scipy.special import softplus

__all__ = ["EstimateResult", "AnnealingModel", "uniform_base_bias", "data_marginal_base_bias", "base_log_partition"]


@dataclass(frozen=True)
class EstimateResult:
    """An estimate of log Z with its own uncertainty.

    Attributes
    ----------
    estimate : float
        The estimate of log Z (nats).
    stderr : float
        The method's own standard error (NaN where the method gives none).
    method : str
        ``"AIS"``, ``"RAISE"``, ``"RTS"``, ``"TS"``, ``"TI-riemann"``, ...
    budget : float
        Sweeps (or samples) per chain spent.
    details : dict
        Method-specific extras (iterations, residuals, the estimates along the ladder, ...).
    ess : float
        Effective sample size of the weights behind the estimate (NaN where the method has none).

    Every estimator of log Z returns this record: AIS (its
    :class:`~bmrep.estimators.ais.AISRun` extends it with the per-run arrays),
    RAISE, RTS/TS (:meth:`~bmrep.estimators.rts.TemperingStats.result`), MBAR,
    and TI one per quadrature rule (the rules share one pass over the samples).
    """

    estimate: float
    stderr: float
    method: str
    budget: float
    details: dict = field(default_factory=dict)
    ess: float = float("nan")

    def row(self) -> dict:
        return {"method": self.method, "estimate": self.estimate, "stderr": self.stderr, "budget": self.budget}


class AnnealingModel(NamedTuple):
    """A tempered family as the annealing drivers take it (see :mod:`bmrep.estimators.ais` for the contract).

    The fields are the keywords of :func:`bmrep.estimators.ais.ais_log_weights`
    of the same names, so ``ais_log_weights(betas, ..., **model._asdict())``
    anneals it; RAISE takes all but ``init_sample``.
    """

    init_sample: Callable
    transition: Callable
    log_f_pair: Callable
    log_z_base: float


def uniform_base_bias(n_visible: int) -> np.ndarray:
    """Logits of the uniform base: zeros."""
    return np.zeros(int(n_visible))


def data_marginal_base_bias(X: np.ndarray, pseudo_count: float = 1.0) -> np.ndarray:
    """Logits of Bernoullis matching the data's marginals (Salakhutdinov & Murray 2008).

    ``p_i = (sum_n x_ni + pseudo_count) / (N + 2 pseudo_count)``; the pseudo
    count keeps pixels that are always 0 or 1 at a finite logit.
    """
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError("X must be a 2-d data matrix")
    if pseudo_count <= 0:
        raise ValueError("pseudo_count must be > 0")
    p = (X.sum(axis=0, dtype=np.float64) + pseudo_count) / (X.shape[0] + 2.0 * pseudo_count)
    return np.log(p) - np.log1p(-p)


def base_log_partition(base_bias, n_hidden: int = 0) -> float:
    """Log Z at beta = 0 of the tempered family: a product of Bernoullis times ``n_hidden`` uniform units.

    ``sum_i softplus(a_i) + n_hidden log 2``. ``base_bias`` is the logits
    ``a`` of one layer (an RBM's visible units, eq. 2 of Carlson et al. 2016)
    or a tuple of per-layer logits (a DBM's ``(a, a1, a2)``, see
    :func:`bmrep.models.dbm.base_logits`), summed layer by layer.
    """
    layers = base_bias if isinstance(base_bias, (tuple, list)) else (base_bias,)
    total = sum(np.sum(softplus(np.asarray(a, np.float64))) for a in layers)
    return float(total + n_hidden * np.log(2.0))
