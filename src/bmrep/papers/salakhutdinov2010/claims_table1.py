"""Table 1 of Salakhutdinov (2010) as its claims read it: the algorithms' test bounds and paired differences.

Beside them, the details: AIS replicates and ESS, CAST's fast chains, the variants run beside CAST.

The metrics of :mod:`bmrep.papers.salakhutdinov2010.claims`'s Table 1 claims; ``r`` is the claims' view of the run
(``finals``, ``curves``, ``ladder_check``, ``runs_checks``, ``instrument_checks``,
``cast_occupancy``/``cast_swaps``/``cast_swap_comparison``).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from ...claims.core import Estimate, NotRun
from ...claims.stats import mean_estimate, paired_difference
from ...claims.verdict import needed_repeats_t
from .claims_ais import instrument_check_details, ladder_check_details, runs_check_details
from .summaries import VARIANT_ORDERINGS, VARIANTS
from .tempering import OCCUPANCY_BAND, second_half

PAPER_UPDATES = 200000  # the paper's joint training (section 8); it sees its differences towards its end


def _by_seed(r, algorithm: str) -> dict:
    """``algorithm``'s final records keyed by seed index (NotRun if it was not trained)."""
    by = {}
    for f in r["finals"]:
        by.setdefault(f["algorithm"], {})[int(f.get("repeat", 0))] = f
    if algorithm not in by:
        raise NotRun(f"{algorithm} is not among the configured algorithms ({', '.join(by) or 'none'})")
    return by[algorithm]


def _updates(r, algorithm: str) -> int:
    c = r["curves"]
    return int(c.loc[c["algorithm"] == algorithm, "update"].max())


def _seeds(c) -> np.ndarray:
    return c["repeat"].to_numpy() if "repeat" in c else np.zeros(len(c), dtype=int)


def algorithm_details(algorithm: str, fs: dict) -> str:
    """One algorithm's test bound over seeds and its final AIS: replicates, runs, betas, ESS."""
    b = np.array([f["test_bound"] for f in fs.values()])
    se = f" ± {np.std(b, ddof=1) / np.sqrt(b.size):.2f}" if b.size > 1 else ""
    f0 = next(iter(fs.values()))
    ess = [e for f in fs.values() for e in f.get("replicate_ess", [f.get("ess", math.nan)])]
    zse = np.array([f["log_z_stderr"] for f in fs.values()])
    return (
        f"{algorithm} {b.mean():.2f}{se} over {b.size} seed(s) (log Z s.e. from the AIS replicates "
        f"{np.nanmean(zse) if np.isfinite(zse).any() else math.nan:.2f}, AIS ESS {np.median(ess):.1f} of "
        f"{f0.get('ais_runs', '?')} runs, median over {len(ess)} replicates)"
    )


def final_bounds_details(by: dict) -> str:
    """Every algorithm's test bound over seeds, with its AIS's replicate error and effective sample size."""
    out = "test bounds: " + "; ".join(algorithm_details(a, fs) for a, fs in by.items())
    low = [
        a
        for a, fs in by.items()
        for f in fs.values()
        if np.median(f.get("replicate_ess", [f.get("ess", np.inf)])) < 0.1 * f.get("ais_runs", 0)
    ]
    if low:
        out += (
            f"; AIS ESS under 10% of the runs ({', '.join(sorted(set(low)))}): a single AIS's stated error "
            "would understate the uncertainty and log Z is likely low (the bound high); the replicates' spread "
            "is the error used"
        )
    return out


# the tempering records of each CAST variant (cast_tempering, cast_perchain_tempering) and how its details name them
TEMPERING = {
    "CAST": ("cast", "CAST's fast chains (one shared Wang-Landau vector)"),
    "CAST-perchain": ("cast_perchain", "its fast chains (one Wang-Landau vector each)"),
}


