"""The metrics of Carlson, Stinson, Pakman & Paninski (2016)'s claims (shared spec section 4).

Each metric reads the result tables the claims rule names: ``exact_check``
(one row per weight scale, replicate and method), ``fig1`` (initial iterations per
seed and variant), ``fig1_main`` (the RB chains' main run per seed and
checkpoint), ``fig2_estimates`` and ``fig3_estimates`` (one row per
repeat), ``fig2_reference`` (one row per TI rule and reference run),
``fig3_truth`` (the long AIS and RAISE runs of the truth bracket, one row
per run), ``fig4_estimates`` (one row per independent run, K and method) and
``fig5`` (the training trace with its AIS checkpoints), and returns an
:class:`Estimate` (or raises :class:`NotRun`). The declarations that judge
them are :mod:`bmrep.papers.carlson2016.claims`. Comparisons with the truth of
Figs. 3 and 4 follow the bracket's closure rule (:func:`bracket_closure`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...claims.core import Estimate, NotRun
from ...claims.stats import bootstrap_estimate, mean_estimate, paired_difference, proportion_estimate, repeat_rmse

ISSUE = "issue 20"

# Fig. 1: the iterations the paper plots, and the stopping-rule horizon.
FIG1_ITERATIONS = (1, 2, 4, 6, 8)
FIG1_STOP_WITHIN = 10

# Fig. 5: log Z must move this far over training for a tracker to be tested.
FIG5_MIN_MOVE = 2.0


# --------------------------------------------------------------------------- helpers


def _seed_groups(df: pd.DataFrame):
    """The table per seed (one group when the table has no ``seed`` column: one seed today)."""
    if "seed" in df.columns:
        return [g for _, g in df.groupby("seed", sort=True)]
    return [df]


def repeat_matrix(df: pd.DataFrame, column: str, value_col: str = "err") -> pd.DataFrame:
    """Repeats x ``column`` matrix of ``value_col`` (rows sorted by repeat)."""
    return df.pivot_table(index="repeat", columns=column, values=value_col, aggfunc="first", dropna=False).sort_index()


# --------------------------------------------------------------------------- exact check


def exact_error(method: str):
    """Metric (all-of, one part per weight scale): ``method``'s mean error over the exact check's replicates.

    The error is the estimate minus the exact log Z, for a TI rule minus the
    same rule applied to the exact integrand (column ``error``); the standard
    error is over the independent replicates. Each part's label shows the
    estimator's own stated error beside the replicates' spread (and their
    ratio), or for a TI rule its discretisation bias (the rule's exact value
    minus log Z), which the error leaves out.
    """

    def metric(r):
        t = r["exact_check"]
        rows = t[t["method"] == method]
        if rows.empty:
            raise NotRun(f"the exact check has no {method} rows")
        parts = []
        for scale, g in rows.groupby("weight_scale", sort=True):
            err = g["error"].to_numpy(np.float64)
            sd = float(err.std(ddof=1)) if err.size > 1 else math.nan
            stated = float(np.nanmean(g["stderr"])) if g["stderr"].notna().any() else math.nan
            if math.isfinite(stated):
                note = f"stated s.e. {stated:.3g} vs replicate sd {sd:.3g}, ratio {stated / sd:.2f}"
            else:
                note = f"rule bias {float(g['exact_rule'].iloc[0] - g['exact'].iloc[0]):+.3g} nats, no stated error"
            parts.append((f"weights N(0, {scale:g}^2) ({note})", mean_estimate(err)))
        return parts

    return metric


# --------------------------------------------------------------------------- Fig. 1


def _fig1_rms_errors(df: pd.DataFrame, variant: str) -> tuple[list[float], list[int]]:
    """Per seed: RMS over k of log Zhat_k - exact, summed over the paper's iterations that were run."""
    out, used = [], []
    for g in _seed_groups(df):
        sub = g[g["variant"] == variant]
        used = [i for i in FIG1_ITERATIONS if i in set(sub["iteration"])]
        if not used:
            raise NotRun("fig1 has none of the iterations 1, 2, 4, 6, 8")
        sub = sub[sub["iteration"].isin(used)]
        sq = np.square(sub["log_zhat"] - sub["exact"])
        out.append(float(np.sqrt(sq.groupby(sub["iteration"]).mean()).sum()))
    return out, used


def rao_blackwell_reduces_error(r):
    """Metric (Fig. 1): summed RMS error of log Z_k with minus without Rao-Blackwellization, paired by seed."""
    rb, used = _fig1_rms_errors(r["fig1"], "RB")
    ts, _ = _fig1_rms_errors(r["fig1"], "TS")
    return paired_difference(
        rb, ts, f"RB {np.mean(rb):.3f} - TS {np.mean(ts):.3f} nats, iterations {used}, paired over {len(rb)} seed(s)"
    )


