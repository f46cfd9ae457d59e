"""carlson2016 claim declarations on small constructed result tables: estimates and verdicts we can predict."""

import math

import numpy as np
import pandas as pd
import pytest

from bmrep.claims.core import Results, evaluate
from bmrep.claims.verdict import INCONCLUSIVE, NOT_REPRODUCED, NOT_RUN, REPRODUCED
from bmrep.papers.carlson2016.claims import claims

SETTINGS = {"fig3_models": ["784x10", "784x99"], "fig1_main_sweeps": 1500}
SIGNS = np.array([1.0, -1.0, 1.0, -1.0])  # errors of equal size: bootstrap RMSEs do not vary, so s = 0


def _exact_check(errors=((1.0, 0.02), (3.0, -0.05)), n_replicates=20):
    """Replicates with errors of the given mean +- 0.01 (alternating), sd ~ 0.01; TI rules have a rule bias of +0.03."""
    rows = []
    for scale, err in errors:
        for rep in range(n_replicates):
            e = err + (0.01 * (-1) ** rep if n_replicates > 1 else 0.0)
            for m in ("AIS", "RAISE", "RTS", "TS", "MBAR", "TI-riemann", "TI-RB"):
                ti = m.startswith("TI")
                rule = 10.03 if ti else np.nan
                stated = np.nan if ti else 0.02
                rows.append({"weight_scale": scale, "replicate": rep, "method": m,
                             "estimate": (rule if ti else 10.0) + e, "stderr": stated,
                             "exact": 10.0, "exact_rule": rule, "error": e, "z": e / stated})  # fmt: skip
    return pd.DataFrame(rows)


def _fig1(rb_err=0.1, ts_err=0.3, conv=3, n_iterations=10, seeds=(0,)):
    rows = []
    for seed in seeds:
        for variant, err in (("RB", rb_err), ("TS", ts_err)):
            for it in range(1, n_iterations + 1):
                for k in (1, 2):
                    e = 0.0 if k == 1 else err
                    rows.append({"seed": seed, "variant": variant, "iteration": it, "k": k, "beta": k - 1.0,
                                 "log_zhat": 5.0 + e, "c": 0.5, "exact": 5.0,
                                 "converged_at": conv if variant == "RB" else -1})  # fmt: skip
    return pd.DataFrame(rows)


def _fig1_main(err=0.01, init_err=-0.35, seeds=(0,), main_sweeps=(150, 1500)):
    """The main run's checkpoints per seed: the last at ``err`` (+0.001 per seed), the iterations at ``init_err``."""
    rows = [{"seed": s, "main_sweeps": m, "sweeps": 500 + m,
             "log_z": 5.0 + err + 0.001 * s + (0.5 if m < max(main_sweeps) else 0),
             "stderr": 0.05, "init_log_z": 5.0 + init_err, "exact": 5.0}
            for s in seeds for m in main_sweeps]  # fmt: skip
    return pd.DataFrame(rows)


TI_RIEMANN_RULE = 4.0  # the Riemann rule's value in the constructed reference: bias +1 nat


def _fig2():
    rows = []
    for rep, sign in enumerate(SIGNS):
        for n, scale in ((100, 1.0), (400, 0.5)):
            for m, f in (("RTS", 1.0), ("MBAR", 1.0), ("TI Riemann", 2.0)):
                centre = TI_RIEMANN_RULE + 0.01 if m == "TI Riemann" else 3.0
                se = 0.1 if m in ("RTS", "MBAR") else np.nan
                rows.append({"repeat": rep, "n_samples": n, "method": m, "estimate": centre + sign * scale * f * 0.1,
                             "stderr": se, "exact": 3.0})  # fmt: skip
    return pd.DataFrame(rows)


def _fig2_reference(spread=0.01):
    return pd.DataFrame(
        [{"run": run, "method": "TI Riemann", "rule_value": TI_RIEMANN_RULE + s, "n_samples": 4000, "exact": 3.0}
         for run, s in enumerate((-spread, spread))]
    )  # fmt: skip


def _truth(lower=100.0, upper=100.0, spread=0.01, model="784x10"):
    """Truth runs: AIS around ``lower``, RAISE around ``upper`` (3 runs each, sd ``spread``)."""
    return pd.DataFrame(
        [{"model": model, "method": m, "run": i, "sweeps": 1200, "estimate": c + spread * d, "stderr": 0.01}
         for m, c in (("AIS", lower), ("RAISE", upper)) for i, d in enumerate((-1.0, 0.0, 1.0))]
    )  # fmt: skip


