"""The science subpackages' public faces, read from their modules' ``__all__`` and loaded on first use.

A subpackage's ``__init__`` calls :func:`lazy_face`: its public names are those its modules list in
``__all__`` and define themselves (a name a module re-exports belongs to the module that defines it), read
from the source with ``ast``, so a module's ``__all__`` is the one place a public name is declared. The names
load on first use (Scientific Python SPEC 1, ``lazy_loader``): importing ``bmrep.learning`` imports none of
its modules, and ``from bmrep.learning import train_dbm`` imports only ``bmrep.learning.dbm_training``.
A job's code digest (:mod:`bmrep.pipeline.code_digest`) reads imports statically and does not see through
a face, so code inside the project imports from the modules (tests/house/test_api.py); the faces are for
researchers reusing the library, and docs/api.md lists them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import lazy_loader as lazy


def defined_public_names(path: Path) -> list[str]:
    """The names of the module at ``path``'s ``__all__`` that it defines itself, in ``__all__``'s order."""
    listed: list[str] = []
    own: set[str] = set()
    for node in ast.parse(Path(path).read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
            continue
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        if "__all__" in names:
            listed = [e.value for e in node.value.elts]
        own |= names
    return [n for n in listed if n in own]


def public_api(package_dir: Path) -> dict[str, list[str]]:
    """Module name -> its public names, for every module of the package at ``package_dir`` that has any."""
    modules = sorted(p for p in Path(package_dir).glob("*.py") if p.name != "__init__.py")
    return {p.stem: names for p in modules if (names := defined_public_names(p))}


def lazy_face(package: str, init_file: str):
    """``(__getattr__, __dir__, __all__, PUBLIC_API)`` for the package ``package`` whose ``__init__`` is ``init_file``.

    ``PUBLIC_API`` maps each module to its public names; subpackages (e.g. ``models.exact``) are faced as
    modules, their names staying in them.
    """
    here = Path(init_file).parent
    api = public_api(here)
    subpackages = sorted(p.name for p in here.iterdir() if (p / "__init__.py").exists())
    return (*lazy.attach(package, submodules=subpackages, submod_attrs=api), api)


__all__ = ["defined_public_names", "public_api", "lazy_face"]