def stops_within_10(r):
    """Metric (Fig. 1): the fraction of seeds whose RB stopping rule fired within ``FIG1_STOP_WITHIN`` iterations."""
    hits, undecided = 0, 0
    groups = _seed_groups(r["fig1"])
    for g in groups:
        rb = g[g["variant"] == "RB"]
        conv, run = int(rb["converged_at"].iloc[0]), int(rb["iteration"].max())
        if 1 <= conv <= FIG1_STOP_WITHIN:
            hits += 1
        elif run < FIG1_STOP_WITHIN:
            undecided += 1
    if undecided:
        raise NotRun(
            f"{undecided} seed(s) had not stopped after the {run} initial iterations run "
            f"(the claim needs {FIG1_STOP_WITHIN})"
        )
    return proportion_estimate(
        hits, len(groups), f"{hits} of {len(groups)} seeds stopped within {FIG1_STOP_WITHIN} iterations"
    )


def final_log_z(r):
    """Metric (Fig. 1): the RTS log Z_K of the main run continuing the initial iterations, minus exact, over seeds.

    The main run (``fig1_main``, its longest checkpoint) keeps the chains' x
    and k and freezes Zhat at the initial iterations' estimate (sec. 2.4). The
    details give the error after the initial iterations alone, which restart
    at fresh uniform temperatures each iteration and leave log Z_K low (spec
    section 4, "Decided after measurement").
    """
    m = r["fig1_main"]
    m = m[m["main_sweeps"] == m["main_sweeps"].max()].sort_values("seed")
    if m.empty:
        raise NotRun("no Fig. 1 main run")
    errs = (m["log_z"] - m["exact"]).to_numpy(np.float64)
    init = (m["init_log_z"] - m["exact"]).to_numpy(np.float64)
    n = len(errs)
    sd, sd0 = (float(np.std(x, ddof=1)) if n > 1 else math.nan for x in (errs, init))
    return mean_estimate(
        errs,
        f"main run of {int(m['main_sweeps'].iloc[0])} sweeps after the initial iterations, {n} seed(s): "
        f"sd {sd:.3f}, largest |error| {np.max(np.abs(errs)):.3f}; after the initial iterations alone "
        f"{init.mean():+.3f} +- {sd0 / math.sqrt(n):.3f} nats",
    )


# --------------------------------------------------------------------------- Fig. 2


def _fig2_errors(r) -> pd.DataFrame:
    """The Fig. 2 estimates with their error against the exact log Z (column ``err``)."""
    d = r["fig2_estimates"].copy()
    d["err"] = d["estimate"] - d["exact"]
    return d


def fig2_consistent(method: str):
    """Metric (Fig. 2): the slope of log RMSE(``method``) on log samples, bootstrapped over repeats."""

    def metric(r):
        d = _fig2_errors(r)
        d = d[d["method"] == method]
        if d.empty:
            raise NotRun(f"fig2 has no {method} estimates")
        m = repeat_matrix(d, "n_samples")
        x = np.log(m.columns.to_numpy(dtype=np.float64))

        def slope(err):
            return float(np.polyfit(x, np.log(repeat_rmse(err)), 1)[0])

        rmse = ", ".join(f"{n}: {v:.3f}" for n, v in zip(m.columns, repeat_rmse(m.to_numpy()), strict=True))
        return bootstrap_estimate(
            m.to_numpy(), slope, f"slope of log RMSE on log samples; RMSE by samples {rmse}; {_stated(d)}"
        )

    return metric


def _stated(d: pd.DataFrame) -> str:
    """The estimator's own standard error beside the repeats' spread, at the largest sample count."""
    last = d[d["n_samples"] == d["n_samples"].max()]
    if "stderr" not in last or last["stderr"].isna().all():
        return "no stated error"
    sd, stated = float(last["estimate"].std(ddof=1)), float(last["stderr"].mean())
    n = int(last["n_samples"].iloc[0])
    return f"at {n} samples stated s.e. {stated:.3f} vs repeat sd {sd:.3f} (ratio {stated / sd:.2f})"


