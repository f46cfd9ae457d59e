"""Claims of Salakhutdinov (2010), Learning DBMs using adaptive MCMC (spec, section 3).

Each claim reads the result tables the claims rule names:

* ``fig2_runs`` (per independent 100-update run of each sampler: sets
  visited, left the start, final stretch in the data's set) and
  ``fig2_occupation`` (the long Wang-Landau runs), from the Figure 2 job;
* ``finals`` (one final evaluation per trained (algorithm, seed): its log Z
  from independent AIS replicates), ``curves`` (the bound on the training
  subset at every checkpoint, all algorithms and seeds),
  ``exact_check`` (AIS against exact enumeration) and ``sampling`` (Figure 4,
  left and middle);
* ``cast_occupancy`` and ``cast_swaps`` (CAST's fast chains over training:
  level occupancy per window, and per swap how many reached beta_min) and
  ``cast_swap_comparison`` (with vs without swapping), in the CAST rows' details.

Table 1's claims are paired over seeds (common random numbers within a seed);
the Figure 2 and adaptive-ST claims are proportions over independent runs and particles.
"""

from __future__ import annotations

import numpy as np

from ...claims.core import Above, Below, Between, Claim, Close, Estimate, NotRun
from ...claims.stats import independent_difference, mean_estimate, proportion_estimate
from .claims_ais import check_same_instrument, exact_diagnostics, stated_vs_spread
from .claims_table1 import beats, cast_minus_sap_sd, table1_bound
from .summaries import (
    CALIBRATION_TOLERANCE,
    CONTROL_ORDERINGS,
    CONTROLS,
    ORDERINGS,
    PAPER_TABLE1,
)

PAPER = "salakhutdinov2010"
# Figure 2: the start partition X4 = (-1,-1) and the data's partition X1 = (1,1), 1-based as in fig2.csv.
START_PARTITION, DATA_PARTITION, N_PARTITIONS = 4, 1, 4
FIG2_UPDATES = 100  # the length of the Figure 2 trajectories the claims read
FPCD_LAST_UPDATES = 50  # FPCD must be in the data's partition for all of the last 50 of the 100 updates
VISIT_WINDOW = 1000  # updates within which an adaptive-ST particle must visit every temperature level
TABLE1_TOLERANCE = 2.0  # nats around the paper's Table 1 value
ISSUE = "issue 19"
SLUG = {"SAP": "sap", "FPCD": "fpcd", "Trans-SAP": "transsap", "CAST": "cast", "SAP-50": "sap50"}


def _proportion(flags, what: str) -> Estimate:
    flags = np.atleast_1d(np.asarray(flags, dtype=bool))
    return proportion_estimate(int(flags.sum()), int(flags.size), f"{int(flags.sum())} of {flags.size} {what}")


def _toy_runs(r):
    """The per-run table of the Figure 2 toy, checked to have the claims' trajectory length."""
    runs = r["fig2_runs"]
    n = int(runs["n_updates"].iloc[0])
    if n != FIG2_UPDATES:
        raise NotRun(f"the Figure 2 runs have {n} updates, not the claim's {FIG2_UPDATES}")
    return runs


def _toy_note(runs) -> str:
    return f"independent runs of {FIG2_UPDATES} updates per sampler (spec: >= 200)"


def wang_landau_visits_all(r) -> Estimate:
    """Runs in which Wang-Landau visits every partition within the trajectory's updates."""
    runs = _toy_runs(r)
    return _proportion(runs["wang_landau_partitions"] == N_PARTITIONS, _toy_note(runs))


def gibbs_leaves(r) -> Estimate:
    """Runs in which Gibbs leaves its start partition."""
    runs = _toy_runs(r)
    return _proportion(runs["gibbs_left_start"].astype(bool), _toy_note(runs))


def fpcd_stays(r) -> Estimate:
    """Runs in which FPCD is in the data's partition for all of the last updates."""
    runs = _toy_runs(r)
    return _proportion(runs["fpcd_data_tail"] >= FPCD_LAST_UPDATES, _toy_note(runs))


def wang_landau_balanced(r) -> list[tuple[str, Estimate]]:
    """Each partition's occupation fraction, mean and s.e. over the independent long Wang-Landau runs."""
    occ = r["fig2_occupation"]
    if "run" not in occ:
        occ = occ.assign(run=0)
    n = int(occ["run"].nunique())
    note = f"{n} independent long run(s) (spec: >= 10)"
    return [
        (f"X{int(p)}", mean_estimate(g.sort_values("run")["fraction"].to_numpy(), note))
        for p, g in occ.groupby("partition")
    ]


