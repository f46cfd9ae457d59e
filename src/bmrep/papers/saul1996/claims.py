"""Claims of Saul, Jaakkola & Jordan (1996): the spec's section 1 as declarations.

Each claim reads the run's result tables by the names the claims rule gives
its inputs:

- ``fig2``: Figure 2's table (rows ``exact``, ``min_bound``, ``xi0_bound``);
- ``fig5_networks``: Figure 5's shards, one dict of per-network arrays each
  (the networks are the repeats of Figure 5);
- ``table2_<dataset>``, ``table3_<dataset>``: Tables 2 and 3 of each dataset
  named in ``settings["datasets"]``, one row per split and algorithm (digit):
  the seeded splits, each with its own networks, are the tables' repeats.

The paper's numbers come from :mod:`bmrep.papers.saul1996.paper_numbers`,
which the result tables also carry.
"""

from __future__ import annotations

import math

import numpy as np

from ...claims.core import Below, Between, Claim, Digits, Estimate, Results
from ...claims.stats import mean_estimate, paired_difference
from .paper_numbers import (
    PAPER_FIG2,
    PAPER_FIG5,
    PAPER_TABLE2,
    PAPER_TABLE3_ALL,
)

PAPER = "saul1996"
FIG2_CLAIMS = {  # claim name -> (row of Figure 2's table, what it is)
    "exact_value": ("exact", "exact <ln(1+e^z)> for z ~ N(0,1)"),
    "bound_minimum": ("min_bound", "minimum over xi of the bound (20)"),
    "bound_at_zero": ("xi0_bound", "the bound (20) at xi = 0"),
}
BOUND_SLACK = 1e-9  # L_V may exceed ln P(V) by rounding only


def fig2_value(r: Results, quantity: str) -> Estimate:
    """One of Figure 2's numbers (quadrature and a 1-D root: no sampling noise)."""
    table = r["fig2"].set_index("quantity")["value"]
    return Estimate(float(table[quantity]), details="adaptive quadrature; minimum by a 1-D root")


def fig5_networks(r: Results) -> dict[str, np.ndarray]:
    """Figure 5's per-network arrays over all shards."""
    parts = r["fig5_networks"]
    return {
        k: np.concatenate([p[k] for p in parts])
        for k in ("mf_relative_error", "uniform_relative_error", "bound", "exact")
    }


def mf_mean_error(r: Results) -> Estimate:
    """Mean relative error of the mean-field bound in %, s over networks."""
    err = fig5_networks(r)["mf_relative_error"]
    return mean_estimate(100.0 * err, f"mean over {err.size} random networks")


def uniform_rms_error(r: Results) -> Estimate:
    """RMS relative error of the uniform approximation in %, s by the delta method over networks.

    With m = mean(e^2) over networks and s_m its standard error, RMS = sqrt(m)
    has standard error s_m / (2 sqrt(m)).
    """
    err = fig5_networks(r)["uniform_relative_error"]
    m = mean_estimate((100.0 * err) ** 2)
    rms = math.sqrt(m.value)
    return Estimate(rms, m.std_error / (2.0 * rms), m.n, f"RMS over {err.size} random networks, s by the delta method")


def bound_gap(r: Results) -> Estimate:
    """The largest L_V - ln P(V) over the networks (a bound checked on every case)."""
    nets = fig5_networks(r)
    gap = nets["bound"] - nets["exact"]
    return Estimate(float(gap.max()), n=int(gap.size), details=f"largest L_V - ln P(V) over {gap.size} random networks")


def table2_errors(r: Results, dataset: str) -> dict[str, np.ndarray]:
    """Error rates in % per algorithm over the dataset's splits (one row per split and algorithm)."""
    t2 = r[f"table2_{dataset}"]
    return {
        name: 100.0 * t2.loc[t2["algorithm"] == name, "error_rate"].to_numpy(float)
        for name in ("mean field", "nearest neighbour")
    }


