"""Calibration claims (spec section 6) decided on constructed replicate tables."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from bmrep.claims.core import Results, evaluate
from bmrep.papers.calibration.claims import claims

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
        "calibration/trained_784x10/AIS/jensen_gap_1000", "calibration/trained_784x10/RAISE/above_truth_1000",
        "calibration/random_784x10_w0.5/AIS/jensen_gap_1000", "calibration/random_784x10_w0.5/RAISE/above_truth_1000",
        "calibration/AIS/coverage", "calibration/RAISE/coverage", "calibration/RTS/coverage",
        "calibration/TS/coverage", "calibration/MBAR/coverage", "calibration/trained_784x10/rts_matches_ais",
    }  # fmt: skip
    assert d["calibration/TS/coverage"].verdict == "not run"  # no TS rows in this table
    kinds = {k: r.claim.kind for k, r in d.items()}
    assert kinds["calibration/trained_784x10/RAISE/above_truth_1000"] == "one-sided"
    assert kinds["calibration/trained_784x10/rts_matches_ais"] == "interval"
    assert "[-0.05, 0.05]" in d["calibration/trained_784x10/rts_matches_ais"].claim.statement


def test_jensen_gap_reproduced_at_the_gap_and_not_far_from_it():
    d = decided(table())
    r = d["calibration/trained_784x10/AIS/jensen_gap_1000"]
    assert r.verdict == "reproduced" and abs(r.estimate.value) < 1e-12  # mean error == -var/2 by construction
    assert "RAISE" not in r.estimate.details
    d = decided(table(ais_shift=-0.5))
    r = d["calibration/trained_784x10/AIS/jensen_gap_1000"]
    assert r.verdict == "not reproduced" and abs(r.estimate.value + 0.5) < 1e-12


def test_raise_above_truth_is_one_sided_on_the_mean_error():
    # RAISE's rows sit at +var/2 = +0.045 (+ shift), sd 0.3 over 100 replicates: s.e. 0.03
    d = decided(table(raise_shift=0.2, raise_shift_random=-0.2))
    up = d["calibration/trained_784x10/RAISE/above_truth_1000"]
    assert up.verdict == "reproduced" and up.estimate.value == pytest.approx(0.245) and up.estimate.n == 100
    assert up.estimate.std_error == pytest.approx(0.03)
    assert d["calibration/random_784x10_w0.5/RAISE/above_truth_1000"].verdict == "not reproduced"  # -0.155
    assert decided(table())["calibration/trained_784x10/RAISE/above_truth_1000"].verdict == "inconclusive"  # 0.045
    # where its chains start, each chain's Jensen prediction n s.e.^2/2 and the corrected estimate
    assert "chains start at MNIST test images" in up.estimate.details
    assert "start at exact samples" in d["calibration/random_784x10_w0.5/RAISE/above_truth_1000"].estimate.details
    df = table(raise_shift=0.2)
    raise_rows = df[(df.model == "trained_784x10") & (df.method == "RAISE")]
    gap = 50 * np.mean(raise_rows["stderr"] ** 2) / 2
    corrected = raise_rows.assign(
        method="RAISE-corrected", error=raise_rows["error"] - 50 * raise_rows["stderr"] ** 2 / 2
    )
    df = pd.concat([df, corrected])
    rows = evaluate(claims({**SETTINGS, "n_chains": 50}), Results({"estimates": df}, SETTINGS, "default"))
    details = {r.claim.id: r for r in rows}["calibration/trained_784x10/RAISE/above_truth_1000"].estimate.details
    assert f"per-chain Jensen prediction n s.e.^2/2 = {gap:+.4f} (50 chains)" in details
    assert f"corrected (log Z - n s.e.^2/2): mean error {corrected['error'].mean():+.4f}" in details


def test_coverage_by_wilson_interval():
    d = decided(table(covered_ais=0.95))
    r = d["calibration/AIS/coverage"]
    assert r.verdict == "reproduced" and r.estimate.n == 200 and r.estimate.value == 0.95
    assert decided(table(covered_ais=0.6))["calibration/AIS/coverage"].verdict == "not reproduced"
    assert decided(table(covered_ais=0.85, n=20))["calibration/AIS/coverage"].verdict == "inconclusive"


def test_rts_matches_ais_interval():
    # RTS and AIS errors both sd 0.3 (AIS sits at -0.045), 400 replicates: RMSEs equal within the bootstrap s.e.
    r = decided(table(rts_sd=0.3, n=400))["calibration/trained_784x10/rts_matches_ais"]
    assert abs(r.estimate.value) < 0.01 and r.verdict == "reproduced"
    assert decided(table(rts_sd=0.05))["calibration/trained_784x10/rts_matches_ais"].verdict == "not reproduced"
    assert decided(table(rts_sd=0.6))["calibration/trained_784x10/rts_matches_ais"].verdict == "not reproduced"
