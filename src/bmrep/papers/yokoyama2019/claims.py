"""Claims of Yokoyama, Katsumata & Yasuda (2019), spec section 2 (replication-targets.md).

Decided from the result tables the claims rule names:

* ``kld_final`` (``fig23_final_epoch.csv``): per experiment, R and s, the
  final-epoch KLD / |V| (eq. 16) and training log-likelihood / |V| (eq. 10);
* ``w_star`` (``fig4_w_star.csv``): per s, the maximiser ``|w*_s|`` of
  eq. (21) with the ``beta`` and ``|H|`` it was computed for;
* ``drbm_final`` (``fig6_final_epoch.csv``): per experiment and s, the
  final-epoch training and noisy-test misclassification rates.

Claims that compare s values sort them ascending (inf last) whatever their
order in the config, take them from the tables (the configured ones), and
pair the values over experiments (the s values of one experiment share the
data and the initial couplings). The Fig. 4 claims are one per configured s
value that the paper reports, matched by s value, never by position.
"""

from __future__ import annotations

import math
from itertools import pairwise

import pandas as pd

from ...claims.core import Above, Below, Claim, Digits, Estimate, NotRun, Results
from ...claims.stats import paired_difference

# Fig. 4 caption: |w*_s| for |H| = 2 hidden units and data correlation beta = 0.6.
PAPER_W_STAR = {1.0: 0.6585, 2.0: 0.7834, 4.0: 0.8941, math.inf: 1.0887}
PAPER_TOY = {"beta": 0.6, "n_hidden": 2}
W_STAR_DIGITS = 4
# The claims of Figs. 2/3 are those of the paper's panel (b): |H| = 4 + 5.
KLD_R = 5


def s_key(value) -> float:
    """An s value as configured (1, ``'inf'``) or tabulated (``'1'``, 1.0, inf) -> float; sorts inf last."""
    return float(value)


def s_text(s: float) -> str:
    """``'1'``, ``'2'``, ..., ``'inf'``."""
    return "inf" if math.isinf(s) else str(int(s))


def final_by_s(table: pd.DataFrame, metric: str, **filters) -> pd.DataFrame:
    """``metric`` per experiment (rows) and s (columns, ascending, inf last) from a final-epoch table.

    The frame's ``attrs`` hold the epoch and the filters, for the details.
    """
    sub = table
    for key, value in filters.items():
        sub = sub[sub[key] == value]
    if sub.empty:
        raise NotRun(f"no final-epoch rows for {filters or 'this claim'}")
    wide = sub.assign(s=sub["s"].map(s_key)).pivot(index="experiment", columns="s", values=metric)
    wide = wide[sorted(wide.columns)]
    where = "".join(f"{k} = {v}, " for k, v in filters.items())
    wide.attrs["where"] = f"{where}epoch {int(sub['epoch'].max())}, paired over {len(wide)} experiments"
    return wide


def kld_final(r: Results, metric: str) -> pd.DataFrame:
    """Final-epoch ``metric`` of Figs. 2/3 at R = 5, per experiment and s."""
    table = r["kld_final"]
    if KLD_R not in set(table["R"]):
        raise NotRun(
            f"R = {KLD_R} (the paper's panel b) is not among the configured R values {sorted(set(table['R']))}"
        )
    return final_by_s(table, metric, R=KLD_R)


def drbm_final(r: Results, metric: str) -> pd.DataFrame:
    """Final-epoch ``metric`` of Fig. 6, per experiment and s."""
    return final_by_s(r["drbm_final"], metric)


def _pair(wide: pd.DataFrame, a: float, b: float, scale: float = 1.0) -> Estimate:
    """Mean over experiments of ``scale * (metric(s=a) - metric(s=b))``, paired."""
    for s in (a, b):
        if s not in wide.columns:
            raise NotRun(f"s = {s_text(s)} is not configured (s values {[s_text(x) for x in wide.columns]})")
    return paired_difference(scale * wide[a], scale * wide[b], wide.attrs["where"])


def _ordering(final, metric: str, a: float, b: float, scale: float = 1.0):
    """Metric of a paired ordering claim: ``metric(s=a) - metric(s=b)`` from ``final(r, metric)``."""
    return lambda r: _pair(final(r, metric), a, b, scale)


def _kld_consecutive(r: Results) -> list[tuple[str, Estimate]]:
    """KLD(s_i) - KLD(s_i+1) for each consecutive pair of the sorted s values."""
    wide = kld_final(r, "kld")
    s = list(wide.columns)
    if len(s) < 2:
        raise NotRun(f"one s value only ({s_text(s[0])}): nothing to compare")
    return [(f"KLD({s_text(a)}) - KLD({s_text(b)})", _pair(wide, a, b)) for a, b in pairwise(s)]