def _fig3(ais_err=-0.5, raise_err=0.5, rts_err=0.1, lower=100.0, upper=100.0):
    rows = []
    for rep, sign in enumerate(SIGNS):
        for m, e in (("RTS", sign * rts_err), ("AIS", ais_err + 0.01 * sign), ("RAISE", raise_err + 0.01 * sign)):
            for b in (60, 120):
                rows.append(
                    {"model": "784x10", "repeat": rep, "method": m, "sweeps": b, "estimate": 100.0 + e, "stderr": 0.1}
                )
    return pd.DataFrame(rows), _truth(lower, upper)


def _fig4(rts_rmse=((10, 0.2), (100, 0.1), (1000, 0.11)), ti_bias=((10, -1.0), (100, -0.1), (1000, -0.01))):
    """Independent runs per K: errors of equal size and alternating sign (RMSE = the size, no bootstrap spread)."""
    rows = []
    for run, sign in enumerate(SIGNS):
        rows += [{"model": "784x10", "K": K, "run": run, "method": "RTS", "estimate": 100.0 + sign * r, "stderr": 0.1}
                 for K, r in rts_rmse]  # fmt: skip
        rows += [{"model": "784x10", "K": K, "run": run, "method": "TI", "estimate": 100.0 + b, "stderr": np.nan}
                 for K, b in ti_bias]  # fmt: skip
    return pd.DataFrame(rows)


def _fig5(move=5.0, gap=0.2, ais_se=0.05):
    its = list(range(0, 100, 10))
    lz_ais = np.linspace(100.0, 100.0 + move, len(its))
    lz_rts = lz_ais - gap  # RTS tracks AIS to within gap
    mean_f = -np.full(len(its), 20.0)
    return pd.DataFrame(
        {
            "iteration": its,
            "train_rts": -mean_f - lz_rts,
            "train_ais": -mean_f - lz_ais,
            "log_z_rts": lz_rts,
            "log_z_ais": lz_ais,
            "log_z_ais_se": ais_se,
            "ais_n": 3,
        }
    )


def _tables(**over):
    fig3, truth = _fig3()
    t = {"exact_check": _exact_check(), "fig1": _fig1(), "fig1_main": _fig1_main(), "fig2_estimates": _fig2(),
         "fig2_reference": _fig2_reference(), "fig3_estimates": fig3, "fig3_truth": truth,
         "fig4_estimates": _fig4(), "fig5": _fig5()}  # fmt: skip
    t.update(over)
    return t


def _decided(profile="default", **over):
    return {
        d.claim.id: d for d in evaluate(claims(SETTINGS), Results(_tables(**over), settings=SETTINGS, profile=profile))
    }


def test_ids_kinds_and_thresholds_follow_the_spec():
    cs = {c.id: c for c in claims(SETTINGS)}
    assert len(cs) == 9 + 3 + 7 + 6 + 2 + 2
    assert cs["carlson2016/fig1/rao_blackwell_reduces_error"].kind == "ordering"
    assert cs["carlson2016/fig1/stops_within_10_iterations"].kind == "one-sided"
    assert cs["carlson2016/fig2/rts_consistent"].kind == "trend"
    assert cs["carlson2016/fig3/784x10/rts_beats_ais"].kind == "ordering"
    assert cs["carlson2016/fig5/tracks_ais"].kind == "all-of"
    lo, hi = (
        cs["carlson2016/fig2/rts_close_to_mbar"].threshold.lo,
        cs["carlson2016/fig2/rts_close_to_mbar"].threshold.hi,
    )
    assert (math.exp(lo), math.exp(hi)) == pytest.approx((0.5, 2.0))
    assert cs["carlson2016/fig1/final_log_z"].threshold.fields()["threshold"] == "[-0.05, 0.05]"
    assert "[-0.05, 0.05]" in cs["carlson2016/fig1/final_log_z"].statement


def test_smoke_profile_decides_as_the_default_does():
    smoke, default = _decided(profile="smoke"), _decided(profile="default")
    assert {k: d.verdict for k, d in smoke.items()} == {k: d.verdict for k, d in default.items()}
    assert any(d.verdict != NOT_RUN for d in smoke.values())


