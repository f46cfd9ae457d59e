"""Claims of Carlson, Stinson, Pakman & Paninski (2016), shared spec section 4, as declarations.

Each claim names its id, kind, threshold and the paper's value; its metric
(which tables it reads, what the estimate is made of, and what is not run
yet) is in :mod:`bmrep.papers.carlson2016.claims_metrics`.
"""

from __future__ import annotations

import math

from ...claims.core import Above, Below, Between, Claim
from .claims_metrics import (
    FIG1_ITERATIONS,
    FIG1_STOP_WITHIN,
    beats_frozen_tracker,
    exact_error,
    fig2_bias_floor,
    fig2_consistent,
    final_log_z,
    rao_blackwell_reduces_error,
    rts_close_to_mbar,
    stops_within_10,
    tracks_ais,
)
from .claims_truth import fig3_mean_vs_truth, fig3_rts_beats_ais, rts_insensitive_to_k, ti_error_grows_as_k_shrinks

PAPER = "carlson2016"

# Exact check: estimators with a log Z of their own, and the TI rules (judged
# against the same rule applied to the exact integrand).
EXACT_ESTIMATORS = ("AIS", "RAISE", "RTS", "TS", "MBAR")
TI_RULES = ("TI-riemann", "TI-trapezoid", "TI-trapezoid-corrected", "TI-RB")
EXACT_ERROR = Between(-0.1, 0.1)

# Fig. 2: TI rules by the names of the estimates table.
FIG2_TI = {"ti_riemann": "TI Riemann", "ti_trapezoid": "TI trap", "ti_corrected": "TI trap corrected", "ti_rb": "TI-RB"}
RTS_MBAR_RATIO = (0.5, 2.0)

# Fig. 3: the mean estimate against the truth bracket, and RTS's RMSE against AIS's.
AIS_BELOW = Below(0.0)
RAISE_ABOVE = Above(0.0)
RTS_BEATS_AIS = Below(0.0)

# Fig. 4: RMSE(RTS) at the largest K over its smallest value; the slope of TI's RMSE on K.
RTS_K_RATIO = 1.5
RTS_K_INSENSITIVE = Below(math.log(RTS_K_RATIO))
TI_SLOPE = Below(0.0)

# Fig. 5: the band the RTS-tracked log-likelihood must stay in around AIS's.
FIG5_GAP = Between(-1.0, 1.0)


# --------------------------------------------------------------------------- declarations


def _exact_claims() -> list[Claim]:
    """The exact check: an interval on the mean error over replicates, one part per enumerable RBM (all-of).

    An estimator is judged against the exact log Z, a TI rule against the same rule applied to the exact integrand.
    """
    against = {m: "exact" for m in EXACT_ESTIMATORS} | {m: "the same rule on the exact integrand" for m in TI_RULES}
    return [
        Claim(id=f"{PAPER}/exact_check/{m}", kind="all-of",
              text=f"on every enumerable RBM the mean over replicates of {m} log Z minus {reference} "
                   "is in {threshold} {unit}",
              threshold=EXACT_ERROR, unit="nats", paper_value="unbiased (AIS in Z)" if m == "AIS" else "",
              metric=exact_error(m))
        for m, reference in against.items()
    ]  # fmt: skip


def _fig3_claims(model: str) -> list[Claim]:
    p = f"{PAPER}/fig3/{model}"
    return [
        Claim(id=f"{p}/ais_below_truth", kind="one-sided",
              text=f"RBM {model}: at the smallest budget the mean AIS estimate minus the truth "
                   "is {threshold} {unit} (at both ends of the truth bracket)",
              threshold=AIS_BELOW, unit="nats", paper_value="AIS below (Fig. 3)",
              metric=fig3_mean_vs_truth(model, "AIS", AIS_BELOW)),
        Claim(id=f"{p}/raise_above_truth", kind="one-sided",
              text=f"RBM {model}: at the smallest budget the mean RAISE estimate minus the truth "
                   "is {threshold} {unit} (at both ends of the truth bracket)",
              threshold=RAISE_ABOVE, unit="nats", paper_value="RAISE above (Fig. 3)",
              metric=fig3_mean_vs_truth(model, "RAISE", RAISE_ABOVE)),
        Claim(id=f"{p}/rts_beats_ais", kind="ordering",
              text=f"RBM {model}: RMSE(RTS) - RMSE(AIS) at the smallest matched budget is {{threshold}} {{unit}}",
              threshold=RTS_BEATS_AIS, unit="nats", paper_value="RTS lower (Fig. 3)",
              metric=fig3_rts_beats_ais(model, RTS_BEATS_AIS)),
    ]  # fmt: skip