def splits_details(r: Results, dataset: str, n: int) -> str:
    """Repeats behind a table claim, and Table 3's score shown beside the paper's (not claimed)."""
    t3 = r[f"table3_{dataset}"]
    score = float(t3.loc[t3["digit"].astype(str) == "all", "score"].mean())
    return (
        f"dataset {dataset}, {n} split(s); normalised test score (Table 3, not claimed): "
        f"ours {score:.3f}, paper {PAPER_TABLE3_ALL} on the paper's USPS set"
    )


def mf_minus_nn(r: Results, dataset: str) -> Estimate:
    """Mean-field minus nearest-neighbour error rate in %, paired over splits."""
    e = table2_errors(r, dataset)
    return paired_difference(e["mean field"], e["nearest neighbour"], splits_details(r, dataset, e["mean field"].size))


def mf_error(r: Results, dataset: str) -> Estimate:
    """Mean-field error rate in %, mean over splits."""
    e = table2_errors(r, dataset)["mean field"]
    return mean_estimate(e, splits_details(r, dataset, e.size))


def _pct(x: float) -> float:
    return round(100.0 * x, 1)


def fig2_claims() -> list[Claim]:
    """Figure 2: three numbers, each equal to the paper's to 3 decimals (exact)."""
    return [
        Claim(id=f"{PAPER}/fig2/{name}", kind="exact", text=f"{what} = {{threshold}}",
              threshold=Digits(PAPER_FIG2[row], 3), paper_value=PAPER_FIG2[row],
              metric=lambda r, row=row: fig2_value(r, row))
        for name, (row, what) in FIG2_CLAIMS.items()
    ]  # fmt: skip


def fig5_claims() -> list[Claim]:
    """Figure 5: mean MF error and RMS uniform error in the paper's ranges; the bound holds."""
    return [
        Claim(id=f"{PAPER}/fig5/mf_mean_error", kind="interval",
              text="mean relative error L_V / ln P(V) - 1 of the mean-field bound in {threshold}{unit}",
              threshold=Between(1.2, 2.0), unit="%", paper_value=_pct(PAPER_FIG5["mean_mf_relative_error"]),
              metric=mf_mean_error),
        Claim(id=f"{PAPER}/fig5/uniform_rms_error", kind="interval",
              text="RMS relative error ln 2^-6 / ln P(V) - 1 of the uniform approximation in {threshold}{unit}",
              threshold=Between(20.0, 25.0), unit="%", paper_value=_pct(PAPER_FIG5["rms_uniform_relative_error"]),
              metric=uniform_rms_error),
        Claim(id=f"{PAPER}/fig5/bound_holds", kind="exact",
              text="the bound holds on every network: max of L_V - ln P(V) {threshold} {unit} (rounding slack)",
              threshold=Below(BOUND_SLACK), unit="nats", paper_value="L_V <= ln P(V)", metric=bound_gap),
    ]  # fmt: skip


def table_claims(dataset: str) -> list[Claim]:
    """Tables 1-3 on one dataset: MF beats nearest neighbour; MF error below a sanity bound."""
    mf, nn = PAPER_TABLE2["mean field"], PAPER_TABLE2["nearest neighbour"]
    return [
        Claim(id=f"{PAPER}/table2/{dataset}/mf_beats_nearest_neighbour", kind="ordering",
              text=f"{dataset}: mean-field minus nearest-neighbour error rate (same splits) {{threshold}}{{unit}}",
              threshold=Below(0.0), unit="%",
              paper_value=f"{_pct(mf - nn)} ({_pct(mf)} - {_pct(nn)})",
              metric=lambda r: mf_minus_nn(r, dataset)),
        Claim(id=f"{PAPER}/table2/{dataset}/mf_error_below_8pct", kind="one-sided",
              text=f"{dataset}: mean-field error rate {{threshold}}{{unit}} (a sanity bound for substitute data)",
              threshold=Below(8.0), unit="%", paper_value=_pct(mf),
              metric=lambda r: mf_error(r, dataset)),
    ]  # fmt: skip


def claims(settings) -> list[Claim]:
    """The claims of the spec's section 1; ``settings["datasets"]`` names the classifier datasets."""
    return fig2_claims() + fig5_claims() + [c for ds in settings["datasets"] for c in table_claims(ds)]