def test_exact_check_is_decided_per_model_over_replicates():
    d = _decided()
    ais = d["carlson2016/exact_check/AIS"]
    assert ais.verdict == REPRODUCED and [p[1].n for p in ais.parts] == [20, 20]
    assert [p[1].value for p in ais.parts] == pytest.approx([0.02, -0.05])
    assert ais.parts[0][1].std_error == pytest.approx(0.01 * math.sqrt(20 / 19) / math.sqrt(20))
    # the stated error beside the replicates' spread, and a TI rule's discretisation bias
    assert "stated s.e. 0.02 vs replicate sd 0.0103, ratio 1.95" in ais.details
    ti = d["carlson2016/exact_check/TI-RB"]
    assert ti.verdict == REPRODUCED and "rule bias +0.03 nats" in ti.details
    assert {c for c in d if c.startswith("carlson2016/exact_check/")} >= {
        f"carlson2016/exact_check/{m}" for m in ("AIS", "RAISE", "RTS", "TS", "MBAR", "TI-riemann", "TI-RB")
    }


def test_exact_check_one_model_off_is_not_reproduced_and_one_replicate_is_inconclusive():
    off = _decided(exact_check=_exact_check(errors=((1.0, 0.0), (3.0, 0.3))))
    assert off["carlson2016/exact_check/RTS"].verdict == NOT_REPRODUCED
    one = _decided(exact_check=_exact_check(n_replicates=1))
    assert one["carlson2016/exact_check/MBAR"].verdict == INCONCLUSIVE
    assert one["carlson2016/exact_check/TI-trapezoid"].verdict == NOT_RUN  # no rows for it in this table


def test_fig1_one_seed_is_inconclusive_and_seeds_decide():
    d = _decided()
    rb = d["carlson2016/fig1/rao_blackwell_reduces_error"]
    assert rb.estimate.value == pytest.approx(5 * (0.1 - 0.3) / math.sqrt(2)) and rb.verdict == INCONCLUSIVE
    assert d["carlson2016/fig1/final_log_z"].estimate.value == pytest.approx(0.01)
    assert d["carlson2016/fig1/final_log_z"].verdict == INCONCLUSIVE  # one seed
    many = pd.concat([_fig1(rb_err=0.1 + 0.001 * s, seeds=[s]) for s in range(20)], ignore_index=True)
    d = _decided(fig1=many, fig1_main=_fig1_main(err=0.1, seeds=range(20)))
    assert d["carlson2016/fig1/rao_blackwell_reduces_error"].verdict == REPRODUCED
    assert d["carlson2016/fig1/rao_blackwell_reduces_error"].estimate.n == 20
    assert d["carlson2016/fig1/stops_within_10_iterations"].verdict == REPRODUCED
    assert d["carlson2016/fig1/final_log_z"].verdict == NOT_REPRODUCED  # 0.1 nats off, every seed


def test_fig1_final_log_z_judges_the_main_run_and_reports_the_iterations():
    d = _decided(fig1_main=_fig1_main(err=-0.01, init_err=-0.35, seeds=range(20)))["carlson2016/fig1/final_log_z"]
    # the longest checkpoint is judged (the earlier one is 0.5 nats off), over the 20 seeds
    assert d.estimate.value == pytest.approx(-0.01 + 0.001 * 9.5) and d.estimate.n == 20
    assert d.verdict == REPRODUCED
    assert "main run of 1500 sweeps" in d.details
    assert "after the initial iterations alone -0.350 +- 0.000 nats" in d.details
    assert (
        "main run of 1500 sweeps"
        in {c.id: c for c in claims(SETTINGS | {"fig1_main_sweeps": 1500})}["carlson2016/fig1/final_log_z"].statement
    )


def test_fig1_stopping_rule_needs_ten_iterations_to_say_no():
    d = _decided(fig1=_fig1(conv=-1, n_iterations=4))
    assert d["carlson2016/fig1/stops_within_10_iterations"].verdict == NOT_RUN
    never = pd.concat([_fig1(conv=-1, seeds=[s]) for s in range(20)], ignore_index=True)
    assert _decided(fig1=never)["carlson2016/fig1/stops_within_10_iterations"].verdict == NOT_REPRODUCED


def test_fig2_slopes_and_ratio_from_the_repeats():
    d = _decided()
    rts = d["carlson2016/fig2/rts_consistent"]
    assert rts.estimate.value == pytest.approx(math.log(0.5) / math.log(4)) and rts.estimate.n == 4
    assert rts.estimate.std_error == pytest.approx(0.0, abs=1e-12) and rts.verdict == REPRODUCED
    assert "stated s.e. 0.100 vs repeat sd 0.058" in rts.details  # 0.05 * sqrt(4/3): stated beside the spread
    ratio = d["carlson2016/fig2/rts_close_to_mbar"]
    assert ratio.estimate.value == pytest.approx(0.0) and ratio.verdict == REPRODUCED


