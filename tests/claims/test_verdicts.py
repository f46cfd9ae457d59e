"""The spec's verdict rule on constructed cases, one per claim kind and edge."""

import math

import pytest
from scipy import stats

from bmrep.claims.core import Above, Below, Between, Claim, Close, Digits, Estimate, NotRun, Results, decide, evaluate
from bmrep.claims.stats import bootstrap_estimate, mean_estimate, paired_difference, proportion_estimate
from bmrep.claims.verdict import (
    INCONCLUSIVE,
    NOT_REPRODUCED,
    NOT_RUN,
    REPRODUCED,
    k_factor,
    needed_repeats_t,
    wilson_interval,
)


def _claim(kind, threshold, metric, **kw):
    return Claim(id="p/t/c", kind=kind, text="theta {threshold}", threshold=threshold, metric=metric, **kw)


def _verdict(kind, threshold, est, profile="default"):
    r = decide(_claim(kind, threshold, lambda _: est), Results({}, profile=profile))
    return r.verdict, r.needed_repeats


def test_k_factor_matches_student_t():
    assert k_factor(2) == pytest.approx(12.706, abs=1e-3)
    assert k_factor(20) == pytest.approx(2.093, abs=1e-3)
    with pytest.raises(ValueError):
        k_factor(1)


def test_one_sided_boundary_d_equals_ks_is_reproduced():
    n, s = 10, 0.5
    d = k_factor(n) * s  # exactly on the boundary: inclusive, so decided
    assert _verdict("one-sided", Above(0.0), Estimate(d, s, n)) == (REPRODUCED, None)
    assert _verdict("one-sided", Above(0.0), Estimate(-d, s, n)) == (NOT_REPRODUCED, None)
    assert _verdict("one-sided", Below(0.0), Estimate(-d, s, n)) == (REPRODUCED, None)


def test_one_sided_inconclusive_gives_needed_repeats():
    n, s, d = 5, 1.0, 1.0
    v, need = _verdict("one-sided", Above(0.0), Estimate(d, s, n))
    assert v == INCONCLUSIVE
    sd = s * math.sqrt(n)
    assert k_factor(need) * sd / math.sqrt(need) <= d < k_factor(need - 1) * sd / math.sqrt(need - 1)


def test_single_run_is_inconclusive_unless_exact():
    assert _verdict("one-sided", Above(0.0), Estimate(5.0)) == (INCONCLUSIVE, 3)
    assert _verdict("exact", Above(0.0), Estimate(5.0)) == (REPRODUCED, None)
    assert _verdict("exact", Digits(0.806, 3), Estimate(0.8064)) == (REPRODUCED, None)
    assert _verdict("exact", Digits(0.806, 3), Estimate(0.8066)) == (NOT_REPRODUCED, None)


def test_zero_spread_tie_does_not_reproduce_a_strict_statement():
    assert _verdict("ordering", Above(0.0), Estimate(0.0, 0.0, 4)) == (NOT_REPRODUCED, None)
    assert _verdict("ordering", Above(0.0), Estimate(1.0, 0.0, 4)) == (REPRODUCED, None)


def test_zero_spread_decided_by_d_alone():
    assert _verdict("interval", Between(1, 2), Estimate(1.5, 0.0, 4)) == (REPRODUCED, None)
    assert _verdict("interval", Between(1, 2), Estimate(2.5, 0.0, 4)) == (NOT_REPRODUCED, None)


def test_interval_cases():
    assert _verdict("interval", Between(1.2, 2.0), Estimate(1.6, 0.01, 100))[0] == REPRODUCED
    assert _verdict("interval", Between(1.2, 2.0), Estimate(3.0, 0.01, 100))[0] == NOT_REPRODUCED
    # An interval narrower than the run can resolve: inconclusive, with a count.
    v, need = _verdict("interval", Close(1.6, 0.4), Estimate(1.6, 1.0, 10))
    assert v == INCONCLUSIVE and need > 10
    sd = 1.0 * math.sqrt(10)
    assert k_factor(need) * sd / math.sqrt(need) <= 0.4 + 1e-12


def test_needed_repeats_too_small_effect():
    assert needed_repeats_t(1.0, 0.0) is None
    assert needed_repeats_t(1.0, 1e-6) is None
    assert _verdict("one-sided", Above(1.0), Estimate(1.0, 0.5, 10)) == (INCONCLUSIVE, None)


def test_proportions_use_wilson():
    lo, hi = wilson_interval(0, 20)
    assert lo == 0.0 and 0.1 < hi < 0.2
    assert _verdict("one-sided", Above(0.5), proportion_estimate(20, 20))[0] == REPRODUCED
    assert _verdict("one-sided", Above(0.5), proportion_estimate(0, 20))[0] == NOT_REPRODUCED
    v, need = _verdict("one-sided", Above(0.5), proportion_estimate(3, 4))
    assert v == INCONCLUSIVE and need > 4
    a, b = wilson_interval(0.75 * need, need)
    assert a >= 0.5


