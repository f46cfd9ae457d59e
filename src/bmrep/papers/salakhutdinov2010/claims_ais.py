"""How the AIS of Salakhutdinov (2010) did, as claim details: calibration drift, ladders, stated vs replicate errors.

Used by :mod:`bmrep.papers.salakhutdinov2010.claims` (the AIS calibration claim, and
the ladder check in the details of Table 1's orderings).
"""

from __future__ import annotations

import math

import numpy as np

from ...claims.core import NotRun
from ...claims.stats import bootstrap_estimate
from ...estimators.ais import log_mean_exp
from .evaluation import MIN_ESS_STDERR
from .instrument_check import LONG_LADDER_TOLERANCE


def drift_onset(profile: list[dict], tol: float = 0.1) -> float | None:
    """The smallest beta of ``beta_profile`` from which on the running AIS error stays beyond ``tol``."""
    errs = np.array([abs(p["error"]) for p in profile])
    ok = np.flatnonzero(errs <= tol)
    start = 0 if ok.size == 0 else ok[-1] + 1
    return None if start >= len(profile) else float(profile[start]["beta"])


def exact_diagnostics(exact: dict, tol: float = 0.1) -> str:
    """The exact check's diagnostics (``experiments.salakhutdinov2010.exact_check``) as claim details."""
    out = ""
    onset = drift_onset(exact.get("beta_profile", []), tol)
    if onset is not None:
        out += f"; the running error first exceeds {tol} nats for good at beta = {onset:.3f}"
    if exact.get("ladder"):
        by = {}
        for r in exact["ladder"]:
            by.setdefault(r["schedule"], []).append(f"{r['n_betas']}: {r['error']:+.3f}")
        out += "; one run's error by n_betas: " + "; ".join(f"{k} ladder {', '.join(v)}" for k, v in by.items())
    pooled = exact.get("replicates_pooled")
    if pooled:
        out += (
            f"; all {pooled['n_runs']} replicate runs pooled: error {pooled['error']:+.3f} "
            f"(ESS {pooled['ess']:.1f}{_stated(pooled.get('stderr', math.nan))})"
        )
    grouped = exact.get("replicates_grouped")
    if grouped and grouped["n_groups"]:
        se = f" +- {grouped['stderr']:.3f}" if np.isfinite(grouped["stderr"]) else ""
        out += (
            f"; pooled {grouped['pool']} replicates at a time as Table 1 pools them ({grouped['n_runs']} runs, "
            f"{grouped['n_groups']} disjoint groups): mean error {grouped['error']:+.3f}{se}"
        )
    return out


def _stated(stderr: float) -> str:
    return f", stated s.e. {stderr:.3f}" if np.isfinite(stderr) else f", no stated s.e.: ESS < {MIN_ESS_STDERR:g}"


def stated_vs_spread(reps: list[dict]) -> str:
    """The AIS's stated (delta-method) error beside the replicates' spread, and their effective sample sizes.

    A replicate whose ESS is below ``MIN_ESS_STDERR`` states no error (spec, section 3,
    Evaluation); its delta-method value is shown apart, as what the spread
    says of it.
    """
    ess = np.array([r.get("ess", math.nan) for r in reps])
    stated = np.array([r.get("stderr", math.nan) for r in reps])
    delta = np.array([r.get("delta_stderr", math.nan) for r in reps])
    out = f"ESS median {np.median(ess):.1f} (range {np.min(ess):.1f}-{np.max(ess):.1f})"
    if len(reps) < 2:
        return out
    sd = float(np.std([r["error"] for r in reps], ddof=1))  # the spread of log Z: the exact value is one number
    ok = np.isfinite(stated)
    out += f"; replicate sd of log Z {sd:.3f}"
    if ok.any():
        rms = float(np.sqrt(np.mean(stated[ok] ** 2)))
        out += (
            f"; stated s.e. (rms over the {int(ok.sum())} replicates with ESS >= {MIN_ESS_STDERR:g}) {rms:.3f}, "
            f"ratio to sd {rms / sd:.2f}"
        )
    if (~ok).any():
        rms = float(np.sqrt(np.nanmean(delta[~ok] ** 2))) if np.isfinite(delta[~ok]).any() else math.nan
        out += (
            f"; {int((~ok).sum())} replicates with ESS < {MIN_ESS_STDERR:g} state no error "
            f"(their delta-method value, rms {rms:.3f}, would be {rms / sd:.2f} x sd)"
        )
    return out