# -- Table 1: AIS calibration on an enumerable DBM -----------------------------
def ais_calibration(r) -> Estimate:
    """Mean error against the exact log Z of the estimate Table 1 makes, over independent repeats of it.

    Spec (section 3, ``ais_calibration``): Table 1's log Z pools the runs of ``final_replicates`` AIS replicates,
    so the claim judges disjoint pools of that many replicates (``replicates_grouped``; s.e. sd / sqrt(pools));
    one replicate's error is stated beside it.
    """
    e = r["exact_check"]
    reps = e.get("replicates") or []
    if not reps:
        raise NotRun("the exact check ran no AIS replicates")
    check_same_instrument(e, r["finals"] if "finals" in r else [])
    one = np.array([x["error"] for x in reps])
    grouped = e.get("replicates_grouped")
    if not grouped or not grouped["n_groups"]:
        raise NotRun(f"the exact check's {len(reps)} replicates make no pool of Table 1's size")
    one_se = f" ± {one.std(ddof=1) / np.sqrt(one.size):.3f}" if one.size > 1 else ""
    return mean_estimate(
        grouped["errors"],
        (
            f"DBM {'-'.join(map(str, e['shape']))} trained on the data for {e.get('n_updates', '?')} updates; "
            f"{len(reps)} independent AIS replicates (spec: >= 20) of the profile's final AIS, "
            f"{e['ais_runs']} runs x {e['ais_betas']} betas ({e['ais_schedule']} schedule), "
            f"judged as Table 1 pools them: {grouped['n_groups']} disjoint pools of {grouped['pool']} replicates "
            f"({grouped['n_runs']} runs each); one replicate's error {one.mean():+.3f}{one_se} (n = {one.size}); "
            + stated_vs_spread(reps)
            + f"; mean exact test log-lik {e['mean_exact_test_ll']:.2f}, "
            f"mean eq. (3) bound {e['mean_test_bound']:.2f}, max(bound - exact) {e['max_bound_minus_ll']:.2e}"
            + exact_diagnostics(e)
        ),
    )


# -- Figure 4, left and middle ------------------------------------------------
def adaptive_st_visits_all(r) -> Estimate:
    """Adaptive-ST particles that visit every temperature level within the window (proportion over particles)."""
    s = r["sampling"]
    traces = s.get("k_traces") or [s["k_trace"]]
    visited = np.array([np.unique(np.asarray(k)[:VISIT_WINDOW]).size for k in traces])
    n_betas = int(s["n_betas"])
    return proportion_estimate(
        int((visited == n_betas).sum()),
        len(traces),
        (
            f"{len(traces)} independent particle(s) (spec: >= 50), each with its own weights; levels visited within "
            f"{min(len(traces[0]), VISIT_WINDOW)} updates: median {int(np.median(visited))}, min {visited.min()} "
            f"of {n_betas}"
        ),
    )


def st_minus_gibbs_switches(r) -> Estimate:
    """Class switches per chain, adaptive ST minus Gibbs (two independent samples of chains)."""
    s = r["sampling"]
    if "ast_column_switches" in s:
        ast, gibbs = s["ast_column_switches"], s["gibbs_column_switches"]
        read = "classes read at the figure's columns"
    else:
        ast, gibbs = s["ast_switches"], s["gibbs_switches"]
        read = f"classes read every {s['classify_every']} updates (the column spacing is not a multiple of it)"
    acc = s.get("classifier_test_accuracy")
    classifier = (
        f"fixed logistic-regression classifier, test accuracy {100 * acc:.1f}% (spec: >= 90%"
        + ("" if acc >= 0.9 else ": below it, the class readings are noisier than the spec asks")
        + ")"
        if acc is not None
        else f"nearest-class-mean classifier, its accuracy not measured ({ISSUE})"
    )
    return independent_difference(
        ast,
        gibbs,
        (
            f"{len(gibbs)} chains per sampler (spec: >= 20); {read}; switches adaptive ST {int(np.sum(ast))}, Gibbs "
            f"{int(np.sum(gibbs))}; {classifier}"
        ),
    )


