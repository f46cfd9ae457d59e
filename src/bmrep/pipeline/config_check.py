"""Configuration validation with one-line, key-naming error messages.

The workflow validates the top level of the config and each paper's section
against JSON schemas (``workflow/schemas/``). Snakemake's own ``validate``
prints the whole schema on an error; here the first (most relevant) error is
turned into a single line such as::

    invalid config: saul1996.n_networks: -5 is less than the minimum of 1

Defaults given in the schema (``default:``) are filled in, as Snakemake does.
"""

from __future__ import annotations

import copy
from pathlib import Path

import jsonschema
import yaml

from ..datasets.sources import RAW_FILES, resolve_mirror, unreachable


class ConfigError(ValueError):
    """The configuration violates its schema."""


def _with_defaults(validator_class):
    validate_properties = validator_class.VALIDATORS["properties"]

    def set_defaults(validator, properties, instance, schema):
        if isinstance(instance, dict):
            for name, sub in properties.items():
                if isinstance(sub, dict) and "default" in sub:
                    instance.setdefault(name, sub["default"])
        yield from validate_properties(validator, properties, instance, schema)

    return jsonschema.validators.extend(validator_class, {"properties": set_defaults})


def _describe(err: jsonschema.ValidationError, prefix: str) -> str:
    path = ".".join([prefix] * bool(prefix) + [str(p) for p in err.absolute_path]) or "<top level>"
    msg = err.message
    if err.validator == "additionalProperties":
        return f"invalid config: {path}: {msg} (allowed keys: {', '.join(sorted(err.schema.get('properties', {})))})"
    if err.validator == "minItems" and err.validator_value == 1:
        msg = "must not be an empty list"
    return f"invalid config: {path}: {msg}"


def _load_schema(schema_path: str | Path) -> dict:
    # libyaml's loader where PyYAML has it: every Snakemake process (a SLURM job runs two) validates seven
    # schemas, about 0.9 s with the pure-Python one; the safe constructors are the same
    return yaml.load(Path(schema_path).read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _check(data: dict, schema: dict, prefix: str) -> None:
    cls = _with_defaults(jsonschema.validators.validator_for(schema))
    errors = sorted(cls(schema).iter_errors(data), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    if errors:
        err = jsonschema.exceptions.best_match(errors) or errors[0]
        raise ConfigError(_describe(err, prefix))


def validate_config(data: dict, schema_path: str | Path, prefix: str = "") -> None:
    """Validate ``data`` against the YAML JSON-schema at ``schema_path``; raise ConfigError (one line)."""
    _check(data, _load_schema(schema_path), prefix)


def validated_part(data: dict, schema_path: str | Path, where: str) -> dict:
    """A copy of ``data`` validated against the part ``where`` of a schema, its defaults filled in; or ConfigError.

    ``where`` is ``$defs.<name>`` or a dotted path of properties (``evaluation``, ``exact_check.selection``): what a
    stage receives of a validated config, for a caller outside the workflow (a test, a benchmark) that gives only
    the keys it sets.
    """
    schema = node = _load_schema(schema_path)
    if where.startswith("$defs."):
        node = schema["$defs"][where.removeprefix("$defs.")]
    else:
        for part in where.split("."):
            node = node["properties"][part]
    out = copy.deepcopy(data)
    _check(out, {**node, "$schema": schema["$schema"], "$defs": schema.get("$defs", {})}, where)
    return out


def deep_merge(into: dict, new: dict) -> dict:
    """Merge ``new`` into ``into`` key by key, recursing into mappings (as Snakemake merges config files)."""
    for k, v in (new or {}).items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            deep_merge(into[k], v)
        else:
            into[k] = v
    return into


def unreachable_data(raw_names, config_mirror: str | None, allow_download: bool) -> list[str]:
    """One line per raw data file of ``raw_names`` that no source can provide (the mirror lacks it, no URL may).

    The workflow calls it when it starts (``onstart`` in ``workflow/rules/data.smk``) with the raw files its
    jobs will fetch, and stops before any job runs: a user without USPS in the mirror learns where to get it
    from this line, not from a failed job hours into a run.
    """
    mirror = resolve_mirror(config_mirror)
    reasons = (unreachable(RAW_FILES[name], mirror, allow_download) for name in sorted(set(raw_names)))
    return [f"ERROR {reason}" for reason in reasons if reason]