def check_same_instrument(exact: dict, finals: list[dict]) -> None:
    """NotRun unless every Table 1 evaluation used the very AIS settings the calibration judged (spec, section 3)."""
    judged = exact.get("ais_settings")
    used = {
        f"{f['algorithm']} seed {f.get('repeat', 0)}": f.get("ais_settings")
        for f in finals
        if f.get("ais_settings") != judged
    }
    if judged is None or used:
        raise NotRun(
            f"the calibration judged AIS settings {judged} but Table 1 used others ("
            + "; ".join(f"{k}: {v}" for k, v in used.items())
            + ")"
        )


def ladder_check_details(table, a: str, b: str | None = None) -> str:
    """Seed 0's log Z at the profile's ladder and at one 5x longer for ``a`` (and ``b``), and how the bound moves.

    With ``b``: how the ``a`` - ``b`` gap in test bound would move; alone: how ``a``'s own bound would.
    """
    rows = {r["algorithm"]: r for r in table.to_dict("records")} if table is not None else {}
    names = [a] if b is None else [a, b]
    if any(x not in rows for x in names):
        return ""
    ra = rows[a]
    parts = [
        f"{x} {rows[x]['log_z']:.2f} -> {rows[x]['log_z_long']:.2f} ({rows[x]['long_minus_profile']:+.2f})"
        for x in names
    ]
    head = (
        f"; ladder check (seed {int(ra['repeat'])}, one AIS replicate{' each' if b else ''}, log Z at "
        f"{int(ra['n_betas'])} -> {int(ra['n_betas_long'])} betas): " + ", ".join(parts)
    )
    if b is None:  # a larger log Z lowers the bound as much
        return head + f"; its test bound would move by {-ra['long_minus_profile']:+.2f}"
    move = -(ra["long_minus_profile"] - rows[b]["long_minus_profile"])
    return head + f"; the {a} - {b} gap in test bound would move by {move:+.2f}"


def runs_check_details(checks: list[dict], finals: list[dict], algorithm: str) -> str:
    """Seed 0's log Z pooled over the runs check's replicates against Table 1's, and how the bound would move.

    ``checks`` are :func:`bmrep.papers.salakhutdinov2010.runs_check.runs_check` records.
    """
    c = next((x for x in checks or [] if x["algorithm"] == algorithm), None)
    if c is None:
        return ""
    f = next((x for x in finals if x["algorithm"] == algorithm and int(x.get("repeat", 0)) == int(c["repeat"])), None)
    if f is None:
        return ""
    runs = c["n_runs"] * c["n_replicates"]
    move = c["log_z_pooled"] - f["log_z"]
    out = (
        f"; runs check (seed {int(c['repeat'])}, {c['n_replicates']} more AIS replicates of {c['n_runs']} runs): "
        f"log Z {f['log_z']:.2f} (Table 1, {f.get('n_replicates', '?')} replicates pooled) -> {c['log_z_pooled']:.2f} "
        f"({runs} runs pooled, ESS {c['ess_pooled']:.1f}; {move:+.2f}), so its test bound would move by {-move:+.2f}"
    )
    if np.isfinite(c.get("pools_minus_pooled", math.nan)):
        out += (
            f"; pools of {c['pool']} replicates (Table 1's size) sit {c['pools_minus_pooled']:+.2f} from the "
            f"{runs}-run pool (mean of {len(c['log_z_pools'])}), one replicate {c['replicates_minus_pooled']:+.2f}"
        )
    return out


