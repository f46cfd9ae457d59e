"""The carlson2016 claims judged against a truth: Figs. 3 and 4 (shared spec section 4).

Fig. 3's truth is a bracket, long AIS (a lower bound in expectation) and long
RAISE (an upper one), and a comparison with it is decided only when its
verdict is the same with the truth at either end (:func:`bracket_closure`).
Fig. 4's RMSE is taken against the same bracket's midpoint over independent
runs per K. The other metrics are :mod:`bmrep.papers.carlson2016.claims_metrics`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...claims import verdict as V
from ...claims.core import Estimate, NotRun
from ...claims.stats import bootstrap_estimate, mean_estimate, repeat_rmse
from .claims_metrics import repeat_matrix

# --------------------------------------------------------------------------- the truth bracket (Figs. 3, 4)


def _verdict_margin(est: Estimate, threshold) -> float:
    """How far ``est`` is from the nearest boundary of ``threshold``, in standard errors (inf if s is 0 or NaN)."""
    bounds = [threshold.lo, threshold.hi] if hasattr(threshold, "lo") else [threshold.t]
    gap = min(abs(est.value - b) for b in bounds)
    return gap / est.std_error if est.std_error > 0 and math.isfinite(est.std_error) else math.inf


def bracket_closure(at_lower: Estimate, at_upper: Estimate, bracket, threshold, what: str) -> Estimate:
    """The closure rule of the truth bracket (spec sec. 4, fig3): decided only if the truth's end does not matter.

    The claim's estimate is made with the truth at the bracket's lower end A
    (``at_lower``) and at its upper end R (``at_upper``), and decided at
    each; when both give the same decided verdict, the estimate of the end
    nearer its boundary (the harder case) is returned and the framework
    decides it the same way. Otherwise (the ends disagree, or neither
    decides) the result is inconclusive: the ends' midpoint with its
    standard error widened by the ends' spread, ``s = max(s_A, s_R) +
    |d_A - d_R| / (2 k(n))``, which the framework cannot decide either way
    unless both ends would have decided the same (so a bracket too wide to
    tell stays inconclusive, with details saying so).

    Parameters
    ----------
    at_lower, at_upper : Estimate
        The claim's estimate with the truth at A and at R.
    bracket : (float, float)
        The bracket's ends A and R.
    threshold : Above, Below or Between
        The claim's threshold.
    what : str
        What the estimate is, for the details.
    """
    ends = {"A": at_lower, "R": at_upper}
    verdicts = {end: threshold.decide(e, exact=False)[0] for end, e in ends.items()}
    at = "; ".join(
        f"truth at {end} = {t:.3f}: {e.value:+.3f} +- {e.std_error:.3f} ({verdicts[end]})"
        for (end, e), t in zip(ends.items(), bracket, strict=True)
    )
    eA, eR = ends["A"], ends["R"]
    if verdicts["A"] == verdicts["R"] and verdicts["A"] != V.INCONCLUSIVE:
        e = min(ends.values(), key=lambda x: _verdict_margin(x, threshold))
        return Estimate(e.value, e.std_error, e.n, f"{what}; {at}; the same at both ends of the bracket")
    n = min(eA.n, eR.n)
    if verdicts["A"] == verdicts["R"]:  # inconclusive at both: more repeats would tell
        e = min(ends.values(), key=lambda x: _verdict_margin(x, threshold))
        return Estimate(e.value, e.std_error, e.n, f"{what}; {at}; inconclusive at both ends")
    return Estimate(
        0.5 * (eA.value + eR.value),
        max(eA.std_error, eR.std_error),
        n,
        f"{what}; {at}; the estimate is the ends' midpoint",
        undecided="the truth bracket is too wide (a longer truth, not more repeats, would tell)",
    )


def _bracket_ends(r, model: str) -> tuple[Estimate, Estimate, str]:
    """The bracket of ``model``: A and R as :class:`Estimate` over their runs, and a description."""
    truth = r["fig3_truth"]
    truth = truth[truth["model"] == model]
    ends = []
    for method in ("AIS", "RAISE"):
        x = truth.loc[truth["method"] == method, "estimate"]
        if x.empty:
            raise NotRun(f"model {model} has no long {method} runs for the truth bracket")
        ends.append(mean_estimate(x))
    A, R = ends
    sweeps = int(truth["sweeps"].max())
    T, h = (A.value + R.value) / 2, (R.value - A.value) / 2
    text = (f"bracket A = {A.value:.3f} +- {A.std_error:.3f} ({A.n} AIS runs), R = {R.value:.3f} +- {R.std_error:.3f} "
            f"({R.n} RAISE runs) of {sweeps} sweeps, T = {T:.3f}, h = {h:.3f}")  # fmt: skip
    return A, R, text


# --------------------------------------------------------------------------- Fig. 3


def _fig3_smallest_budget(r, model: str) -> tuple[pd.DataFrame, int]:
    """The repeats of ``model`` at its smallest budget."""
    est = r["fig3_estimates"]
    est = est[est["model"] == model]
    if est.empty:
        raise NotRun(f"model {model} is not in this run's fig3 tables")
    b0 = int(est["sweeps"].min())
    return est[est["sweeps"] == b0], b0


def fig3_mean_vs_truth(model: str, method: str, threshold):
    """Metric (Fig. 3): mean ``method`` estimate at the smallest budget minus the truth, by the closure rule.

    At each end of the bracket the difference of two independent means
    (the repeats' and the truth runs'), ``s^2 = s_mean^2 + s_end^2`` and
    ``n`` the smaller count (spec, "Deciding"). The runs' own stated error is
    reported beside the spread of the repeats.
    """

    def metric(r):
        d, b0 = _fig3_smallest_budget(r, model)
        d = d[d["method"] == method]
        if d.empty:
            raise NotRun(f"fig3 has no {method} estimates for {model}")
        A, R, text = _bracket_ends(r, model)
        x = mean_estimate(d["estimate"])
        sd = float(d["estimate"].std(ddof=1)) if len(d) > 1 else math.nan
        stated = float(d["stderr"].mean())

        def minus(end: Estimate) -> Estimate:
            return Estimate(x.value - end.value, math.hypot(x.std_error, end.std_error), min(x.n, end.n))

        what = (f"mean {method} at {b0} sweeps {x.value:.3f} +- {x.std_error:.3f} over {x.n} repeats "
                f"(stated error of one run {stated:.3f}, their spread {sd:.3f}: ratio {stated / sd:.2f}); "
                f"{text}")  # fmt: skip
        return bracket_closure(minus(A), minus(R), (A.value, R.value), threshold, what)

    return metric


def fig3_rts_beats_ais(model: str, threshold):
    """Metric (Fig. 3): RMSE(RTS) - RMSE(AIS) at the smallest budget, bootstrap over repeats, by the closure rule."""

    def metric(r):
        d, b0 = _fig3_smallest_budget(r, model)
        m = repeat_matrix(d, "method", "estimate")
        if not {"RTS", "AIS"} <= set(m.columns):
            raise NotRun(f"fig3 lacks RTS or AIS estimates for {model}")
        x = m[["RTS", "AIS"]].dropna().to_numpy()
        A, R, text = _bracket_ends(r, model)

        def at(t):
            return bootstrap_estimate(x - t, lambda e: float(np.subtract(*repeat_rmse(e))))

        T = 0.5 * (A.value + R.value)
        rts, ais = repeat_rmse(x - T)
        diff = at(T)
        what = (f"RMSE against T at {b0} sweeps over {len(x)} repeats: RTS {rts:.4f} - AIS {ais:.4f} = "
                f"{diff.value:+.4f} +- {diff.std_error:.4f}; {text}")  # fmt: skip
        return bracket_closure(at(A.value), at(R.value), (A.value, R.value), threshold, what)

    return metric


# --------------------------------------------------------------------------- Fig. 4


def _fig4_errors(r, method: str) -> tuple[pd.DataFrame, str]:
    """Runs x K matrix of ``method``'s Fig. 4 estimates (independent runs), and the model."""
    d = r["fig4_estimates"]
    d = d[d["method"] == method]
    if d.empty:
        raise NotRun(f"fig4 has no {method} estimates")
    m = d.pivot_table(index="run", columns="K", values="estimate", aggfunc="first", dropna=False).sort_index()
    return m[sorted(m.columns)], str(d["model"].iloc[0])