def test_all_of_combines_parts():
    parts = [("a", Estimate(1.0, 0.0, 5)), ("b", Estimate(1.0, 0.1, 5))]
    c = _claim("all-of", Above(0.0), lambda _: parts)
    assert decide(c, Results({}, profile="default")).verdict == REPRODUCED
    parts.append(("c", Estimate(-1.0, 0.0, 5)))
    assert decide(c, Results({}, profile="default")).verdict == NOT_REPRODUCED
    c2 = _claim("all-of", Above(0.0), lambda _: [("a", Estimate(1.0, 0.0, 5)), ("b", Estimate(0.1, 1.0, 5))])
    r = decide(c2, Results({}, profile="default"))
    assert r.verdict == INCONCLUSIVE and r.needed_repeats is not None


def test_not_run_by_profile_and_by_metric():
    c = _claim("one-sided", Above(0.0), lambda _: Estimate(1.0, 0.1, 10), decided_in="paper")
    assert decide(c, Results({}, profile="default")).verdict == NOT_RUN
    assert decide(c, Results({}, profile="paper")).verdict == REPRODUCED

    def metric(_):
        raise NotRun("config differs from the paper")

    r = decide(_claim("exact", Above(0.0), metric), Results({}, profile="default"))
    assert r.verdict == NOT_RUN and "differs" in r.details


def test_text_is_generated_from_threshold():
    c = _claim("interval", Between(1.2, 2.0), lambda _: Estimate(1.0), unit="%")
    assert c.statement == "theta [1.2, 2]"
    row = decide(c, Results({}, profile="default")).row()
    assert row["threshold"] == "[1.2, 2]" and row["claim_id"] == "p/t/c" and row["paper"] == "p"


def test_declaration_errors():
    with pytest.raises(ValueError, match="kind"):
        _claim("sometimes", Above(0), lambda _: None)
    with pytest.raises(ValueError, match="<paper>/<target>/<name>"):
        Claim(id="p/c", kind="exact", text="x", threshold=Above(0), metric=lambda _: None)
    with pytest.raises(ValueError, match="duplicate"):
        c = _claim("exact", Above(0), lambda _: Estimate(1.0))
        evaluate([c, c], Results({}, profile="default"))


def test_estimates_from_repeats():
    e = mean_estimate([1.0, 2.0, 3.0])
    assert e.value == 2.0 and e.std_error == pytest.approx(1 / math.sqrt(3)) and e.n == 3
    d = paired_difference([2.0, 3.0, 5.0], [1.0, 1.0, 1.0])
    assert d.value == pytest.approx(7 / 3) and d.n == 3
    b1 = bootstrap_estimate([1.0, 2.0, 3.0, 4.0], lambda x: float(x.mean()))
    b2 = bootstrap_estimate([1.0, 2.0, 3.0, 4.0], lambda x: float(x.mean()))
    assert b1 == b2  # seeded
    # The bootstrap s of a mean is close to sd/sqrt(n) * sqrt((n-1)/n).
    assert b1.std_error == pytest.approx(stats.sem([1, 2, 3, 4]) * math.sqrt(3 / 4), rel=0.1)


def test_proportion_difference_binomial_error():
    from bmrep.claims.stats import proportion_difference

    d = proportion_difference(0.9, 100, 0.2, 50)
    assert d.value == pytest.approx(0.7) and d.n == 50
    assert d.std_error == pytest.approx(math.sqrt(0.9 * 0.1 / 100 + 0.2 * 0.8 / 50))


def test_an_undecided_estimate_is_inconclusive_whatever_its_numbers():
    from bmrep.claims.core import NOT_APPLICABLE, Below, Claim, Estimate, Results, decide

    clear = Estimate(5.0, 0.1, 20)  # far above 0: not reproduced by its numbers
    claim = Claim(id="p/t/x", kind="one-sided", text="x is {threshold}", threshold=Below(0.0), metric=lambda r: clear)
    assert decide(claim, Results({}, settings={}, profile="default")).verdict == "not reproduced"
    held = Estimate(5.0, 0.1, 20, "numbers", undecided="the reference is too coarse")
    claim = Claim(id="p/t/x", kind="one-sided", text="x is {threshold}", threshold=Below(0.0), metric=lambda r: held)
    row = decide(claim, Results({}, settings={}, profile="default"))
    assert row.verdict == "inconclusive" and row.needed_repeats == NOT_APPLICABLE
    assert row.details == "numbers; undecided: the reference is too coarse"
    parts = Claim(id="p/t/y", kind="all-of", text="each part is {threshold}", threshold=Below(0.0),
                  metric=lambda r: [("a", Estimate(-5.0, 0.1, 20)), ("b", held)])  # fmt: skip
    row = decide(parts, Results({}, settings={}, profile="default"))
    assert row.verdict == "inconclusive" and row.needed_repeats == NOT_APPLICABLE