def fig2_bias_floor(method: str):
    """Metric (Fig. 2): at the largest sample count, the mean ``method`` estimate minus its rule's value.

    The rule's value is the mean over the reference runs (``fig2_reference``:
    the TI estimator on runs 10x the largest count); the standard error
    combines the repeats' (sd / sqrt(n)) and the reference runs' (sd / sqrt(runs)).
    """

    def metric(r):
        d = _fig2_errors(r)
        d = d[d["method"] == method]
        ref = r["fig2_reference"]
        rule = ref[ref["method"] == method]["rule_value"].to_numpy(np.float64)
        if d.empty or rule.size == 0:
            raise NotRun(f"fig2 has no {method} estimates or reference runs")
        n_max = int(d["n_samples"].max())
        est = d[d["n_samples"] == n_max]["estimate"].to_numpy(np.float64)
        rule_value = float(rule.mean())
        rule_se = float(rule.std(ddof=1) / math.sqrt(rule.size)) if rule.size > 1 else math.nan
        e = mean_estimate(est - rule_value)
        exact = float(ref["exact"].iloc[0])
        details = (
            f"mean {method} {est.mean():.3f} at {n_max} samples over {e.n} repeats (s.e. {e.std_error:.3f}) minus "
            f"the rule's value {rule_value:.3f} +- {rule_se:.3f} ({rule.size} reference runs of "
            f"{int(ref['n_samples'].iloc[0])} samples); the rule's bias (rule value - log Z) {rule_value - exact:+.3f}"
        )
        return Estimate(e.value, math.sqrt(e.std_error**2 + rule_se**2), e.n, details)

    return metric


def rts_close_to_mbar(r):
    """Metric (Fig. 2): log of RMSE(RTS) / RMSE(MBAR) at the largest sample count, paired bootstrap."""
    d = _fig2_errors(r)
    d = d[d["n_samples"] == d["n_samples"].max()]
    m = repeat_matrix(d, "method")
    if not {"RTS", "MBAR"} <= set(m.columns):
        raise NotRun("fig2 lacks RTS or MBAR estimates")
    pair = m[["RTS", "MBAR"]].to_numpy()  # the same samples in a repeat: paired

    def log_ratio(err):
        rmse = repeat_rmse(err)
        return float(np.log(rmse[0] / rmse[1]))

    rts, mbar = repeat_rmse(pair)
    return bootstrap_estimate(
        pair,
        log_ratio,
        f"RMSE RTS {rts:.4f}, MBAR {mbar:.4f} at {int(d['n_samples'].max())} samples (ratio {rts / mbar:.3f})",
    )


# --------------------------------------------------------------------------- Fig. 5


def _fig5_checkpoints(r) -> tuple[pd.DataFrame, float]:
    """The Fig. 5 AIS checkpoints and how far AIS's log Z moved between the first and the last."""
    ck = r["fig5"].dropna(subset=["train_ais"]).sort_values("iteration")
    if len(ck) < 2:
        raise NotRun("fig5 has fewer than two AIS checkpoints")
    moved = float(abs(ck["log_z_ais"].iloc[-1] - ck["log_z_ais"].iloc[0]))
    return ck, moved


def _not_moved(moved: float) -> str:
    """Why a tracker test is undecided when log Z barely moved."""
    return (f"log Z moved {moved:.2f} nats (needs > {FIG5_MIN_MOVE:g}) between the first and last checkpoint: "
            "a tracker that never moved would pass")  # fmt: skip


def tracks_ais(r):
    """Metric (Fig. 5): per AIS checkpoint, the RTS-tracked mean log-likelihood minus AIS's.

    The standard error is the AIS replicates' (sd / sqrt(n) over the
    checkpoint's independent AIS estimates); the RTS value is one number
    of the training run. If log Z moved no more than ``FIG5_MIN_MOVE`` nats,
    every part is left undecided (no standard error).
    """
    ck, moved = _fig5_checkpoints(r)
    still = moved <= FIG5_MIN_MOVE
    parts = []
    for _, row in ck.iterrows():
        gap = Estimate(
            float(row["train_rts"] - row["train_ais"]),
            float(row["log_z_ais_se"]),
            int(row["ais_n"]),
            undecided=_not_moved(moved) if still else None,
        )
        parts.append((f"update {int(row['iteration'])}", gap))
    return parts


def beats_frozen_tracker(r):
    """Metric (Fig. 5): mean |LL - LL_AIS| over the checkpoints after the first, RTS tracker minus a frozen one.

    The frozen tracker keeps the running log Z of the first checkpoint;
    paired over checkpoints. Undecided (no standard error) if log Z moved
    no more than ``FIG5_MIN_MOVE`` nats.
    """
    ck, moved = _fig5_checkpoints(r)
    later = ck.iloc[1:]
    rts = np.abs(later["log_z_ais"] - later["log_z_rts"]).to_numpy()
    frozen = np.abs(later["log_z_ais"] - ck["log_z_rts"].iloc[0]).to_numpy()
    details = (f"mean |LL - LL_AIS|: RTS {rts.mean():.3f}, frozen {frozen.mean():.3f} nats over {len(rts)} checkpoints "
               f"after the first; log Z (AIS) moved {moved:.2f} nats")  # fmt: skip
    est = paired_difference(rts, frozen, details)
    if moved <= FIG5_MIN_MOVE:
        return Estimate(est.value, est.std_error, est.n, details, undecided=_not_moved(moved))
    return est