def rts_insensitive_to_k(threshold):
    """Metric (Fig. 4): log of RMSE(RTS) at the largest K over its smallest value over K, bootstrap over runs."""

    def metric(r):
        m, model = _fig4_errors(r, "RTS")
        x = m.dropna().to_numpy()
        A, R, text = _bracket_ends(r, model)

        def log_ratio(err):
            rmse = repeat_rmse(err)
            return float(np.log(rmse[-1] / rmse.min()))

        def at(t):
            return bootstrap_estimate(x - t, log_ratio)

        rmse = repeat_rmse(x - 0.5 * (A.value + R.value))
        by_k = ", ".join(f"{k}: {v:.3f}" for k, v in zip(m.columns, rmse, strict=True))
        what = (f"ratio {rmse[-1] / rmse.min():.3f} against T; RTS RMSE by K {by_k} over {len(x)} independent runs "
                f"per K; {text}")  # fmt: skip
        return bracket_closure(at(A.value), at(R.value), (A.value, R.value), threshold, what)

    return metric


def ti_error_grows_as_k_shrinks(threshold):
    """Metric (Fig. 4): the slope of log RMSE(TI trapezoid) on log K, bootstrap over runs."""

    def metric(r):
        m, model = _fig4_errors(r, "TI")
        x = m.dropna().to_numpy()
        lk = np.log(m.columns.to_numpy(dtype=np.float64))
        A, R, text = _bracket_ends(r, model)

        def slope(err):
            return float(np.polyfit(lk, np.log(repeat_rmse(err)), 1)[0])

        def at(t):
            return bootstrap_estimate(x - t, slope)

        T = 0.5 * (A.value + R.value)
        by_k = ", ".join(f"{k}: {v:+.3f}" for k, v in zip(m.columns, (x - T).mean(axis=0), strict=True))
        what = f"slope of log RMSE on log K; TI error (mean over {len(x)} runs) by K {by_k}; {text}"
        return bracket_closure(at(A.value), at(R.value), (A.value, R.value), threshold, what)

    return metric