def tempering_details(r, algorithm: str = "CAST") -> str:
    """A CAST variant's fast chains over the second half of each run (the records of every such training).

    Every level's share against the spec's band, and how many fast chains reached beta_min between swaps.
    """
    key, what = TEMPERING[algorithm]
    if f"{key}_occupancy" not in r:
        return f"{what}: no tempering records in this run"
    lo, hi = OCCUPANCY_BAND
    per_run = []
    n_levels = int(r[f"{key}_occupancy"]["level"].max())
    for _, h in second_half(r[f"{key}_occupancy"], r[f"{key}_swaps"]).iterrows():
        per_run.append(
            f"seed {int(h['repeat'])}: level shares {h['min_share']:.3f}-{h['max_share']:.3f} over updates "
            f"{int(h['first_update'])}-{int(h['updates'])} "
            f"(all {n_levels} in [{lo}, {hi}]: {'yes' if h['in_band'] else 'NO'}), "
            f"fast chains reaching beta_min between swaps median {100 * h['median_reached_min']:.0f}% "
            f"(> half of them in {100 * h['swaps_with_most_reaching']:.0f}% of {int(h['n_swaps'])} swaps), "
            f"pairs swapped {100 * h['swapped_fraction']:.0f}%"
        )
    cmp_ = r["cast_swap_comparison"] if key == "cast" and "cast_swap_comparison" in r else None  # without swaps too
    for rep, c in [] if cmp_ is None else cmp_.sort_values("level").groupby("repeat"):
        per_run.append(
            f"seed {int(rep)} without swapping (CAST-noswap, same streams): level shares "
            f"{c['share_noswap'].min():.3f}-{c['share_noswap'].max():.3f}, log g_{n_levels} - log g_1 at the end "
            f"{c['log_weight_swapping'].iloc[-1]:.1f} nats with swaps, {c['log_weight_noswap'].iloc[-1]:.1f} without"
        )
    return f"{what}, second half of training: " + "; ".join(per_run)


def _deciding_seeds(diffs, updates: int) -> str:
    """How many paired seeds would decide the ordering at the measured spread, and the run's length."""
    d = np.asarray(diffs, dtype=np.float64)
    phase = (
        f"; trained for {updates} updates (paper: {PAPER_UPDATES}; it sees its differences towards the end of "
        "learning, so this run judges the early phase)"
        if updates < PAPER_UPDATES
        else f"; trained for {updates} updates"
    )
    if d.size < 2:
        return "one seed: no spread to judge; at least 3 are needed" + phase
    sd = float(np.std(d, ddof=1))
    need = needed_repeats_t(sd, abs(float(d.mean())))
    seeds = "> 10^6 (the difference is too small to decide)" if need is None else str(need)
    return f"at the measured spread (sd {sd:.2f} nats over seeds) {seeds} paired seeds decide it" + phase


def beats(a: str, b: str):
    """Metric: the test bound of ``a`` minus that of ``b``, paired over the seeds both ran (common random numbers).

    The details say how many seeds would decide it at the measured spread and at how many updates the run was
    made; a comparison involving CAST adds its fast chains' occupancy records.
    """

    def metric(r) -> Estimate:
        fa, fb = _by_seed(r, a), _by_seed(r, b)
        seeds = sorted(set(fa) & set(fb))
        if not seeds:
            raise NotRun(f"no seed on which both {a} and {b} ran")
        ba, bb = [fa[s]["test_bound"] for s in seeds], [fb[s]["test_bound"] for s in seeds]
        checks = [instrument_check_details(_instrument_checks(r), x, set(seeds), r["finals"]) for x in (a, b)]
        est = paired_difference(
            ba,
            bb,
            (
                f"{len(seeds)} paired seed(s) (spec: >= 3), each with its own pretraining and the same minibatches "
                f"and initial chains for both; "
                + _deciding_seeds(np.subtract(ba, bb), _updates(r, a))
                + "; "
                + final_bounds_details({a: fa, b: fb})
                + ("; " + tempering_details(r) if "CAST" in (a, b) else "")
                + ladder_check_details(r["ladder_check"] if "ladder_check" in r else None, a, b)
                + "".join(d for d, _ in checks)
            ),
        )
        return _undecided(est, [u for _, u in checks])

    return metric


def _instrument_checks(r) -> list[dict]:
    return r["instrument_checks"] if "instrument_checks" in r else []


def _undecided(est: Estimate, reasons: list) -> Estimate:
    """``est`` made inconclusive where a model it rests on failed its instrument check (the reasons not None)."""
    reasons = [x for x in reasons if x]
    return replace(est, undecided="; ".join(reasons)) if reasons else est