def test_fig2_ti_bias_floor_against_the_reference_runs():
    d = _decided()
    floor = d["carlson2016/fig2/ti_riemann_bias_floor"]
    # at 400 samples the mean Riemann estimate is the rule's value + 0.01; s.e. from the repeats (0.1 * 0.5 * 2
    # * sqrt(4/3) / 2) and the two reference runs (0.01) combined
    rep_se = 0.1 * math.sqrt(4 / 3) / 2
    assert floor.estimate.value == pytest.approx(0.01) and floor.estimate.n == 4
    assert floor.estimate.std_error == pytest.approx(math.hypot(rep_se, 0.01))
    assert floor.verdict == INCONCLUSIVE  # k(4) s = 3.18 * 0.059 > 0.1 - 0.01
    assert "the rule's bias (rule value - log Z) +1.000" in floor.details
    assert d["carlson2016/fig2/ti_rb_bias_floor"].verdict == NOT_RUN  # no TI-RB rows in the tables
    far = _fig2_reference(spread=0.0).assign(rule_value=TI_RIEMANN_RULE - 1.0)  # TI far from the rule's value
    assert _decided(fig2_reference=far)["carlson2016/fig2/ti_riemann_bias_floor"].verdict == NOT_REPRODUCED


def test_fig3_against_the_truth_with_repeats():
    d = _decided()
    below = d["carlson2016/fig3/784x10/ais_below_truth"]
    # a point bracket at 100: mean AIS - truth, s of the difference of the repeats' and the truth runs' means
    assert below.estimate.value == pytest.approx(-0.5) and below.estimate.n == 3 and below.verdict == REPRODUCED
    assert below.estimate.std_error == pytest.approx(math.hypot(0.01 * 2 / math.sqrt(3) / 2, 0.01 / math.sqrt(3)))
    assert d["carlson2016/fig3/784x10/raise_above_truth"].verdict == REPRODUCED
    beats = d["carlson2016/fig3/784x10/rts_beats_ais"]
    assert beats.estimate.value == pytest.approx(0.1 - math.sqrt(0.5**2 + 0.01**2), abs=1e-3) and beats.estimate.n == 4
    assert beats.verdict == REPRODUCED and "RMSE against T at 60 sweeps" in beats.details
    assert d["carlson2016/fig3/784x99/rts_beats_ais"].verdict == NOT_RUN  # a model this run did not make
    fig3, truth = _fig3(ais_err=0.5, raise_err=-0.5, rts_err=1.0)
    bad = _decided(fig3_estimates=fig3, fig3_truth=truth)
    assert bad["carlson2016/fig3/784x10/ais_below_truth"].verdict == NOT_REPRODUCED
    assert bad["carlson2016/fig3/784x10/raise_above_truth"].verdict == NOT_REPRODUCED
    assert bad["carlson2016/fig3/784x10/rts_beats_ais"].verdict == NOT_REPRODUCED


@pytest.mark.parametrize(
    ("lower", "upper", "verdict", "note"),
    [
        (100.0, 101.0, REPRODUCED, "same at both ends"),  # mean AIS (99.5) below A: below the truth anywhere in [A, R]
        (99.2, 101.0, INCONCLUSIVE, "too wide"),  # between A and R, each end decided the other way
        (99.45, 99.55, INCONCLUSIVE, "too wide"),  # still between, though narrow: 0.05 is more than k s away
        (99.49, 99.51, INCONCLUSIVE, "inconclusive at both ends"),  # within k s of both ends: more repeats would tell
        (98.0, 98.9, NOT_REPRODUCED, "same at both ends"),  # above R: above the truth anywhere in [A, R]
    ],
)
def test_fig3_closure_rule_on_constructed_brackets(lower, upper, verdict, note):
    fig3, truth = _fig3(lower=lower, upper=upper)  # mean AIS = 99.5 +- 0.006 over 4 repeats
    row = _decided(fig3_estimates=fig3, fig3_truth=truth)["carlson2016/fig3/784x10/ais_below_truth"]
    assert row.verdict == verdict and note in row.details, row.details
    if verdict == REPRODUCED:  # decided: the difference from the end nearer its boundary (the harder one)
        assert row.estimate.value == pytest.approx(99.5 - lower)
    elif verdict == NOT_REPRODUCED:
        assert row.estimate.value == pytest.approx(99.5 - upper)
    elif note == "too wide":  # the ends' midpoint, undecidable by more repeats
        assert row.estimate.value == pytest.approx(99.5 - (lower + upper) / 2)
        assert row.needed_repeats == "n/a" and "undecided: the truth bracket is too wide" in row.details


