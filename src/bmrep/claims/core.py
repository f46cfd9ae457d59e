"""Claims as data: one declaration per claim, decided by the spec's verdict rule.

A claim (``shared/spec/replication-targets.md``, "Claims, verdicts and the
replication summary") is declared once, in ``bmrep.claims.<paper>``::

    Claim(
        id="saul1996/fig5/mf_mean_error",
        kind="interval",
        text="mean MF relative error in {threshold}",
        threshold=Between(1.2, 2.0),
        unit="%",
        paper_value=1.6,
        metric=lambda r: mean_estimate(r["fig5_errors"]["mf"] * 100),
    )

The threshold is written once; the claim's text is generated from it
(``{threshold}`` renders the threshold, ``{lo}``, ``{hi}``, ``{t}`` its
numbers). A metric reads the run's result tables (a :class:`Results`) and
returns an :class:`Estimate` (value ``d``, standard error ``s`` over ``n``
independent repeats), a list of ``(label, Estimate)`` parts for an all-of
claim, or raises :class:`NotRun` when the run lacks what the claim needs.
:func:`evaluate` turns declarations into summary rows (``ClaimResult``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from . import verdict as V

KINDS = ("exact", "interval", "one-sided", "ordering", "trend", "all-of")
COLUMNS = [
    "claim_id", "paper", "target", "kind", "claim", "unit", "paper_value", "estimate",
    "std_error", "n", "threshold", "verdict", "needed_repeats", "profile", "details",
]  # fmt: skip
# The smoke profile decides what the default does (its verdicts carry no weight). "schedule", an evidence
# run at a paper's own schedule (config/evidence/sala_schedule.yaml), decides the paper profile's claims too.
DECIDED_IN = {"default": ("smoke", "default", "paper", "schedule"), "paper": ("paper", "schedule")}


class NotRun(Exception):
    """Raised by a metric when the run does not produce what the claim needs."""


@dataclass(frozen=True)
class Estimate:
    """``d`` with its standard error ``s`` from ``n`` independent repeats.

    ``successes`` marks a proportion (``value = successes / n``), decided by
    the Wilson interval. ``details`` is free text shown in the summary.
    ``undecided`` (a reason) makes the verdict inconclusive whatever the
    numbers, for a cause more repeats would not remove (a truth bracket too
    wide, a tracker that had nothing to track): its needed_repeats is "n/a".
    """

    value: float
    std_error: float = math.nan
    n: int = 1
    details: str = ""
    successes: float | None = None
    undecided: str | None = None


def _num(x: float) -> str:
    return f"{x:g}"


@dataclass(frozen=True)
class Between:
    """``theta in [lo, hi]`` (inclusive)."""

    lo: float
    hi: float

    def fields(self) -> dict:
        return {"lo": _num(self.lo), "hi": _num(self.hi), "threshold": f"[{_num(self.lo)}, {_num(self.hi)}]"}

    def decide(self, est: Estimate, exact: bool):
        if est.successes is not None and not exact:
            return V.decide_proportion(est.successes, est.n, self.lo, self.hi)
        return V.decide_interval(est.value, est.std_error, est.n, self.lo, self.hi, exact=exact)


@dataclass(frozen=True)
class Close(Between):
    """``|theta - target| <= tol``: an interval written around the paper's value."""

    def __init__(self, target: float, tol: float):
        object.__setattr__(self, "lo", target - tol)
        object.__setattr__(self, "hi", target + tol)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "tol", tol)

    def fields(self) -> dict:
        return {**super().fields(), "target": _num(self.target), "tol": _num(self.tol),
                "threshold": f"{_num(self.target)} +- {_num(self.tol)}"}  # fmt: skip


@dataclass(frozen=True)
class Digits(Between):
    """Equal to ``target`` to ``digits`` decimals (``round(d, digits) == target``)."""

    def __init__(self, target: float, digits: int):
        half = 0.5 * 10.0**-digits
        object.__setattr__(self, "lo", target - half)
        object.__setattr__(self, "hi", target + half)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "digits", digits)

    def fields(self) -> dict:
        t = f"{self.target:.{self.digits}f}"
        return {
            **super().fields(),
            "target": t,
            "digits": str(self.digits),
            "threshold": f"{t} to {self.digits} decimals",
        }


@dataclass(frozen=True)
class _OneSided:
    """``theta > t`` (``above``) or ``theta < t``: decided as ``d - t >= k s`` or its mirror, inclusive at the boundary.

    A proportion is decided by its Wilson interval against ``[t, 1]`` or ``[0, t]``.
    """

    t: float
    above: ClassVar[bool]

    def fields(self) -> dict:
        return {"t": _num(self.t), "threshold": f"{'>' if self.above else '<'} {_num(self.t)}"}

    def decide(self, est: Estimate, exact: bool):
        if est.successes is not None and not exact:
            lo, hi = (self.t, 1.0) if self.above else (0.0, self.t)
            return V.decide_proportion(est.successes, est.n, lo, hi)
        return V.decide_one_sided(est.value, est.std_error, est.n, self.t, above=self.above, exact=exact)


@dataclass(frozen=True)
class Above(_OneSided):
    """``theta > t``."""

    above: ClassVar[bool] = True


@dataclass(frozen=True)
class Below(_OneSided):
    """``theta < t`` (mirror of :class:`Above`)."""

    above: ClassVar[bool] = False


