"""Every estimator of Carlson et al. (2016) against exact values on small enumerable RBMs (spec section 4).

The exact check is a calibration: R independent replicates of every
estimator at one matched budget on each model. A model (one per weight
scale) is fixed by its key; a replicate draws its own random streams (and
RAISE's starting data), keyed by (model, replicate), so the replicates are
independent and do not depend on how they are sharded. AIS, RAISE, RTS, TS
and MBAR are compared with the exact log Z; each TI rule with the same rule
applied to the exact integrand ``E_beta[Delta]`` (enumerated at every beta of
the ladder), so the check tests the sampler and not the rule's
discretisation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...estimators.ais import ais_log_partition
from ...estimators.base import base_log_partition, data_marginal_base_bias
from ...estimators.mbar import mbar_log_z
from ...estimators.rbm_rts import budget_tempered_run
from ...estimators.reverse_ais import raise_log_partition
from ...estimators.ti import ti_log_z, ti_rules
from ...models.exact import rbm as exact
from ...models.rbm import RBM
from ...sampling.ladders import linear_betas
from ...sampling.streams import ChainStreams
from ...seeds import rng as make_rng

BASE_SAMPLES = 1000  # exact samples whose marginals (pseudo-count 1) give the base p1
LOG_Z_METHODS = ("AIS", "RAISE", "RTS", "TS", "MBAR")
TI_METHODS = ("TI-riemann", "TI-trapezoid", "TI-trapezoid-corrected", "TI-RB")
COLUMNS = ["weight_scale", "replicate", "method", "estimate", "stderr", "exact", "exact_rule", "error", "z"]


@dataclass
class ExactModel:
    """One enumerable RBM of the check with its exact answers."""

    index: int
    weight_scale: float
    rbm: RBM
    base_bias: np.ndarray
    log_z: float
    rule_log_z: dict  # TI estimator name -> its rule applied to the exact integrand (plus log Z_1)


def exact_check_model(settings: dict, seed: int, index: int) -> ExactModel:
    """The ``index``-th model: W, b, c ~ N(0, s^2), s = ``weight_scales[index]``; base p1 from exact samples.

    Parameters
    ----------
    settings : dict
        ``n_visible``, ``n_hidden``, ``weight_scales``, ``K``.
    seed : int
        Root seed.
    index : int
        Which weight scale.

    Returns
    -------
    ExactModel
        With the exact log Z and, for each TI estimator, its quadrature rule on
        the K linear betas applied to the exact ``E_beta[Delta]`` and
        ``Var_beta[Delta]`` (TI-RB: the trapezoid rule), plus ``log Z_1``.
    """
    nv, nh = int(settings["n_visible"]), int(settings["n_hidden"])
    s = float(settings["weight_scales"][index])
    rng = make_rng(seed, "carlson2016", "exact_check", index)
    rbm = RBM(rng.normal(0, s, (nv, nh)), rng.normal(0, s, nv), rng.normal(0, s, nh))
    V, _ = exact.sample_exact(rbm, BASE_SAMPLES, rng)
    base_bias = data_marginal_base_bias(V, 1.0)
    betas = linear_betas(int(settings["K"]))
    moments = np.array([exact.tempered_delta_moments(rbm, b, base_bias) for b in betas])
    log_z1 = base_log_partition(base_bias, nh)
    rules = ti_rules(betas, moments[:, 0], moments[:, 1], rb_means=moments[:, 0])
    return ExactModel(index, s, rbm, base_bias, exact.log_partition(rbm), {m: log_z1 + v for m, v in rules.items()})


def exact_check_replicate(model: ExactModel, settings: dict, seed: int, replicate: int) -> list[dict]:
    """One replicate of every estimator on ``model`` at the check's budget (``sweeps`` per chain).

    AIS and RAISE: ``sweeps + 1`` linear betas on ``n_chains`` runs (RAISE
    from ``n_chains`` exact samples drawn for this replicate). RTS/TS (eq. 12
    and its non-Rao-Blackwellized form): K linear betas, uniform prior,
    ``init_iterations`` x ``init_sweeps`` initial sweeps, then the continued
    main run to ``sweeps`` sweeps in all. MBAR, TI and TI-RB (eq. 21) on the
    main run's samples (MBAR on its sweeps evenly thinned to at most
    ``mbar_max_samples`` samples: pymbar's cost grows with N K).

    Returns
    -------
    list of dict
        ``method``, ``estimate``, ``stderr`` (the estimator's own; NaN for TI).
    """
    n_chains, sweeps = int(settings["n_chains"]), int(settings["sweeps"])
    key = ("carlson2016", "exact_check", model.index, "replicate", int(replicate))
    rbm, base_bias = model.rbm, model.base_bias
    rows = []
    betas_ais = linear_betas(sweeps + 1)
    ais = ais_log_partition(
        rbm, n_chains, betas_ais, ChainStreams.from_seed(seed, *key, "AIS", n_chains=n_chains), base_bias
    )
    rows.append({"method": "AIS", "estimate": ais.estimate, "stderr": ais.stderr})
    V, _ = exact.sample_exact(rbm, n_chains, make_rng(seed, *key, "RAISE data"))
    res = raise_log_partition(
        rbm, V, betas_ais, ChainStreams.from_seed(seed, *key, "RAISE", n_chains=n_chains), base_bias
    )
    rows.append({"method": "RAISE", "estimate": res.estimate, "stderr": res.stderr})
    run = budget_tempered_run(rbm, base_bias, settings, [sweeps], seed=seed, key=key + ("ST",), record=True)
    betas, log_prior = run.betas, run.log_prior
    _, rts, ts = run.checkpoints[-1]
    rows += [{"method": r.method, "estimate": r.estimate, "stderr": r.stderr} for r in (rts, ts)]
    log_z1 = base_log_partition(base_bias, rbm.n_hidden)
    thin = -(-run.record.delta.size // int(settings["mbar_max_samples"]))  # ceil: at most that many samples
    m = mbar_log_z(
        run.record.delta[::thin].ravel(),
        run.record.k[::thin].ravel().astype(np.int64),
        betas,
        log_z1,
        initial_log_z=rts.details["log_z"],  # the solver's start: fewer iterations, the same solution
    )
    rows.append({"method": "MBAR", "estimate": m.estimate, "stderr": m.stderr})
    d, kk = run.record.delta.ravel(), run.record.k.ravel().astype(np.int64)
    for name, r in ti_log_z(d, kk, betas, log_z1, log_prior=log_prior, log_zhat=run.log_zhat).items():
        rows.append({"method": name, "estimate": r.estimate, "stderr": np.nan})
    return rows


def exact_check_shard(settings: dict, seed: int, replicates) -> pd.DataFrame:
    """Replicates ``replicates`` of the exact check on every model (one shard's table).

    Parameters
    ----------
    settings : dict
        ``n_visible``, ``n_hidden``, ``weight_scales``, ``n_chains``, ``sweeps``, ``K``, ``init`` (the RTS
        initial iterations' start), ``init_iterations``, ``init_sweeps``, ``mbar_max_samples``.
    seed : int
        Root seed.
    replicates : iterable of int
        The replicate indices of this shard.

    Returns
    -------
    DataFrame
        One row per (weight scale, replicate, method): ``estimate``, ``stderr``
        (NaN where the method states none), ``exact`` (log Z), ``exact_rule``
        (a TI rule on the exact integrand; NaN for the others), ``error``
        (estimate minus ``exact_rule`` for TI, minus ``exact`` otherwise) and
        ``z`` (error / stderr).
    """
    rows = []
    for i in range(len(settings["weight_scales"])):
        model = exact_check_model(settings, seed, i)
        for rep in replicates:
            for r in exact_check_replicate(model, settings, seed, rep):
                ref = model.rule_log_z.get(r["method"], np.nan)
                rows.append({**r, "weight_scale": model.weight_scale, "replicate": int(rep), "exact": model.log_z,
                             "exact_rule": ref})  # fmt: skip
    df = pd.DataFrame(rows)
    df["error"] = df["estimate"] - df["exact_rule"].where(df["method"].isin(TI_METHODS), df["exact"])
    df["z"] = df["error"] / df["stderr"]
    return df[COLUMNS]