def _fraction(name: str, of_what: str, threshold, paper_value: str, metric) -> Claim:
    """A one-sided claim on the fraction of independent runs or particles ``of_what`` (a proportion)."""
    return Claim(id=f"{PAPER}/{name}", kind="one-sided", text=f"fraction of {of_what} {{threshold}}",
                 threshold=threshold, paper_value=paper_value, metric=metric)  # fmt: skip


def claims(settings) -> list[Claim]:
    """The claims of the spec, section 3 (``settings``: none are read)."""
    fig2 = [
        _fraction("fig2/wang_landau_visits_all",
                  f"runs in which Wang-Landau visits all 4 partitions within {FIG2_UPDATES} updates",
                  Above(0.5), "all 4 visited", wang_landau_visits_all),
        _fraction("fig2/gibbs_stays",
                  f"runs in which Gibbs leaves its start partition within {FIG2_UPDATES} updates",
                  Below(0.1), "stays in X4", gibbs_leaves),
        _fraction("fig2/fpcd_stays_in_data_mode",
                  f"runs in which FPCD is in the data's partition for all of the last {FPCD_LAST_UPDATES} updates",
                  Above(0.5), "stays in X1", fpcd_stays),
        Claim(id=f"{PAPER}/fig2/wang_landau_balanced", kind="all-of",
              text="long Wang-Landau runs (decreasing gamma): each partition's occupation fraction in {threshold}",
              threshold=Between(0.20, 0.30), paper_value=0.25, metric=wang_landau_balanced),
    ]  # fmt: skip
    # Table 1: AIS against exact enumeration, then the algorithms' test bounds (nats).
    table1 = [
        Claim(id=f"{PAPER}/table1/ais_calibration", kind="interval",
              text="mean error of AIS log Z against the exact value on an enumerable DBM in {threshold} {unit}",
              threshold=Between(-CALIBRATION_TOLERANCE, CALIBRATION_TOLERANCE), unit="nats", metric=ais_calibration),
    ]  # fmt: skip
    table1 += [
        Claim(id=f"{PAPER}/table1/{SLUG[a]}_beats_{SLUG[b]}", kind="ordering",
              text=f"test bound {a} minus {b} {{threshold}} {{unit}} (paired over seeds)", threshold=Above(0.0),
              unit="nats", paper_value=round(PAPER_TABLE1[a][0] - PAPER_TABLE1[b][0], 2), metric=beats(a, b))
        for a, b in ORDERINGS
    ]  # fmt: skip
    table1 += [
        Claim(id=f"{PAPER}/table1/tempering_helps_cast", kind="ordering",
              text=f"test bound {a} minus {b}, {CONTROLS[b]}, {{threshold}} {{unit}} (paired over seeds)",
              threshold=Above(0.0), unit="nats", paper_value="not in the paper", metric=beats(a, b))
        for a, b in CONTROL_ORDERINGS
    ]  # fmt: skip
    table1 += [
        Claim(id=f"{PAPER}/table1/table1_{SLUG[alg]}", kind="interval",
              text=f"{alg} test bound on MNIST within {{threshold}} {{unit}}", threshold=Close(mnist, TABLE1_TOLERANCE),
              unit="nats", paper_value=mnist, decided_in="paper", metric=table1_bound(alg))
        for alg, (mnist, _norb) in PAPER_TABLE1.items()
    ]  # fmt: skip
    fig4 = [
        Claim(id=f"{PAPER}/fig4/cast_more_stable_than_sap", kind="ordering",
              text="sd of the training bound over the last quarter of the checkpoints, CAST minus SAP, "
                   "{threshold} {unit} (paired over seeds)",
              threshold=Below(0.0), unit="nats", paper_value="SAP oscillates, CAST does not", decided_in="paper",
              metric=cast_minus_sap_sd),
        _fraction("fig4/adaptive_st_visits_all_levels",
                  f"adaptive-ST particles that visit all temperature levels within {VISIT_WINDOW} updates",
                  Above(0.5), "all 20 levels", adaptive_st_visits_all),
        Claim(id=f"{PAPER}/fig4/adaptive_st_switches_class_more", kind="ordering",
              text="digit-class switches per chain, adaptive ST minus Gibbs, {threshold}", threshold=Above(0.0),
              paper_value="adaptive ST switches, Gibbs stays", metric=st_minus_gibbs_switches),
    ]  # fmt: skip
    return fig2 + table1 + fig4