class Results(Mapping):
    """A claim's view of the run: result tables by name, the settings, the profile."""

    def __init__(self, tables: Mapping[str, Any], settings: Mapping | None = None, profile: str = ""):
        self._tables = dict(tables)
        self.settings = dict(settings or {})
        self.profile = profile

    def __getitem__(self, key):
        try:
            return self._tables[key]
        except KeyError:
            raise KeyError(f"no result table {key!r}; the claims rule has {sorted(self._tables)}") from None

    def __iter__(self):
        return iter(self._tables)

    def __len__(self):
        return len(self._tables)


@dataclass(frozen=True)
class Claim:
    """One claim of the spec: id ``<paper>/<target>/<name>``, kind, text, threshold, metric.

    ``decided_in`` is "default" (decided in the default and paper profiles) or
    "paper" (``not run`` outside the paper profile and the "schedule" evidence run). ``paper_value`` is the
    paper's number (or text) shown beside ours.
    """

    id: str
    kind: str
    text: str
    threshold: Between | Above | Below
    metric: Callable[[Results], Any]
    paper_value: Any = ""
    unit: str = ""
    decided_in: str = "default"

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind {self.kind!r} is not one of {KINDS}")
        if self.id.count("/") < 2:
            raise ValueError(f"{self.id}: a claim id is <paper>/<target>/<name>")
        if self.decided_in not in DECIDED_IN:
            raise ValueError(f"{self.id}: decided_in must be one of {sorted(DECIDED_IN)}")
        # Rendered for its check: a template naming a field the threshold lacks raises here, at declaration.
        self.statement  # noqa: B018 - a property read that may raise, not a useless expression

    @property
    def paper(self) -> str:
        return self.id.split("/")[0]

    @property
    def target(self) -> str:
        return self.id.split("/")[1]

    @property
    def statement(self) -> str:
        return self.text.format(**self.threshold.fields(), unit=self.unit)


@dataclass(frozen=True)
class ClaimResult:
    """A decided claim: one row of the replication summary."""

    claim: Claim
    verdict: str
    estimate: Estimate | None
    needed_repeats: int | str | None  # NOT_APPLICABLE for an undecided estimate
    profile: str
    details: str = ""
    parts: tuple = field(default=())

    def row(self) -> dict:
        c, e = self.claim, self.estimate
        return {
            "claim_id": c.id,
            "paper": c.paper,
            "target": c.target,
            "kind": c.kind,
            "claim": c.statement,
            "unit": c.unit,
            "paper_value": "" if c.paper_value is None else str(c.paper_value),
            "estimate": "" if e is None else repr(float(e.value)),
            "std_error": "" if e is None or not math.isfinite(e.std_error) else repr(float(e.std_error)),
            "n": "" if e is None else str(int(e.n)),
            "threshold": c.threshold.fields()["threshold"],
            "verdict": self.verdict,
            "needed_repeats": "" if self.needed_repeats is None else str(self.needed_repeats),
            "profile": self.profile,
            "details": self.details,
        }


def _decide_one(claim: Claim, est: Estimate):
    if est.undecided:
        return V.INCONCLUSIVE, NOT_APPLICABLE
    return claim.threshold.decide(est, exact=claim.kind == "exact")


# needed_repeats of an inconclusive row that more repeats would not decide (Estimate.undecided).
NOT_APPLICABLE = "n/a"


def decide(claim: Claim, results: Results) -> ClaimResult:
    """Compute the claim's metric on ``results`` and decide it by the spec's rule."""
    profile = results.profile
    if profile not in DECIDED_IN[claim.decided_in]:
        return ClaimResult(claim, V.NOT_RUN, None, None, profile, f"decided in the {claim.decided_in} profile")
    try:
        out = claim.metric(results)
    except NotRun as why:
        return ClaimResult(claim, V.NOT_RUN, None, None, profile, str(why))
    if claim.kind == "all-of":
        parts = tuple((label, est, *_decide_one(claim, est)) for label, est in out)
        if not parts:
            raise ValueError(f"{claim.id}: an all-of claim needs at least one part")
        verdict, needed = V.combine_all_of([(v, n) for _, _, v, n in parts])
        worst = min(parts, key=lambda p: (p[2] == V.REPRODUCED, p[3] or 0))
        details = "; ".join(
            f"{label}: {_short(est)} {v}" + (f" (undecided: {est.undecided})" if est.undecided else "")
            for label, est, v, _ in parts
        )
        return ClaimResult(claim, verdict, worst[1], needed, profile, details, parts)
    if not isinstance(out, Estimate):
        raise TypeError(f"{claim.id}: metric returned {type(out).__name__}, expected an Estimate")
    verdict, needed = _decide_one(claim, out)
    details = f"{out.details}; undecided: {out.undecided}" if out.undecided else out.details
    return ClaimResult(claim, verdict, out, needed, profile, details)


def _short(est: Estimate) -> str:
    s = "" if not math.isfinite(est.std_error) else f" +- {est.std_error:.3g}"
    return f"{est.value:.4g}{s} (n = {est.n})"


def evaluate(claims: list[Claim], results: Results) -> list[ClaimResult]:
    """Decide every claim; ids must be unique."""
    ids = [c.id for c in claims]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ValueError(f"duplicate claim ids: {dup}")
    return [decide(c, results) for c in claims]


__all__ = [
    "NotRun",
    "Estimate",
    "Between",
    "Close",
    "Digits",
    "Above",
    "Below",
    "Results",
    "Claim",
    "ClaimResult",
    "decide",
    "evaluate",
]
