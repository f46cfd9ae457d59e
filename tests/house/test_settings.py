"""Each setting is declared once (architecture, principle 9; issue 66, item 2): the schemas' defaults are the only ones.

A validated config holds every key that its schema gives a ``default`` (the validation fills it in), so code that
reads such a key with ``.get`` or ``.setdefault`` states a second default beside the schema's, one that can drift
from it (salakhutdinov2010's ``cast_noswap_seeds`` fell back to 0 where the schema says 1). This test collects every
property with a ``default`` in ``workflow/schemas/*.yaml`` and fails on such a call with that key as a literal
string anywhere in ``src/``, ``workflow/`` and the Snakefile (``ast`` for Python, a regular expression for the
Snakefile and the rules), whatever its fallback: a literal, another expression or none (None).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = sorted((ROOT / "workflow" / "schemas").glob("*.schema.yaml"))
# A dict that is not a validated config may lack a defaulted key: (file, key) -> why it is read with .get there.
NOT_VALIDATED = {
    ("src/bmrep/ops/evidence.py", "adopt_dir"): "make publish reads the profile's YAML files as they are "
    "(publish.load_config, whose digest RUN.md records), not the validated config: adopt_dir is absent there "
    "unless the profile sets it",
}
METHODS = ("get", "setdefault")
RULES_CALL = re.compile(r"""\.(?:get|setdefault)\(\s*(["'])(\w+)\1\s*[,)]""")


def schema_defaults(schema) -> set[str]:
    """Every property name that has a ``default`` anywhere in ``schema`` (``$defs`` and nested objects too)."""
    found = set()
    if isinstance(schema, dict):
        for name, sub in (schema.get("properties") or {}).items():
            if isinstance(sub, dict) and "default" in sub:
                found.add(name)
        for value in schema.values():
            found |= schema_defaults(value)
    elif isinstance(schema, list):
        for value in schema:
            found |= schema_defaults(value)
    return found


def python_calls(source: str) -> list[tuple[int, str]]:
    """``(line, key)`` of every ``x.get("key", ...)`` / ``x.setdefault("key", ...)`` with a literal key."""
    return [
        (node.lineno, node.args[0].value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in METHODS
        and 1 <= len(node.args) <= 2
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ]


def rules_calls(source: str) -> list[tuple[int, str]]:
    """The same for a Snakefile or a rules file (not Python: a regular expression, line by line)."""
    return [(i, m.group(2)) for i, line in enumerate(source.splitlines(), 1) for m in RULES_CALL.finditer(line)]


def fallbacks(path: str, source: str, defaulted: set[str]) -> list[str]:
    """``path:line: .get("key")`` for every call of :data:`METHODS` on a key in ``defaulted`` (the allowed aside)."""
    calls = python_calls(source) if path.endswith(".py") else rules_calls(source)
    return [
        f"{path}:{line}: .get/.setdefault of {key!r}, which the schema defaults"
        for line, key in calls
        if key in defaulted and (path, key) not in NOT_VALIDATED
    ]


def sources():
    """(path relative to the checkout, text) of every Python file of src/ and workflow/, the rules and the Snakefile."""
    files = [*ROOT.glob("src/**/*.py"), *ROOT.glob("workflow/**/*.py"), *ROOT.glob("workflow/**/*.smk")]
    for path in sorted([*files, ROOT / "Snakefile"]):
        yield str(path.relative_to(ROOT)), path.read_text(encoding="utf-8")


def test_no_code_restates_a_schema_default():
    defaulted = set().union(*(schema_defaults(yaml.safe_load(p.read_text())) for p in SCHEMAS))
    # the keys issue 66 found with fallbacks in rules, stages and claims are among those guarded
    assert {"schedule", "pilot", "pilot_fraction", "uniform_mix", "dtype", "ais_state", "init"} <= defaulted
    bad = [line for path, text in sources() for line in fallbacks(path, text, defaulted)]
    assert not bad, "read the key directly (the validated config has it):\n" + "\n".join(bad)


def test_every_allowed_exception_is_still_there():
    """An entry of NOT_VALIDATED whose call has gone is removed, so the list says only what is true."""
    calls = {path: set(k for _, k in python_calls(text)) for path, text in sources() if path.endswith(".py")}
    stale = [f"{p}: {k}" for p, k in NOT_VALIDATED if k not in calls.get(p, set())]
    assert not stale, stale


def test_the_check_finds_a_fallback():
    """It can fail: every form of a fallback in Python and in a rules file is found, a direct read is not."""
    schema = {
        "properties": {"schedule": {"enum": ["a", "b"], "default": "a"}, "n_betas": {"type": "integer"}},
        "$defs": {"ais": {"properties": {"state": {"default": "v_h2"}, "runs": {"type": "object"}}}},
    }
    defaulted = schema_defaults(schema)
    assert defaulted == {"schedule", "state"}
    python = (
        'a = cfg.get("schedule", "piecewise")\n'  # a literal fallback
        'b = cfg.get("state")\n'  # None
        'c = cfg["ev"].get("schedule", other["schedule"])\n'  # another expression
        'cfg.setdefault("state", "h1")\n'
        'd = cfg["schedule"]\n'  # direct reads and keys without a default pass
        'e = cfg.get("n_betas", 3)\n'
        'f = cfg.get(name, "piecewise")\n'
    )
    assert [x.split(":")[1] for x in fallbacks("x.py", python, defaulted)] == ["1", "2", "3", "4"]
    rules = 'A = S.get("schedule", "a") if S.get( "state" ) else []\nB = S["schedule"]\nC = S.get("runs", {})\n'
    assert [x.split(":")[1] for x in fallbacks("x.smk", rules, defaulted)] == ["1", "1"]
    assert fallbacks("src/bmrep/ops/evidence.py", 'cfg.get("adopt_dir")', {"adopt_dir"}) == []