def test_bracket_closure_keeps_interval_claims_undecided_when_the_ends_disagree():
    from bmrep.claims.core import Between, Estimate
    from bmrep.papers.carlson2016.claims_truth import bracket_closure

    inside, outside = Estimate(0.0, 0.1, 10), Estimate(3.0, 0.1, 10)
    band = Between(-1.0, 1.0)
    mixed = bracket_closure(inside, outside, (0.0, 3.0), band, "x")
    assert band.decide(mixed, exact=False)[0] == NOT_REPRODUCED  # by its numbers alone ...
    assert "too wide" in mixed.undecided  # ... but the framework keeps it inconclusive (claims/test_verdicts)
    same = bracket_closure(inside, Estimate(0.5, 0.1, 10), (0.0, 0.5), band, "x")
    assert band.decide(same, exact=False)[0] == REPRODUCED and same.value == 0.5  # the end nearer its bound


def test_fig4_from_independent_runs_per_k():
    d = _decided()
    ins = d["carlson2016/fig4/rts_insensitive_to_k"]
    assert ins.estimate.value == pytest.approx(math.log(1.1)) and ins.estimate.n == 4 and ins.verdict == REPRODUCED
    ti = d["carlson2016/fig4/ti_error_grows_as_k_shrinks"]
    assert ti.estimate.value == pytest.approx(-1.0) and ti.estimate.n == 4 and ti.verdict == REPRODUCED
    flat = _decided(fig4_estimates=_fig4(rts_rmse=((10, 0.05), (100, 0.1), (1000, 0.2))))
    assert flat["carlson2016/fig4/rts_insensitive_to_k"].verdict == NOT_REPRODUCED  # ratio 4
    # a truth bracket 0.5 wide around 100: TI's RMSE by K is (0.75, 0.15, 0.24) at A, (1.25, 0.35, 0.26) at R
    wide = _decided(fig3_truth=_truth(99.75, 100.25))["carlson2016/fig4/ti_error_grows_as_k_shrinks"]
    assert wide.verdict == REPRODUCED and "the same at both ends" in wide.details
    ends = [np.polyfit(np.log([10, 100, 1000]), np.log(r), 1)[0] for r in ([0.75, 0.15, 0.24], [1.25, 0.35, 0.26])]
    assert min(abs(wide.estimate.value - e) for e in ends) < 1e-9


def test_fig5_tracking_and_the_frozen_tracker():
    d = _decided()
    tracks = d["carlson2016/fig5/tracks_ais"]
    assert len(tracks.parts) == 10 and tracks.verdict == REPRODUCED
    assert tracks.estimate.value == pytest.approx(0.2) and tracks.estimate.std_error == 0.05 and tracks.estimate.n == 3
    off = _decided(fig5=_fig5(gap=1.5))["carlson2016/fig5/tracks_ais"]
    assert off.verdict == NOT_REPRODUCED
    frozen = d["carlson2016/fig5/beats_frozen_tracker"]
    # RTS stays 0.2 off; the frozen tracker falls 5 i / 9 behind at checkpoint i, plus its own 0.2 offset
    assert (
        frozen.estimate.value == pytest.approx(0.2 - np.mean([5 * i / 9 + 0.2 for i in range(1, 10)]))
        and frozen.estimate.n == 9
    )
    assert frozen.verdict == REPRODUCED
    # log Z moved no more than 2 nats: a frozen tracker would pass too, so both claims are undecided
    for still in (_decided(fig5=_fig5(move=0.5)), _decided(fig5=_fig5(move=0.5, gap=1.5))):
        assert still["carlson2016/fig5/beats_frozen_tracker"].verdict == INCONCLUSIVE
        assert "moved 0.50 nats" in still["carlson2016/fig5/beats_frozen_tracker"].details
        assert still["carlson2016/fig5/tracks_ais"].verdict == INCONCLUSIVE
        assert "moved 0.50 nats" in still["carlson2016/fig5/tracks_ais"].details
        assert still["carlson2016/fig5/tracks_ais"].needed_repeats == "n/a"