def _kld_ordering(name: str, difference: str, paper_value: str, column: str) -> Claim:
    """Figs. 2b/3b: the final ``column`` per |V|, s = 1 minus s = inf, is positive (R = 5, paired over experiments)."""
    return Claim(id=f"yokoyama2019/{name}", kind="ordering",
                 text=f"final {difference} per |V| {{threshold}} (R = {KLD_R}, paired over experiments)",
                 threshold=Above(0.0), unit="nats", paper_value=paper_value,
                 metric=_ordering(kld_final, column, 1.0, math.inf))  # fmt: skip


def _w_star(s: float):
    """Metric of ``w_star_s{s}``: our ``|w*_s|``, or not run when beta or |H| differ from the paper's."""

    def estimate(r: Results) -> Estimate:
        table = r["w_star"]
        row = table[table["s"].map(s_key) == s]
        if len(row) != 1:
            raise NotRun(f"{len(row)} rows for s = {s_text(s)} in the w* table")
        row = row.iloc[0]
        w, beta, n_hidden = float(row["w_star"]), float(row["beta"]), int(row["n_hidden"])
        if (beta, n_hidden) != (PAPER_TOY["beta"], PAPER_TOY["n_hidden"]):
            raise NotRun(
                f"our |w*_s| = {w:.{W_STAR_DIGITS + 2}f} at beta = {beta:g}, |H| = {n_hidden}; "
                f"the paper's value is for beta = {PAPER_TOY['beta']:g}, |H| = {PAPER_TOY['n_hidden']}"
            )
        return Estimate(
            w, details=f"|w*_s| = {w:.{W_STAR_DIGITS + 2}f}, root of alpha_s(w) = beta (maximiser of eq. 21)"
        )

    return estimate


def claims(settings) -> list[Claim]:
    """The spec's claims; ``settings`` is ``{"toy": {"s_values": [...]}}`` (the configured Fig. 4 s values)."""
    inf = math.inf
    out = [
        _kld_ordering("fig2/kld_binary_above_continuous", "KLD(s=1) - KLD(s=inf)",
                      "KLD(1) > KLD(inf) (Fig. 2b)", "kld"),
        Claim(id="yokoyama2019/fig2/kld_decreases_with_s", kind="all-of",
              text="final KLD(s_i) - KLD(s_i+1) per |V| {threshold} "
                   "for each consecutive pair of the configured s values (R = 5)",
              threshold=Above(0.0), unit="nats", paper_value="KLD(1) > KLD(2) > KLD(4) > KLD(inf) (Fig. 2b)",
              metric=_kld_consecutive),
        _kld_ordering("fig3/loglik_binary_above_continuous", "training log-likelihood(s=1) - log-likelihood(s=inf)",
                      "l(1) > l(inf) (Fig. 3b)", "loglik"),
    ]  # fmt: skip
    configured = sorted({s_key(s) for s in settings["toy"]["s_values"]})
    out += [
        Claim(id=f"yokoyama2019/fig4/w_star_s{s_text(s)}", kind="exact",
              text=f"|w*_s| for s = {s_text(s)} (|H| = {PAPER_TOY['n_hidden']}, beta = {PAPER_TOY['beta']:g}) "
                   "equals {threshold}",
              threshold=Digits(PAPER_W_STAR[s], W_STAR_DIGITS), paper_value=PAPER_W_STAR[s], metric=_w_star(s))
        for s in configured
        if s in PAPER_W_STAR
    ]  # fmt: skip
    # Fig. 6: the final error rates at s = inf minus at s = 1, in % (paired over experiments).
    fig6 = (  # (name, the difference, threshold, the paper's statement, the final-epoch column)
        ("test_error_continuous_below_binary", "noisy-test error(s=inf) - test error(s=1)", Below(0.0),
         "lower test error for s = inf (Fig. 6b)", "test_error"),
        ("train_error_continuous_above_binary", "training error(s=inf) - training error(s=1)", Above(0.0),
         "higher training error for s = inf (Fig. 6a)", "train_error"),
    )  # fmt: skip
    out += [
        Claim(id=f"yokoyama2019/fig6/{name}", kind="ordering",
              text=f"final {difference} {{threshold}} (paired over experiments)", threshold=threshold, unit="%",
              paper_value=paper_value, metric=_ordering(drbm_final, column, inf, 1.0, scale=100.0))
        for name, difference, threshold, paper_value, column in fig6
    ]  # fmt: skip
    return out