def _one_model(f: dict, details: str) -> Estimate:
    """One seed's test bound with that model's own error (spec, the schedule evidence run).

    The error combines the AIS replicates' spread and the test-set sampling error; n is the number of AIS
    replicates, the independent repeats behind the larger part of it (its t factor has their degrees of freedom).
    """
    n = int(f.get("n_replicates", len(f.get("log_z_replicates", [])) or 1))
    return Estimate(
        float(f["test_bound"]),
        float(f["test_bound_stderr"]),
        n,
        f"one seed: this judges the seed-{int(f.get('repeat', 0))} model (at 3000 updates the test bound varies by "
        f"3-9 nats between seeds); s.e. {f['test_bound_stderr']:.2f} nats from its {n} AIS replicates' spread "
        f"(log Z s.e. {f['log_z_stderr']:.2f}) and the test-set sampling error ({f['test_sampling_stderr']:.2f}); "
        + details,
    )


def variant_details(r, algorithm: str) -> str:
    """The variants run beside ``algorithm`` (CAST-perchain beside CAST): their bounds and paired differences."""
    out = []
    for v, base in VARIANT_ORDERINGS:
        if base != algorithm or v not in {f["algorithm"] for f in r["finals"]}:
            continue
        fv, fb = _by_seed(r, v), _by_seed(r, base)
        seeds = sorted(set(fv) & set(fb))
        d = np.array([fv[s]["test_bound"] - fb[s]["test_bound"] for s in seeds])
        se = (
            np.std(d, ddof=1) / np.sqrt(d.size)
            if d.size > 1
            else np.hypot(*(fv[seeds[0]]["test_bound_stderr"], fb[seeds[0]]["test_bound_stderr"]))
        )
        out.append(
            f"{VARIANTS[v]}: " + algorithm_details(v, fv) + f"; {v} minus {base} {d.mean():+.2f} ± {se:.2f} nats over "
            f"{d.size} seed(s)"
            + (" (one seed: the two models' own errors)" if d.size == 1 else "")
            + (f"; {tempering_details(r, v)}" if v in TEMPERING else "")
        )
    return "; ".join(out)


def table1_bound(algorithm: str):
    """Metric: ``algorithm``'s test bound, mean over seeds (one seed: :func:`_one_model`)."""

    def metric(r) -> Estimate:
        fs = _by_seed(r, algorithm)
        extra = ("; " + tempering_details(r) if algorithm == "CAST" else "") + (
            "; " + v if (v := variant_details(r, algorithm)) else ""
        )
        ladder = ladder_check_details(r["ladder_check"] if "ladder_check" in r else None, algorithm)
        ladder += runs_check_details(r["runs_checks"] if "runs_checks" in r else [], r["finals"], algorithm)
        check, undecided = instrument_check_details(_instrument_checks(r), algorithm, finals=r["finals"])
        details = (
            f"trained for {_updates(r, algorithm)} updates; "
            + algorithm_details(algorithm, fs)
            + ladder
            + check
            + extra
        )
        if len(fs) == 1:
            return _undecided(_one_model(next(iter(fs.values())), details), [undecided])
        return _undecided(mean_estimate([f["test_bound"] for _, f in sorted(fs.items())], details), [undecided])

    return metric


def last_quarter_sd(curve) -> float:
    """Standard deviation of the training bound over the last quarter of the checkpoints (at least two)."""
    b = curve.sort_values("update")["train_bound"].to_numpy()
    k = max(2, math.ceil(b.size / 4))
    if b.size < k:
        raise NotRun(f"{b.size} checkpoint(s): the spread over the last quarter needs at least 2")
    return float(np.std(b[-k:], ddof=1))


def cast_minus_sap_sd(r) -> Estimate:
    """Training-bound spread over the last quarter of the checkpoints, CAST minus SAP (paired over seeds)."""
    c = r["curves"]
    seeds = sorted(set(_by_seed(r, "CAST")) & set(_by_seed(r, "SAP")))
    sd = {
        alg: [last_quarter_sd(c[(c["algorithm"] == alg) & (_seeds(c) == s)]) for s in seeds] for alg in ("CAST", "SAP")
    }
    n_ck = int(((c["algorithm"] == "SAP") & (_seeds(c) == seeds[0])).sum())
    return paired_difference(
        sd["CAST"],
        sd["SAP"],
        (
            f"{len(seeds)} paired seed(s); mean sd CAST {np.mean(sd['CAST']):.3f}, SAP {np.mean(sd['SAP']):.3f} "
            f"nats over the last quarter of {n_ck} checkpoints"
        ),
    )