def claims(settings: dict) -> list[Claim]:
    """The claims of spec section 4.

    Parameters
    ----------
    settings : dict
        ``fig3_models``: the Fig. 3 model names (``784xH``), one group of claims each; ``fig1_main_sweeps``:
        Fig. 1's main run (``fig1.main_sweeps``), as the rule passes them.
    """
    lo, hi = RTS_MBAR_RATIO
    out = _exact_claims()
    out += [
        Claim(id=f"{PAPER}/fig1/rao_blackwell_reduces_error", kind="ordering",
              text=f"the RMS error of log Z_k summed over iterations {', '.join(map(str, FIG1_ITERATIONS))}, "
                   "with minus without Rao-Blackwellization, is {threshold} {unit}",
              threshold=Below(0.0), unit="nats", paper_value="RB closer to exact (Fig. 1)",
              metric=rao_blackwell_reduces_error),
        Claim(id=f"{PAPER}/fig1/stops_within_10_iterations", kind="one-sided",
              text=f"the fraction of seeds meeting max|r_k - c_k| < 0.1/K within {FIG1_STOP_WITHIN} RB iterations "
                   "is {threshold}",
              threshold=Above(0.5), paper_value="about 8 in 10", metric=stops_within_10),
        Claim(id=f"{PAPER}/fig1/final_log_z", kind="interval",
              text=f"log Z_K after the initial iterations and a main run of {settings['fig1_main_sweeps']} "
                   "sweeps (Zhat frozen) minus exact, mean over seeds, is in {threshold} {unit}",
              threshold=Between(-0.05, 0.05), unit="nats", metric=final_log_z),
    ]  # fmt: skip
    out += [
        Claim(id=f"{PAPER}/fig2/{m.lower()}_consistent", kind="trend",
              text=f"the slope of log RMSE({m}) on log samples is {{threshold}}", threshold=Below(0.0),
              metric=fig2_consistent(m))
        for m in ("RTS", "MBAR")
    ]  # fmt: skip
    out += [
        Claim(id=f"{PAPER}/fig2/{name}_bias_floor", kind="interval",
              text=f"at the largest sample count the mean {label} estimate minus its rule's value "
                   "is in {threshold} {unit}",
              threshold=Between(-0.1, 0.1), unit="nats", metric=fig2_bias_floor(label))
        for name, label in FIG2_TI.items()
    ]  # fmt: skip
    out += [
        Claim(id=f"{PAPER}/fig2/rts_close_to_mbar", kind="interval",
              text=f"RMSE(RTS) / RMSE(MBAR) at the largest sample count is in [{lo:g}, {hi:g}] "
                   "(its log in {threshold})",
              threshold=Between(math.log(lo), math.log(hi)), paper_value="nearly identical",
              metric=rts_close_to_mbar),
    ]  # fmt: skip
    for model in settings["fig3_models"]:
        out += _fig3_claims(model)
    out += [
        Claim(id=f"{PAPER}/fig4/rts_insensitive_to_k", kind="one-sided",
              text=f"RMSE(RTS) at the largest K over its smallest value over K is < {RTS_K_RATIO:g} "
                   "(its log {threshold})",
              threshold=RTS_K_INSENSITIVE, paper_value="flat in K (Fig. 4)",
              metric=rts_insensitive_to_k(RTS_K_INSENSITIVE)),
        Claim(id=f"{PAPER}/fig4/ti_error_grows_as_k_shrinks", kind="trend",
              text="the slope of log RMSE(TI trapezoid) on log K is {threshold}", threshold=TI_SLOPE,
              paper_value="TI error grows as K shrinks", metric=ti_error_grows_as_k_shrinks(TI_SLOPE)),
        Claim(id=f"{PAPER}/fig5/tracks_ais", kind="all-of",
              text="at every AIS checkpoint the RTS-tracked mean log-likelihood minus AIS's is in {threshold} {unit}",
              threshold=FIG5_GAP, unit="nats", paper_value="tracks AIS (Fig. 5)", metric=tracks_ais),
        Claim(id=f"{PAPER}/fig5/beats_frozen_tracker", kind="ordering",
              text="mean |LL - LL_AIS| over checkpoints, RTS tracker minus a tracker frozen at the first checkpoint, "
                   "is {threshold} {unit}",
              threshold=Below(0.0), unit="nats", metric=beats_frozen_tracker),
    ]  # fmt: skip
    return out
