"""The library's layers and a checker of its imports (an AST walk; no code is imported).

Every ``import`` and ``from ... import`` of a module counts, at top level or
inside a function (a lazy import that dodges a cycle is still an edge), absolute
or relative. A module's *unit* is the first component under ``bmrep``
(``bmrep.models.dbm`` -> ``models``; ``bmrep`` itself is ``""``). A unit may
import itself and any unit of a lower layer; importing a higher layer, or a
sibling in a layer whose units must stay independent, is a violation.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

# (units, may the units of this layer import each other?), lowest layer first
LAYERS: list[tuple[frozenset[str], bool]] = [
    (frozenset({"", "special", "seeds", "io", "progress", "public_api"}), True),
    (frozenset({"datasets"}), False),
    (frozenset({"models"}), False),
    (frozenset({"sampling"}), False),
    (frozenset({"estimators", "meanfield"}), False),
    (frozenset({"learning"}), False),
    (frozenset({"diagnostics"}), False),
    (frozenset({"claims", "plotting"}), False),
    # one folder per paper (its stages, claims and plots), on the shared claims and plotting
    (frozenset({"papers"}), False),
    # the pipeline wing (bmrep.pipeline: what a job and the workflow need at run time: the command line, a job's
    # start, config checks, code digests, provenance, memory requests): above all the science, which never
    # imports it; its modules import each other
    (frozenset({"pipeline"}), False),
    # the operator's wing (bmrep.ops: costs, SLURM resources, rehearsal, timeline, publishing, result manifest,
    # browser, trace): on top, it may import the pipeline wing, which never imports it (issue 66)
    (frozenset({"ops"}), False),
]
# Units made of independent parts (the component below the unit): a part never imports another part of its unit.
# A paper never imports another paper; what two papers share moves down into the shared layers (issue 66).
INDEPENDENT_PARTS = frozenset({"papers"})
# Edges forbidden although they point down: a paper's stages, claims and plots do no file I/O (issue 16).
FORBIDDEN = frozenset({("papers", "io")})


@dataclass(frozen=True)
class Import:
    module: str  # importing module, dotted
    line: int
    target: str  # imported module, dotted (for ``from pkg import name``: ``pkg.name``)


@dataclass(frozen=True)
class Violation:
    module: str
    line: int
    target: str
    why: str

    def __str__(self) -> str:
        return f"{self.module}:{self.line} imports {self.target} ({self.why})"


def module_name(path: Path, package_dir: Path) -> str:
    """Dotted name of a source file under the package directory (``.../bmrep``)."""
    parts = list(path.relative_to(package_dir).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([package_dir.name, *parts])


def imports_of(path: Path, package_dir: Path) -> list[Import]:
    """Every import of the package made anywhere in one file (top level and inside functions)."""
    name = module_name(path, package_dir)
    is_package = path.name == "__init__.py"
    root = package_dir.name
    out = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # ``from pkg import name`` may import a submodule: count pkg.name (its unit is pkg's
            # unless pkg is the root package, where the name is the unit itself)
            targets = [f"{mod}.{a.name}" if a.name != "*" else mod for a in node.names]
        else:
            continue
        out += [Import(name, node.lineno, t) for t in targets if t == root or t.startswith(root + ".")]
    return out


def unit(dotted: str, package_dir: Path) -> str:
    """First component under the root package, ``""`` for the root itself or a name defined in it
    (``from bmrep import __version__``)."""
    parts = dotted.split(".")
    if len(parts) == 1:
        return ""
    u = parts[1]
    return u if (package_dir / u).is_dir() or any((package_dir / f"{u}{s}").exists() for s in (".py", ".pyx")) else ""


def all_imports(package_dir: Path) -> list[Import]:
    return [i for f in sorted(package_dir.rglob("*.py")) for i in imports_of(f, package_dir)]


def layer_of(u: str, layers=LAYERS) -> int | None:
    return next((k for k, (units, _) in enumerate(layers) if u in units), None)


def part(dotted: str) -> str | None:
    """The component below the unit (``bmrep.papers.carlson2016.fig3`` -> ``carlson2016``), None for the unit itself."""
    parts = dotted.split(".")
    return parts[2] if len(parts) > 2 else None


def violations(package_dir: Path, layers=LAYERS, forbidden=FORBIDDEN, independent=INDEPENDENT_PARTS) -> list[Violation]:
    """Imports of a higher layer, of a sibling that must stay independent, of a forbidden unit, or of another
    part of a unit whose parts are independent (one paper importing another)."""
    out = []
    for imp in all_imports(package_dir):
        a, b = unit(imp.module, package_dir), unit(imp.target, package_dir)
        if a == b:
            pa, pb = part(imp.module), part(imp.target)
            if a in independent and pa is not None and pb is not None and pa != pb:
                out.append(Violation(imp.module, imp.line, imp.target, f"{a} {pa} and {pb} are independent"))
            continue
        la, lb = layer_of(a, layers), layer_of(b, layers)
        if la is None or lb is None:
            out.append(Violation(imp.module, imp.line, imp.target, f"unit {a if la is None else b!r} is in no layer"))
        elif lb > la:
            out.append(Violation(imp.module, imp.line, imp.target, f"{b} is above {a}"))
        elif lb == la and not layers[la][1]:
            out.append(Violation(imp.module, imp.line, imp.target, f"{a} and {b} are siblings"))
        elif (a, b) in forbidden:
            out.append(Violation(imp.module, imp.line, imp.target, f"{a} must not import {b}"))
    return out


def import_cycles(package_dir: Path, level: str = "unit") -> list[list[str]]:
    """Strongly connected sets (size > 1) of the import graph between units or between modules."""
    graph: dict[str, set[str]] = {}
    for imp in all_imports(package_dir):
        if level == "unit":
            a, b = unit(imp.module, package_dir), unit(imp.target, package_dir)
        else:  # ``from pkg import name`` counts as pkg.name only when that is a module
            a, b = imp.module, imp.target
            rel = b.split(".")[1:]
            if not (
                package_dir.joinpath(*rel).is_dir()
                or any(package_dir.joinpath(*rel).with_suffix(s).exists() for s in (".py", ".pyx"))
            ):
                b = b.rsplit(".", 1)[0]
        if a != b:
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set())
    return [sorted(c) for c in _strongly_connected(graph) if len(c) > 1]


def _strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm (iterative)."""
    index, low, on_stack, stack, out, counter = {}, {}, set(), [], [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out
