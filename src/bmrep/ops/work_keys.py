"""Config keys as work: how much more a job does in one profile than in another.

``records/cost_scaling.yaml`` names, per rule, the dotted config keys whose
ratio (target profile over measured) multiplies a job's CPU time; this module
reads that notation (a number, a list's sum, a per-entry mapping, a dtype's
item size, ``1/key`` for a period, ``{one_plus: w, times: [...]}`` for work
with a fixed part, ``{min: [...]}`` for a count capped by another, per-output-name key lists). Used by
:mod:`bmrep.ops.costs` (the default's jobs scaled to the paper profile)
and :mod:`bmrep.ops.rehearsal` (a cut's work as a fraction of the
paper's).
"""

from __future__ import annotations

import fnmatch
import math
from pathlib import Path


def _lookup(config: dict, dotted: str):
    """``config``'s value at ``dotted``.

    A number segment indexes a list (``carlson2016.fig3.models.0.sweeps``);
    ``a|b`` is the value at ``a`` where there is one, else at ``b`` (a
    per-model setting over the section's).
    """
    for key in dotted.split("|"):
        node = config
        for part in key.split("."):
            if isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            elif isinstance(node, dict) and part in node:
                node = node[part]
            else:
                break
        else:
            return node
    raise KeyError(f"config key {dotted!r} not found (records/cost_scaling.yaml)")


# A dtype as work: its item size (a float64 product takes about twice a float32 one's time: benchmarks/README.md)
ITEM_SIZE = {"float32": 4.0, "float64": 8.0}


def work_size(value) -> float:
    """A config value as an amount of work.

    A number itself, a list its sum (or length), a mapping its largest entry, a dtype its item size.
    """
    if isinstance(value, bool) or value is None:
        return 1.0
    if isinstance(value, str):
        return ITEM_SIZE.get(value, 1.0)
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, dict):
        return max((work_size(v) for v in value.values()), default=1.0)
    if isinstance(value, list):
        if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return float(sum(value)) or 1.0
        return float(sum(work_size(v) for v in value)) if all(isinstance(v, dict) for v in value) else float(len(value))
    return 1.0


def _ratio(target, measured, entry: str | None = None) -> float:
    # Per-wildcard settings (a mapping per benchmark) scale each job differently: a job's own entry
    # when it is known, else the largest ratio, so that estimates are upper ones, never short.
    if isinstance(target, dict) and isinstance(measured, dict) and set(target) & set(measured):
        if entry in target and entry in measured:
            return _ratio(target[entry], measured[entry])
        return max(_ratio(target[k], measured[k]) for k in set(target) & set(measured))
    return work_size(target) / work_size(measured)


def entries(keys: list[str], measured: dict, target: dict) -> set[str]:
    """The entries (e.g. benchmarks) of the per-entry settings among ``keys``: mapping keys both configs have."""
    found: set[str] = set()
    for k in keys:
        if isinstance(k, dict):  # a one_plus or sum term: plain keys only
            continue
        k = k.removeprefix("1/")
        prefix = k.split(".*", 1)[0]
        a, b = _lookup(measured, prefix), _lookup(target, prefix)
        if isinstance(a, dict) and isinstance(b, dict):
            found |= set(a) & set(b)
    return found


def job_entry(outputs, candidates: set[str]) -> str | None:
    """The one entry that a job's output paths name as a directory or file (``.../learning/bas/...``), else None."""
    parts = {part for path in outputs for part in Path(path).parts}
    named = candidates & parts
    return named.pop() if len(named) == 1 else None


def _key_power(key: str) -> tuple[str, int]:
    """A work key and the power its value enters the work with: ``1/key`` -1 (a period such as ``tt_every``), else 1."""
    return (key[2:], -1) if key.startswith("1/") else (key, 1)


def _factor(key: str, config: dict) -> float:
    """One key's work size; ``key>=N`` is 1 where the key's value is at least N, else 0 (a part that runs only there).

    carlson2016 Fig. 4 runs MBAR only for ``K <= mbar_max_K``: its K = 1000 jobs' MBAR part is
    ``carlson2016.fig4.mbar_max_K>=1000`` (0 in the default, which runs none there; 1 in the paper profile).
    """
    name, _, at_least = key.partition(">=")
    value = work_size(_lookup(config, name))
    return float(value >= float(at_least)) if at_least else value


def _product(keys: list[str], config: dict) -> float:
    """The product of ``keys``' work sizes in ``config`` (``1/key`` divides; ``key>=N``: :func:`_factor`)."""
    return math.prod(_factor(k, config) ** power for k, power in map(_key_power, keys))


