"""Content digest of the library code a workflow script runs.

Snakemake reruns a job when its script, inputs or params change, but it does
not see the modules the script imports. Each rule therefore carries
``params: code=...``, the digest returned by :func:`source_digest`: a hash of
the contents of every ``bmrep`` source file (``.py``, ``.pyx``) the
script imports, directly or through other ``bmrep`` modules, and of the C
headers and ``.pxd`` files those compiled modules include (``cdef extern
from "x.h"``, ``#include "x.h"``, ``from bmrep.x cimport ...``, and a
module's own ``.pxd``, which Cython reads without being asked): a kernel
edited only in its header is code that changed. Editing one of
those files changes the param, and Snakemake reruns the job and everything
downstream of it; editing an unrelated module leaves the job cached.

The import graph is found statically (``ast``), so nothing is imported; the
analysis is conservative: every ``import`` statement counts, wherever it is
(inside functions too), and a package's ``__init__`` counts whenever a module
inside it is imported, because Python runs it. The import graph is cached for
the life of the process (a Snakemake parse); file contents are read afresh for
every digest.
"""

from __future__ import annotations

import ast
import hashlib
import re
from functools import cache
from pathlib import Path

PACKAGE = "bmrep"
PACKAGE_ROOT = Path(__file__).resolve().parent.parent
SOURCE_SUFFIXES = (".py", ".pyx")
# what a compiled module pulls in besides imports: headers (relative to the including file) and .pxd files
_EXTERN = re.compile(r'^\s*cdef\s+extern\s+from\s+"([^"<>]+)"', re.M)
_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
_CIMPORT = re.compile(r"^\s*(?:from\s+(bmrep(?:\.\w+)+)\s+cimport|cimport\s+(bmrep(?:\.\w+)+))", re.M)


@cache
def module_file(name: str, root: Path = PACKAGE_ROOT) -> Path | None:
    """The source file of module ``name`` (dotted, starting with ``bmrep``), or None.

    A package resolves to its ``__init__.py``; a compiled extension to its ``.pyx``. Cached for the
    process, as the import graph is: a Snakemake parse asks it for the same names from every script's
    closure (some 20000 times, 1.7 s of file-system checks uncached).
    """
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = root.joinpath(*parts[1:])
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    for suffix in SOURCE_SUFFIXES:
        if base.with_suffix(suffix).is_file():
            return base.with_suffix(suffix)
    return None


def _module_name(path: Path, root: Path) -> str:
    rel = path.relative_to(root).with_suffix("")
    parts = [PACKAGE, *rel.parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _import_statements(body: list[ast.stmt]):
    """Every ``import`` statement in ``body`` and in the statements nested in it, wherever it is.

    Function and class bodies, branches, loops, ``try``, ``with``, ``match``: an import is always a
    statement, so the expressions are not walked (``ast.walk`` over them took most of a Snakemake parse's
    digest time).
    """
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _import_statements(inner)


@cache
def _imported_names(path: Path, root: Path) -> frozenset[str]:
    """Dotted names of the ``bmrep`` modules (and candidate submodules) imported by ``path``."""
    if path.suffix != ".py":  # compiled extensions (.pyx) import no bmrep modules
        return frozenset()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    inside = path.is_relative_to(root)
    package = _module_name(path, root) if inside else ""
    if inside and path.name != "__init__.py":
        package = package.rpartition(".")[0]
    names: set[str] = set()
    for node in _import_statements(tree.body):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                if not inside:
                    continue
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return frozenset(n for n in names if n == PACKAGE or n.startswith(PACKAGE + "."))


@cache
def _included_files(path: Path, root: Path) -> tuple[Path, ...]:
    """The headers and ``.pxd`` files a ``.pyx`` or header includes that exist under ``root``."""
    if path.suffix not in (".pyx", ".pxd", ".h"):
        return ()
    text = path.read_text(encoding="utf-8")
    found = [path.parent / h for h in _EXTERN.findall(text) + _INCLUDE.findall(text)]
    if path.suffix == ".pyx":  # Cython reads a module's own .pxd without a cimport
        found.append(path.with_suffix(".pxd"))
    for a, b in _CIMPORT.findall(text):
        found.append(root.joinpath(*(a or b).split(".")[1:]).with_suffix(".pxd"))
    return tuple(f.resolve() for f in found if f.resolve().is_file() and f.resolve().is_relative_to(root))


def _with_parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[: i + 1]) for i in range(len(parts))]


@cache
def _closure(script: Path, root: Path) -> tuple[Path, ...]:
    seen: set[Path] = set()
    todo = [script]
    while todo:
        path = todo.pop()
        deps = [module_file(mod, root) for name in _imported_names(path, root) for mod in _with_parents(name)]
        for f in [*deps, *_included_files(path, root)]:
            if f is not None and f not in seen:
                seen.add(f)
                todo.append(f)
    return tuple(sorted(seen))


def library_files(script: str | Path, root: str | Path = PACKAGE_ROOT) -> list[Path]:
    """The ``bmrep`` source files ``script`` depends on through its imports, sorted."""
    script = Path(script).resolve()
    if not script.is_file():
        raise FileNotFoundError(f"no such script: {script}")
    return list(_closure(script, Path(root).resolve()))


def source_digest(script: str | Path, root: str | Path = PACKAGE_ROOT) -> str:
    """A 16-hex-digit digest of the contents of :func:`library_files` (paths relative to ``root``).

    It depends only on file contents and their paths inside the package, not on
    where the checkout lives or on file times.
    """
    root = Path(root).resolve()
    h = hashlib.sha256()
    for f in library_files(script, root):
        h.update(f.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(f.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]
