"""Target index: how the workflow makes one file, down to the library functions.

Usage (from the repository root; any profile, any target path)::

    python -m bmrep.ops.trace figures/carlson2016/fig3.png
    python -m bmrep.ops.trace figures/smoke/carlson2016/fig3.png --configfile config/smoke.yaml

prints the rule that makes the target, its script, the ``bmrep`` functions
that script calls (with the module defining each), then the same for every rule
producing its inputs, recursively down to the data rules. A rule with several
jobs (wildcards) is shown once with the wildcard values it takes; a rule met a
second time is only named.

The job graph is Snakemake's own (built through its Python API exactly as
``snakemake -n`` builds it, so it follows the profile's config); no job is run
and no output is written. The called functions come from a static (``ast``)
walk of each script: the names it imports from ``bmrep`` (``from bmrep.x
import f``, ``import bmrep.x as m``) that it calls, including attribute calls
such as ``RBM.from_params``; re-exports are followed to the defining module.
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bmrep.pipeline.code_digest import PACKAGE, PACKAGE_ROOT, module_file


class TraceError(Exception):
    """A target the workflow cannot make, or a workflow that does not parse."""


# ---------------------------------------------------------------- library calls


def _module_of(dotted: str, root: Path) -> tuple[str, str]:
    """Split ``bmrep.a.b.f.g`` into the longest module prefix and the rest (``f.g``)."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        mod = ".".join(parts[:i])
        if module_file(mod, root) is not None:
            return mod, ".".join(parts[i:])
    return dotted, ""


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module name of a (possibly relative) ``from ... import`` inside ``module``."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def definition(module: str, name: str, root: Path = PACKAGE_ROOT) -> tuple[str, str]:
    """Where ``name``, as seen from ``module``, is defined: ``(module, name)`` after following re-exports.

    ``from .impl import g`` in a package and ``from ..a import f as g`` are
    followed (the second renames). Static: sources are parsed, not imported. A
    name that is not found (in a compiled ``.pyx`` module, or made at run
    time) stays where it is.
    """
    seen = set()
    while (module, name) not in seen:
        seen.add((module, name))
        path = module_file(module, root)
        if path is None or path.suffix != ".py":
            break
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        target = None
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
                return module, name
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        target = (_absolute(node, module, path.name == "__init__.py"), alias.name)
        if target is None or target[0].split(".")[0] != PACKAGE or module_file(".".join(target), root) is not None:
            break  # defined here by assignment, imported from elsewhere, or a submodule
        module, name = target
    return module, name


def _dotted(node: ast.expr) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]``; None for anything but a name with attributes."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


def library_calls(script: str | Path, root: str | Path = PACKAGE_ROOT) -> list[tuple[str, str]]:
    """The ``bmrep`` functions (and classes) ``script`` calls, as sorted ``(module, qualified name)`` pairs.

    Parameters
    ----------
    script : path
        A Python file (a workflow script).
    root : path
        The ``bmrep`` package directory whose modules the imports resolve to.

    Returns
    -------
    list of (str, str)
        ``module`` is the module defining the name (re-exports followed);
        ``qualified name`` is what the script calls, e.g. ``RBM.from_params``.
    """
    root = Path(root).resolve()
    tree = ast.parse(Path(script).read_text(encoding="utf-8"), filename=str(script))
    bound: dict[str, str] = {}  # local name -> the dotted bmrep path it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == PACKAGE:
            for alias in node.names:
                bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    # ``import bmrep.x as m`` binds m to bmrep.x; ``import bmrep.x`` binds bmrep
                    bound[alias.asname or PACKAGE] = alias.name if alias.asname else PACKAGE
    calls = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        parts = _dotted(node.func)
        if not parts or parts[0] not in bound:
            continue
        module, qualname = _module_of(".".join([bound[parts[0]], *parts[1:]]), root)
        if not qualname:  # calling a module object: not a library function
            continue
        head, _, rest = qualname.partition(".")
        module, head = definition(module, head, root)
        calls.add((module, f"{head}.{rest}" if rest else head))
    return sorted(calls)


# ---------------------------------------------------------------- the job graph


@dataclass
class RuleNode:
    """One rule of the target's job graph, with all its jobs merged."""

    name: str
    rule_file: str
    script: str | None
    wildcards: dict[str, list[str]] = field(default_factory=dict)
    n_jobs: int = 0
    producers: list[str] = field(default_factory=list)  # rules making its inputs, in input order
    sources: list[str] = field(default_factory=list)  # inputs no rule makes (files on disk)
    calls: list[tuple[str, str]] = field(default_factory=list)


def _rel(path: str | Path) -> str:
    p = os.path.normpath(os.path.abspath(path))
    try:
        return os.path.relpath(p) if Path(p).is_relative_to(Path.cwd()) else p
    except ValueError:
        return p