def _ess(values) -> str:
    return ", ".join(f"{x:.1f}" for x in values)


def pooled_difference_stderr(final_log_weights, long_log_weights) -> float:
    """Bootstrap s.e. of the longer ladder's pooled log Z minus the final one, over each pool's own runs.

    Every AIS run is an independent draw, so each pool is resampled by runs (the two pools are independent) and
    the two bootstrap variances add. It shows whether a difference beyond the spec's tolerance is the ladder's
    bias or the pools' noise (issue 64: the failing models' differences were within 2 s.e.). With a pool ESS of
    a few runs the bootstrap cannot see the runs the pool did not draw, so it is a lower bound of the noise.
    """
    parts = [
        bootstrap_estimate(np.ravel(np.asarray(w, np.float64)), log_mean_exp).std_error
        for w in (final_log_weights, long_log_weights)
    ]
    return float(math.hypot(*parts))


def instrument_check_details(
    checks: list[dict], algorithm: str, seeds=None, finals: list[dict] | None = None
) -> tuple[str, str | None]:
    """Each model's log Z at the longer ladder and by reverse AIS (:mod:`...instrument_check`), as claim details.

    ``checks`` are the instrument-check records; only ``algorithm``'s on ``seeds`` (all if None) are stated.
    Where ``finals`` (the final evaluations' records) hold the model's per-run log weights, the difference gets
    its bootstrap s.e. (:func:`pooled_difference_stderr`), stated beside it; the verdict rule stays the spec's.
    Returns ``(details, undecided)``: ``undecided`` names the models whose longer ladder moved log Z by more
    than the tolerance (spec: their rows and the orderings they enter are inconclusive), else None.
    """
    weights = {(f["algorithm"], int(f.get("repeat", 0))): f["log_weights"] for f in finals or [] if "log_weights" in f}
    mine = sorted(
        (c for c in checks or [] if c["algorithm"] == algorithm and (seeds is None or int(c["repeat"]) in seeds)),
        key=lambda c: int(c["repeat"]),
    )
    if not mine:
        return "", None
    parts, moved = [], []
    for c in mine:
        w = weights.get((algorithm, int(c["repeat"])))
        se = f" ± {pooled_difference_stderr(w, c['log_weights_long']):.2f}" if w is not None else ""
        parts.append(
            f"seed {int(c['repeat'])}: log Z {c['log_z_final']:.2f} ({c['final_runs_pooled']} runs pooled at "
            f"{c['n_betas']} betas, replicate ESS {_ess(c['final_replicate_ess'])}, pool ESS "
            f"{c['final_pool_ess']:.1f}); at {c['n_betas_long']} betas {c['log_z_long']:.2f} "
            f"({c['long_runs_pooled']} runs pooled, ESS {c['long_pool_ess']:.1f}; {c['long_minus_final']:+.2f}"
            f"{se}{' by a bootstrap over the runs' if se else ''}); "
            f"reverse AIS {c['log_z_reverse']:.2f} ({c['reverse_runs']} runs from training images after "
            f"{c['reverse_burn_in']} Gibbs sweeps; reverse - forward {c['reverse_minus_final']:+.2f})"
        )
        if not c["long_ladder_holds"]:
            moved.append(f"{algorithm} seed {int(c['repeat'])} ({c['long_minus_final']:+.2f}{se} nats)")
    details = f"; {algorithm}'s instrument check: " + "; ".join(parts)
    undecided = (
        f"the longer ladder moves log Z by more than {LONG_LADDER_TOLERANCE} nats for " + ", ".join(moved)
        if moved
        else None
    )
    return details, undecided


__all__ = [
    "instrument_check_details",
    "pooled_difference_stderr",
    "check_same_instrument",
    "drift_onset",
    "exact_diagnostics",
    "ladder_check_details",
    "runs_check_details",
    "stated_vs_spread",
]
