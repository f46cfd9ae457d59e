"""Summaries of Salakhutdinov (2010): Table 1 from the per-(algorithm, seed) evaluations."""

from __future__ import annotations

import numpy as np
import pandas as pd

# Table 1 of the paper: the test-set variational lower bound (nats) per algorithm, (MNIST, NORB).
PAPER_TABLE1 = {
    "SAP": (-87.23, -596.92),
    "FPCD": (-86.72, -597.12),
    "Trans-SAP": (-85.41, -595.54),
    "CAST": (-84.12, -591.18),
}
# The AIS calibration's band (nats) for the mean error of log Z on an enumerable DBM: a tenth of the paper's
# SAP-CAST gap (-87.23 vs -84.12), so a calibration inside it cannot change Table 1's ordering.
CALIBRATION_TOLERANCE = 0.3
# The algorithm pairs Table 1 compares (first minus second), paired over seeds (spec, section 3).
ORDERINGS = [("FPCD", "SAP"), ("Trans-SAP", "SAP"), ("CAST", "SAP"), ("CAST", "FPCD"), ("CAST", "Trans-SAP")]
# Our control (spec, section 3, tempering_helps_cast): SAP with CAST's slow chains alone (the same 50 streams and
# initial states), so CAST minus it isolates the tempered fast chains from CAST's halved number of gradient chains.
CONTROLS = {"SAP-50": "SAP with 50 chains on the streams of CAST's slow chains (our control, not the paper's)"}
CONTROL_ORDERINGS = [("CAST", "SAP-50")]
# A variant reported beside CAST without a verdict (issue 51's schedule evidence run): Algorithm 1 read literally,
# each fast chain with its own Wang-Landau weights. Its Table 1 row and paired difference appear only when run.
VARIANTS = {"CAST-perchain": "CAST with one Wang-Landau vector per fast chain (reported beside CAST, no verdict)"}
VARIANT_ORDERINGS = [("CAST-perchain", "CAST")]


def _mean_se(x) -> tuple[float, float]:
    x = np.asarray(x, dtype=np.float64)
    if x.size == 0:
        return np.nan, np.nan
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(x.size)) if x.size > 1 else np.nan


def bounds_by_seed(finals: list[dict]) -> pd.DataFrame:
    """Test bounds as a (seed x algorithm) table from the final records of :func:`.evaluation.evaluate`."""
    rows = [{"repeat": f.get("repeat", 0), "algorithm": f["algorithm"], "b": f["test_bound"]} for f in finals]
    df = pd.DataFrame(rows, columns=["repeat", "algorithm", "b"])
    return df.pivot(index="repeat", columns="algorithm", values="b").sort_index()


def paired_differences(finals: list[dict]) -> pd.DataFrame:
    """Table 1's paired differences (and the control's): per pair, mean and s.e. over the seeds both ran."""
    b = bounds_by_seed(finals)
    rows = []
    variants = [(a, c) for a, c in VARIANT_ORDERINGS if a in b]
    for a, c in ORDERINGS + CONTROL_ORDERINGS + variants:
        d = (b[a] - b[c]).dropna() if a in b and c in b else pd.Series(dtype=float)
        m, se = _mean_se(d)
        rows.append(
            {
                "pair": f"{a} - {c}",
                "difference": m,
                "stderr": se,
                "n_seeds": int(d.size),
                "per_seed": " ".join(f"{x:.3f}" for x in d),
                "paper_difference": (
                    round(PAPER_TABLE1[a][0] - PAPER_TABLE1[c][0], 2) if {a, c} <= set(PAPER_TABLE1) else np.nan
                ),
            }
        )
    return pd.DataFrame(rows)


def table1(finals: list[dict], norb_path: str | None) -> pd.DataFrame:
    """Table 1: test-set lower bound per algorithm, mean and s.e. over seeds (MNIST measured; NORB not run).

    ``finals`` are the final records of :func:`.evaluation.evaluate`, one per
    (algorithm, seed); an algorithm without one is marked "not run". The
    control rows (:data:`CONTROLS`) follow, without a paper value, then the
    variants (:data:`VARIANTS`) that ran. The s.e. over seeds carries each model's AIS and test-set error as well as the
    seed-to-seed spread; ``mean_model_stderr`` is the per-model part alone.
    """
    rows = []
    run = {f["algorithm"] for f in finals}
    papers = {**PAPER_TABLE1, **{c: (np.nan, np.nan) for c in [*CONTROLS, *(v for v in VARIANTS if v in run)]}}
    for alg, (p_mnist, p_norb) in papers.items():
        fs = sorted((f for f in finals if f["algorithm"] == alg), key=lambda f: f.get("repeat", 0))
        norb_note = (
            (
                "not run: NORB preprocessing (Gaussian-binary RBM) and the 4000-4000 DBM are not implemented; "
                f"data path given: {norb_path}"
            )
            if norb_path
            else "not run: small-NORB data not supplied (config norb_path)"
        )
        m, se = _mean_se([f["test_bound"] for f in fs])
        z, _ = _mean_se([f["log_z"] for f in fs])
        rows.append(
            {
                "algorithm": alg,
                "paper_mnist": p_mnist,
                "mnist_test_bound": m,
                "mnist_test_bound_stderr": se,
                "n_seeds": len(fs),
                "per_seed": " ".join(f"{f['test_bound']:.3f}" for f in fs),
                "mean_model_stderr": _mean_se([f.get("test_bound_stderr", np.nan) for f in fs])[0],
                "mnist_log_z": z,
                "mnist_log_z_stderr": _mean_se([f["log_z_stderr"] for f in fs])[0],
                "mnist_log_z_exact": _mean_se([f.get("log_z_exact", np.nan) for f in fs])[0],
                "mnist_status": "not run: algorithm not in config" if not fs else "run",
                "paper_norb": p_norb,
                "norb_test_bound": np.nan,
                "norb_status": norb_note,
            }
        )
    return pd.DataFrame(rows)


def ladder_check_table(checks: list[dict], finals: list[dict]) -> pd.DataFrame:
    """Table 1's ladder check: per algorithm (one seed), log Z at the profile's ladder and at one 5x longer.

    ``checks`` are :func:`.ladder_check.ladder_check` records; ``finals`` the
    evaluations, whose replicated log Z of the same seed is shown beside them.
    ``long_minus_profile`` lowers that algorithm's test bound by as much, so a
    gap between two algorithms moves by the difference of their values.
    """
    final = {(f["algorithm"], int(f.get("repeat", 0))): f for f in finals}
    rows = []
    for c in checks:
        f = final.get((c["algorithm"], int(c["repeat"])), {})
        rows.append(
            {
                **{k: c[k] for k in ("algorithm", "repeat", "n_betas", "n_runs", "log_z", "ess")},
                **{k: c[k] for k in ("n_betas_long", "log_z_long", "ess_long", "long_minus_profile")},
                "final_log_z": f.get("log_z", np.nan),
                "final_log_z_stderr": f.get("log_z_stderr", np.nan),
                "test_bound": f.get("test_bound", np.nan),
                "test_bound_long_ladder": f.get("test_bound", np.nan) - c["long_minus_profile"],
            }
        )
    return pd.DataFrame(rows)
