"""Calibration claims (spec section 6) decided on constructed replicate tables."""

from __future__ import annotations

import numpy as np
import pandas as pd

from bmrep.claims.calibration import claims
from bmrep.claims.core import Results, evaluate

SETTINGS = {"models": {"trained_784x10": [1000], "random_784x10_w0.5": [1000]}, "trained": ["trained_784x10"]}


def table(ais_shift=0.0, raise_shift=0.0, covered_ais=0.95, rts_sd=0.05, n=100, seed=0, raise_shift_random=None):
    """Replicates whose AIS/RAISE errors sit at their Jensen gap (+ a shift), with chosen coverage."""
    rng = np.random.default_rng(seed)
    rows = []
    for model in SETTINGS["models"]:
        r_shift = raise_shift if raise_shift_random is None or model.startswith("trained") else raise_shift_random
        for method, sign, shift, sd in (("AIS", -1, ais_shift, 0.3), ("RAISE", 1, r_shift, 0.3),
                                        ("RTS", 0, 0.0, rts_sd), ("TI-RB", 0, 0.0, 0.2)):  # fmt: skip
            e = rng.normal(0, sd, n)
            e = (e - e.mean()) / e.std(ddof=1) * sd + sign * sd**2 / 2 + shift  # exact mean and sd
            cov = np.zeros(n)
            cov[: int(round((covered_ais if method == "AIS" else 0.95) * n))] = 1.0
            for i in range(n):
                rows.append({"model": model, "method": method, "sweeps": 1000, "replicate": i, "error": e[i],
                             "stderr": np.nan if method == "TI-RB" else 0.1 + 0.01 * (i % 3),
                             "covered": np.nan if method == "TI-RB" else cov[i]})  # fmt: skip
    return pd.DataFrame(rows)


def decided(df, profile="default"):
    return {r.claim.id: r for r in evaluate(claims(SETTINGS), Results({"estimates": df}, SETTINGS, profile))}


def test_claim_ids_and_kinds():
    d = decided(table())
    assert set(d) == {
        "calibration/trained_784x10/AIS/jensen_gap_1000", "calibration/trained_784x10/RAISE/jensen_gap_1000",
        "calibration/random_784x10_w0.5/AIS/jensen_gap_1000", "calibration/random_784x10_w0.5/RAISE/jensen_gap_1000",
        "calibration/AIS/coverage", "calibration/RAISE/coverage", "calibration/RTS/coverage",
        "calibration/TS/coverage", "calibration/MBAR/coverage", "calibration/trained_784x10/rts_beats_ais",
    }  # fmt: skip
    assert d["calibration/TS/coverage"].verdict == "not run"  # no TS rows in this table


def test_jensen_gap_reproduced_at_the_gap_and_not_far_from_it():
    d = decided(table())
    r = d["calibration/trained_784x10/AIS/jensen_gap_1000"]
    assert r.verdict == "reproduced" and abs(r.estimate.value) < 1e-12  # mean error == -var/2 by construction
    assert d["calibration/trained_784x10/RAISE/jensen_gap_1000"].verdict == "reproduced"
    # RAISE's rows say where its chains start and, given n_chains, each chain's own Jensen gap n s.e.^2 / 2
    assert "chains start at MNIST test images" in d["calibration/trained_784x10/RAISE/jensen_gap_1000"].estimate.details
    assert "start at exact samples" in d["calibration/random_784x10_w0.5/RAISE/jensen_gap_1000"].estimate.details
    assert "RAISE" not in d["calibration/trained_784x10/AIS/jensen_gap_1000"].estimate.details
    df = table()
    gap = 50 * np.mean(df.loc[(df.model == "trained_784x10") & (df.method == "RAISE"), "stderr"] ** 2) / 2
    rows = evaluate(claims({**SETTINGS, "n_chains": 50}), Results({"estimates": df}, SETTINGS, "default"))
    with_n = {r.claim.id: r for r in rows}
    assert f"n s.e.^2/2 = {gap:+.4f}" in with_n["calibration/trained_784x10/RAISE/jensen_gap_1000"].estimate.details
    d = decided(table(ais_shift=-0.5, raise_shift=0.02, raise_shift_random=0.05))
    r = d["calibration/trained_784x10/AIS/jensen_gap_1000"]
    assert r.verdict == "not reproduced" and abs(r.estimate.value + 0.5) < 1e-12
    # 0.02 +- 2 x 0.03 lies inside [-0.1, 0.1]; 0.05 +- 0.06 does not, nor outside: undecided
    assert d["calibration/trained_784x10/RAISE/jensen_gap_1000"].verdict == "reproduced"
    assert d["calibration/random_784x10_w0.5/RAISE/jensen_gap_1000"].verdict == "inconclusive"


def test_coverage_by_wilson_interval():
    d = decided(table(covered_ais=0.95))
    r = d["calibration/AIS/coverage"]
    assert r.verdict == "reproduced" and r.estimate.n == 200 and r.estimate.value == 0.95
    assert decided(table(covered_ais=0.6))["calibration/AIS/coverage"].verdict == "not reproduced"
    assert decided(table(covered_ais=0.85, n=20))["calibration/AIS/coverage"].verdict == "inconclusive"


def test_rts_beats_ais_ordering():
    assert decided(table(rts_sd=0.05))["calibration/trained_784x10/rts_beats_ais"].verdict == "reproduced"
    assert decided(table(rts_sd=0.6))["calibration/trained_784x10/rts_beats_ais"].verdict == "not reproduced"
