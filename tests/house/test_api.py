"""The science subpackages' public faces (issue 66, item 5) and docs/api.md.

Each face (``bmrep.<package>.PUBLIC_API``, loaded on first use) must list exactly the names its modules
define in their ``__all__``, import nothing until a name is used, and never be what the project itself
imports from: bmrep.pipeline.code_digest reads imports statically, and a name taken from a lazy face would
hide the module it comes from, so a job would not rerun when that module changes.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from bmrep.ops.api_doc import SCIENCE, render

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src" / "bmrep"


def _modules(package: str) -> list[str]:
    return sorted(p.stem for p in (SRC / package).glob("*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("package", SCIENCE)
def test_face_lists_what_the_modules_define(package):
    pkg = importlib.import_module(f"bmrep.{package}")
    assert set(pkg.PUBLIC_API) <= set(_modules(package))
    faced = {n: m for m, names in pkg.PUBLIC_API.items() for n in names}
    assert len(faced) == sum(len(v) for v in pkg.PUBLIC_API.values()), "a name listed twice"
    for module in _modules(package):
        mod = importlib.import_module(f"bmrep.{package}.{module}")
        assert hasattr(mod, "__all__"), f"bmrep.{package}.{module} has no __all__"
        for name in mod.__all__:
            obj = getattr(mod, name)  # every name of __all__ exists
            assert name in faced, f"{package}.{module}.{name} is public but not in the face"
            # a re-exported name is faced under the module that defines it, and is that very object
            assert getattr(importlib.import_module(f"bmrep.{package}.{faced[name]}"), name) is obj
        own = set(pkg.PUBLIC_API.get(module, []))
        assert own <= set(mod.__all__), f"face lists {own - set(mod.__all__)} that {module}.__all__ does not"
    for name, module in faced.items():
        assert getattr(pkg, name) is getattr(importlib.import_module(f"bmrep.{package}.{module}"), name)
    assert set(faced) <= set(pkg.__all__)


def test_faces_load_on_first_use():
    code = (
        "import sys, bmrep.learning, bmrep.models\n"
        "print(sorted(m for m in sys.modules if m.startswith(('bmrep.learning.', 'bmrep.models.'))))\n"
        "from bmrep.learning import train_dbm\n"
        "print('bmrep.learning.dbm_training' in sys.modules, train_dbm.__module__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "[]"
    assert out[1] == "True bmrep.learning.dbm_training"


def face_imports(source: str, module_package: str | None = None) -> list[str]:
    """``from <science package> import <name>`` statements whose name is not a submodule (absolute or relative)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 0 and node.module and node.module.startswith("bmrep."):
            parts = node.module.split(".")[1:]
        elif node.level and module_package is not None:
            dotted = module_package.split(".")  # the importing module, e.g. bmrep.learning.cast
            base = dotted[:-1][: len(dotted) - node.level][1:]  # its package, up level - 1, without "bmrep"
            parts = base + (node.module.split(".") if node.module else [])
        else:
            continue
        if len(parts) != 1 or parts[0] not in SCIENCE:
            continue
        here = SRC / parts[0]  # its submodules: Python and compiled (.pyx) modules, subpackages
        subs = {p.stem for p in here.glob("*.py*")} | {p.name for p in here.iterdir() if p.is_dir()}
        found += [f"{'.'.join(parts)}.{a.name}" for a in node.names if a.name not in subs]
    return found


def test_face_import_detector_flags_a_face_import():
    assert face_imports("from bmrep.learning import train_dbm\nfrom bmrep.models import dbm\n") == [
        "learning.train_dbm"
    ]
    assert face_imports("from ..sampling import Gibbs\n", "bmrep.learning.cast") == ["sampling.Gibbs"]


def test_project_imports_from_modules_not_faces():
    offenders = []
    for path in [*SRC.rglob("*.py"), *(ROOT / "workflow").rglob("*.py")]:
        rel = path.relative_to(ROOT / "src") if path.is_relative_to(ROOT / "src") else None
        package = ".".join(rel.with_suffix("").parts) if rel else None
        offenders += [f"{path.relative_to(ROOT)}: {x}" for x in face_imports(path.read_text(), package)]
    assert offenders == []


def test_api_page_is_current():
    assert (ROOT / "docs" / "api.md").read_text() == render(), "docs/api.md is stale: run `make api-doc`"