def job_graph(
    target: str, configfiles: Sequence[str] = (), config: Sequence[str] = (), snakefile: str = "Snakefile"
) -> tuple[str, dict[str, RuleNode]]:
    """The rules that make ``target``, keyed by rule name (the target's rule first).

    Builds the DAG as ``snakemake -n target --configfile ... --config ...``
    would (run in the workflow's directory), without running or scheduling any
    job. Uses ``Workflow._prepare_dag`` and ``DAG.init``: the public API only
    prints DAGs, and these are what its ``printdag`` calls (snakemake 9.27).

    Raises
    ------
    TraceError
        If no rule makes ``target`` or the workflow fails to parse.
    """
    from snakemake.api import SnakemakeApi
    from snakemake.cli import parse_config
    from snakemake.exceptions import MissingRuleException, RuleException, WorkflowError
    from snakemake.settings.types import (
        ConfigSettings,
        DAGSettings,
        OutputSettings,
        Quietness,
        ResourceSettings,
    )

    target = _rel(target)
    try:
        overrides = parse_config(list(config))
    except ValueError as err:
        raise TraceError(str(err)) from None
    settings = ConfigSettings(configfiles=[Path(f) for f in configfiles], config=overrides)
    with SnakemakeApi(OutputSettings(quiet={Quietness.ALL})) as api:
        wf_api = api.workflow(
            resource_settings=ResourceSettings(cores=1), config_settings=settings, snakefile=Path(snakefile)
        )
        wf_api.dag(DAGSettings(targets={target}))
        try:
            wf = wf_api._workflow
        except SystemExit as err:  # the Snakefile's one-line config errors
            raise TraceError(str(err)) from None
        roots = (wf.config.get("results_dir"), wf.config.get("figures_dir"))
        try:
            wf._prepare_dag(forceall=False, ignore_incomplete=True, lock_warn_only=True, nolock=True)
            wf.async_run(wf.dag.init())
        except MissingRuleException:
            raise TraceError(
                f"no rule makes {target} (this profile writes under {roots[0]}/ and {roots[1]}/)"
            ) from None
        except (RuleException, WorkflowError) as err:
            raise TraceError(str(err).strip().splitlines()[0]) from None
        dag = wf.dag
        nodes: dict[str, RuleNode] = {}
        wanted = os.path.abspath(target)
        for job in sorted(dag.jobs, key=lambda j: wanted not in map(os.path.abspath, j.output)):  # target's job first
            rule = job.rule
            node = nodes.get(rule.name)
            if node is None:
                script = os.path.join(str(rule.basedir), rule.script) if rule.script else None
                node = nodes[rule.name] = RuleNode(rule.name, _rel(rule.snakefile), script and _rel(script))
            node.n_jobs += 1
            for k, v in job.wildcards_dict.items():
                if v not in node.wildcards.setdefault(k, []):
                    node.wildcards[k].append(v)
            made = set()
            for dep, files in dag.dependencies[job].items():
                made.update(files)
                if dep.rule.name not in node.producers:
                    node.producers.append(dep.rule.name)
            for f in job.input:
                if f not in made and _rel(f) not in node.sources:
                    node.sources.append(_rel(f))
    for node in nodes.values():
        for values in node.wildcards.values():
            values.sort(key=lambda v: (0, int(v), "") if v.isdigit() else (1, 0, v))
        if node.script and node.script.endswith(".py"):
            node.calls = library_calls(node.script)
    return target, nodes


def format_trace(target: str, nodes: dict[str, RuleNode]) -> str:
    """The chain as indented text: each rule, its script and calls, then the rules making its inputs."""
    lines = [target]
    shown: set[str] = set()

    def visit(name: str, depth: int) -> None:
        node, pad = nodes[name], "  " * depth
        head = f"{pad}rule {name}"
        if node.wildcards:
            wc = "; ".join(f"{k}={','.join(v)}" for k, v in node.wildcards.items())
            head += f"  [{node.n_jobs} job{'s' if node.n_jobs > 1 else ''}: {wc}]"
        if name in shown:
            lines.append(f"{head}  (see above)")
            return
        shown.add(name)
        lines.append(f"{head}  ({node.rule_file})")
        lines.append(f"{pad}  script {node.script or '(none: shell or run block)'}")
        by_module: dict[str, list[str]] = {}
        for module, qualname in node.calls:
            by_module.setdefault(module, []).append(qualname)
        for i, (module, names) in enumerate(by_module.items()):
            lines.append(f"{pad}  {'calls ' if i == 0 else '      '} {module}: {', '.join(names)}")
        for src in node.sources:
            lines.append(f"{pad}  reads  {src}  (no rule: a file on disk)")
        for producer in node.producers:
            visit(producer, depth + 1)

    visit(next(iter(nodes)), 0)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: print the chain of one target (exit 1 with a one-line error if none)."""
    parser = argparse.ArgumentParser(prog="python -m bmrep.ops.trace", description=__doc__.splitlines()[0])
    parser.add_argument("target", help="a file the workflow makes (a figure, a table, a model...)")
    parser.add_argument("--configfile", nargs="+", default=[], help="profile file(s), as for snakemake")
    parser.add_argument("--config", nargs="+", default=[], metavar="KEY=VALUE", help="overrides, as for snakemake")
    parser.add_argument("--snakefile", default="Snakefile")
    args = parser.parse_args(argv)
    try:
        target, nodes = job_graph(args.target, args.configfile, args.config, args.snakefile)
    except TraceError as err:
        print(f"bmrep.ops.trace: {err}", file=sys.stderr)
        return 1
    try:
        print(format_trace(target, nodes))
    except BrokenPipeError:  # piped into head: not an error
        sys.stdout = open(os.devnull, "w")  # the interpreter flushes stdout at exit
    return 0


if __name__ == "__main__":
    sys.exit(main())
