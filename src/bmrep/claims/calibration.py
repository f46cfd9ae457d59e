"""Claims of the calibration study (issue 23, spec section 6), as declarations with their metrics.

Every estimate is over the study's independent replicates against the
model's exact log Z (table ``estimates``: one row per model, method, budget
and replicate, with ``error`` and ``covered``):

- ``{model}/{estimator}/jensen_gap_{sweeps}`` (interval, AIS and RAISE at each
  budget): the mean error minus its Jensen-gap expectation (-var/2 for AIS,
  unbiased in Z; +var/2 for RAISE, unbiased in 1/Z; var the replicates'
  variance of log Z), bootstrap over replicates.
- ``{estimator}/coverage`` (one-sided proportion over every replicate of the
  estimator): the reported +-2 s.e. interval covers the exact value more
  often than 0.85 (nominal 0.95); Wilson interval.
- ``{model}/rts_beats_ais`` (ordering, trained models): RMSE(RTS) - RMSE(AIS)
  < 0 at the smallest matched budget (carlson2016 Fig. 3 against an exact
  truth); bootstrap over replicates.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .carlson2016_metrics import repeat_rmse
from .core import Above, Below, Between, Claim, NotRun
from .stats import bootstrap_estimate, proportion_estimate

PAPER = "calibration"
JENSEN = Between(-0.1, 0.1)
JENSEN_SIGN = {"AIS": -1.0, "RAISE": 1.0}  # the expected error is sign * var / 2
UNBIASED_IN = {"AIS": "AIS unbiased in Z", "RAISE": "RAISE unbiased in 1/Z"}
COVERAGE = Above(0.85)
STATED_ERROR = ("AIS", "RAISE", "RTS", "TS", "MBAR")  # the estimators that report a standard error
RTS_BEATS_AIS = Below(0.0)


def _rows(r, model: str | None, method: str, sweeps: int | None = None) -> pd.DataFrame:
    d = r["estimates"]
    d = d[d["method"] == method]
    if model is not None:
        d = d[d["model"] == model]
    if sweeps is not None:
        d = d[d["sweeps"] == int(sweeps)]
    if d.empty:
        raise NotRun(f"no {method} replicates for {model or 'any model'}" + (f" at {sweeps} sweeps" if sweeps else ""))
    return d.sort_values("replicate", kind="stable")


# Where RAISE's reverse chains start (experiments/calibration/models.py).
RAISE_START = {True: "MNIST test images", False: "exact samples of the model"}


def jensen_gap(model: str, method: str, sweeps: int, trained: bool = False, n_chains: int | None = None):
    """Metric: mean error minus sign * var / 2 over the replicates, bootstrap standard error.

    RAISE's log Z is the mean over its chains of each chain's log estimate (one
    per starting point, Burda et al. 2015), not the log of a mean, so each chain
    keeps its own Jensen gap: about ``n_chains * se^2 / 2`` with ``se`` its
    stated error (the spread over chains / sqrt(n_chains)). The details show that
    value beside the replicates' var/2 that the claim (spec section 6) uses.
    """
    sign = JENSEN_SIGN[method]

    def metric(r):
        rows = _rows(r, model, method, sweeps)
        e = rows["error"].to_numpy(np.float64)

        def stat(x):
            return float(x.mean() - sign * x.var(ddof=1) / 2) if x.size > 1 else float("nan")

        var = float(e.var(ddof=1)) if e.size > 1 else float("nan")
        details = (f"mean error {e.mean():+.4f} nats, replicates' sd {np.sqrt(var):.4f}, expected gap "
                   f"{sign * var / 2:+.4f} ({e.size} replicates at {sweeps} sweeps)")  # fmt: skip
        if method == "RAISE":
            details += f"; RAISE's chains start at {RAISE_START[trained]}"
            if n_chains:
                se = rows["stderr"].to_numpy(np.float64)
                gap = n_chains * np.mean(se**2) / 2
                details += (f"; its log Z averages {n_chains} chains' log estimates, each with its own Jensen "
                            f"gap: n s.e.^2/2 = {gap:+.4f} from its stated errors")  # fmt: skip
        return bootstrap_estimate(e, stat, details)

    return metric


def coverage(method: str):
    """Metric: the fraction of all of ``method``'s replicates whose +-2 s.e. interval holds the exact log Z."""

    def metric(r):
        d = _rows(r, None, method)
        c = d["covered"].dropna()
        if c.empty:
            raise NotRun(f"{method} reports no standard error")
        per = d.groupby(["model", "sweeps"])["covered"].mean()
        worst = per.idxmin()
        details = (f"{int(c.sum())} of {c.size} intervals cover; lowest {per.min():.2f} on {worst[0]} at {worst[1]} "
                   f"sweeps, highest {per.max():.2f}")  # fmt: skip
        return proportion_estimate(int(c.sum()), int(c.size), details)

    return metric


def rts_beats_ais(model: str):
    """Metric: RMSE(RTS) - RMSE(AIS) against the exact log Z at the smallest budget, bootstrap over replicates."""

    def metric(r):
        d = pd.concat([_rows(r, model, "RTS"), _rows(r, model, "AIS")])
        b0 = int(d["sweeps"].min())
        m = d[d["sweeps"] == b0].pivot_table(index="replicate", columns="method", values="error", aggfunc="first")
        x = m[["RTS", "AIS"]].dropna().to_numpy(np.float64)
        rts, ais = repeat_rmse(x)
        details = f"RMSE at {b0} sweeps over {len(x)} replicates: RTS {rts:.4f}, AIS {ais:.4f} nats"
        return bootstrap_estimate(x, lambda e: float(np.subtract(*repeat_rmse(e))), details)

    return metric


def claims(settings: dict) -> list[Claim]:
    """The claims of spec section 6.

    Parameters
    ----------
    settings : dict
        ``models``: model name -> its budgets (sweeps per chain);
        ``trained``: the names of the trained models; ``n_chains`` (optional): chains per estimate.
    """
    out = []
    for model, budgets in settings["models"].items():
        for method in ("AIS", "RAISE"):
            direction = "below" if method == "AIS" else "above"
            out += [
                Claim(id=f"{PAPER}/{model}/{method}/jensen_gap_{int(b)}", kind="interval",
                      text=f"{model}, {method} at {int(b)} sweeps: the mean error of log Z minus its Jensen-gap "
                           f"expectation ({'-' if method == 'AIS' else '+'}var/2, {direction} the truth) "
                           "is in {threshold} {unit}",
                      threshold=JENSEN, unit="nats", paper_value=UNBIASED_IN[method],
                      metric=jensen_gap(model, method, int(b), model in settings["trained"], settings.get("n_chains")))
                for b in sorted(budgets)
            ]  # fmt: skip
    out += [
        Claim(id=f"{PAPER}/{method}/coverage", kind="one-sided",
              text=f"the fraction of {method}'s replicates (all models and budgets) whose reported +-2 s.e. "
                   "interval covers the exact log Z is {threshold}",
              threshold=COVERAGE, paper_value="nominal 0.95", metric=coverage(method))
        for method in STATED_ERROR
    ]  # fmt: skip
    out += [
        Claim(id=f"{PAPER}/{model}/rts_beats_ais", kind="ordering",
              text="on this trained model (the id's), RMSE(RTS) - RMSE(AIS) against the exact log Z at the "
                   "smallest matched budget is {threshold} {unit}",
              threshold=RTS_BEATS_AIS, unit="nats", paper_value="RTS lower (carlson2016 Fig. 3)",
              metric=rts_beats_ais(model))
        for model in settings["trained"]
    ]  # fmt: skip
    return out