def _term_ratio(term: dict, measured: dict, target: dict) -> float:
    """A term's work, target over measured: ``{one_plus: w, times: [keys]}``, ``{sum: ..., weights}``, ``{min: keys}``.

    ``one_plus``: work per unit ``1 + w x product(keys)``, for work made of a
    fixed part and a part that grows with settings: a Trans-SAP update is a
    SAP update (1) plus a tempered transition's 2 sweeps per level every
    ``tt_every`` updates (``w`` = one level's two sweeps over a SAP update,
    from ``benchmarks/bench_dbm_update.py``). ``sum``: work ``sum_i weights_i
    x product(keys_i)``, for a job of several parts that grow with different
    settings (the DBM evaluation: a final AIS, and an AIS and a bound per
    snapshot). ``min``: the smallest of the keys' work sizes, for a count
    capped by another (a shard holds ``shard_size`` models, or all
    ``n_rbms`` where there are fewer: the default's 3 mnist500 RBMs in
    shards of 5).
    """
    if set(term) == {"min"}:
        return min(_factor(k, target) for k in term["min"]) / min(_factor(k, measured) for k in term["min"])
    if set(term) == {"one_plus", "times"}:
        w = float(term["one_plus"])
        return (1 + w * _product(term["times"], target)) / (1 + w * _product(term["times"], measured))
    if set(term) == {"sum", "weights"} and len(term["sum"]) == len(term["weights"]):

        def total(config: dict) -> float:
            return sum(float(w) * _product(keys, config) for keys, w in zip(term["sum"], term["weights"], strict=True))

        return total(target) / total(measured)
    raise KeyError(
        f"a term is {{one_plus, times}}, {{sum, weights}} of one length or {{min}}, not {term} (cost_scaling.yaml)"
    )


def scale_factor(keys: list, measured: dict, target: dict, entry: str | None = None) -> float:
    """Product over ``keys`` of the target config's work over the measured config's.

    A key written ``1/key`` divides instead (a period such as ``tt_every``).
    A mapping ``{one_plus: w, times: [keys]}`` multiplies by
    ``(1 + w x target's product) / (1 + w x measured's product)``, one
    ``{sum: [[keys], ...], weights: [...]}`` by its weighted sums' ratio
    (:func:`_term_ratio`), one ``{min: [keys]}`` by its smallest key's.
    A mapping per entry (``{bas: 6000, mnist: 200}``) gives ``entry``'s ratio,
    or without an entry the largest. Keys with a ``*`` segment
    (``bruegge2013.autocorr.models.*.n_steps``) are taken per entry of the
    mapping at the star: their ratios multiply within an entry (a key an entry
    lacks counts 1), and ``entry``'s product is used, or the largest.
    """
    terms = [k for k in keys if isinstance(k, dict)]
    powers = [_key_power(k) for k in keys if not isinstance(k, dict)]  # -1: work falls as the value rises
    plain = [(k, p) for k, p in powers if p == -1 or "*" not in k]

    factor = math.prod(_ratio(_lookup(target, k), _lookup(measured, k), entry) ** p for k, p in plain)
    factor *= math.prod(_term_ratio(t, measured, target) for t in terms)
    starred = [k for k, p in powers if p == 1 and "*" in k]
    if starred:
        prefix = starred[0].split(".*", 1)[0]
        common = set(_lookup(target, prefix)) & set(_lookup(measured, prefix))

        def entry_ratio(key: str, entry: str) -> float:
            concrete = key.replace("*", entry, 1)
            try:
                return _ratio(_lookup(target, concrete), _lookup(measured, concrete))
            except KeyError:
                return 1.0

        if entry in common:
            return factor * math.prod(entry_ratio(k, entry) for k in starred)
        factor *= max(math.prod(entry_ratio(k, e) for k in starred) for e in common)
    return factor


def rule_keys(spec, outputs=()) -> list[str]:
    """A rule's scaling keys for one job: ``spec`` itself, or per output name the keys of the job's.

    ``spec`` is a list of keys, or a mapping from an output's file stem or
    directory (``Trans-SAP`` for ``models/.../seed0/Trans-SAP.npz``; a glob
    such as ``784x100_*`` matches stems) to its keys, with ``"*"`` for every
    other job: jobs of one rule whose work grows
    differently (a tempered transition at every update for Trans-SAP, one
    Gibbs sweep for SAP) scale each by their own keys.
    """
    if not isinstance(spec, dict):
        return list(spec or [])
    names = {Path(p).stem for p in outputs} | {part for p in outputs for part in Path(p).parts}
    for name, keys in spec.items():
        if name != "*" and any(fnmatch.fnmatchcase(n, name) for n in names):
            return list(keys)
    return list(spec.get("*", []))


def _described(spec) -> str:
    def term(k) -> str:
        if isinstance(k, dict) and "sum" in k:
            parts = (f"{w} x {' x '.join(keys)}" for keys, w in zip(k["sum"], k["weights"], strict=True))
            return f"({' + '.join(parts)})"
        if isinstance(k, dict) and "min" in k:
            return f"min({', '.join(k['min'])})"
        return f"(1 + {k['one_plus']} x {' x '.join(k['times'])})" if isinstance(k, dict) else k

    if not isinstance(spec, dict):
        return " x ".join(map(term, spec or [])) or "(same work)"
    return "; ".join(f"{name}: {' x '.join(map(term, keys)) or '(same work)'}" for name, keys in spec.items())
