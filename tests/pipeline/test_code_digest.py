"""The library-code digest that makes Snakemake rerun a rule when the bmrep code it imports changes."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from bmrep.pipeline.code_digest import PACKAGE_ROOT, library_files, module_file, source_digest

ROOT = Path(__file__).resolve().parents[2]

FAKE = {
    "bmrep/__init__.py": "",
    "bmrep/a.py": "from .b import helper\n",
    "bmrep/b.py": "import numpy as np\n\ndef helper():\n    return np.zeros(1)\n",
    "bmrep/c.py": "VALUE = 1\n",
    "bmrep/sub/__init__.py": "",
    "bmrep/sub/d.py": "from ..e import thing\n",
    "bmrep/e.py": "thing = 2\n",
    "bmrep/sub/_ext.pyx": "cimport numpy as cnp\n",
    "bmrep/sub/f.py": "from . import _ext\n",
    "script.py": (
        "import os\nfrom bmrep import a\n\ndef later():\n    import bmrep.sub.d\n    from bmrep.sub.f import nothing\n"
    ),
}


@pytest.fixture
def fake(tmp_path):
    for rel, text in FAKE.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return tmp_path


def _rel(files, root):
    return sorted(str(f.relative_to(root)) for f in files)


def test_closure_follows_absolute_relative_and_nested_imports(fake):
    files = library_files(fake / "script.py", fake / "bmrep")
    assert _rel(files, fake / "bmrep") == [
        "__init__.py",
        "a.py",
        "b.py",
        "e.py",
        "sub/__init__.py",
        "sub/_ext.pyx",
        "sub/d.py",
        "sub/f.py",
    ]


def test_digest_changes_with_an_imported_module_only(fake):
    pkg = fake / "bmrep"
    before = source_digest(fake / "script.py", pkg)
    (pkg / "c.py").write_text("VALUE = 2\n")  # not imported by the script
    assert source_digest(fake / "script.py", pkg) == before
    (pkg / "e.py").write_text("thing = 3\n")  # imported two levels down, relatively
    after_e = source_digest(fake / "script.py", pkg)
    assert after_e != before
    (pkg / "sub" / "_ext.pyx").write_text("cimport numpy as cnp\n# changed\n")
    assert source_digest(fake / "script.py", pkg) != after_e


def test_digest_depends_on_contents_not_location(fake, tmp_path_factory):
    other = tmp_path_factory.mktemp("elsewhere") / "copy"
    shutil.copytree(fake, other)
    assert source_digest(other / "script.py", other / "bmrep") == source_digest(fake / "script.py", fake / "bmrep")
    assert re.fullmatch(r"[0-9a-f]{16}", source_digest(fake / "script.py", fake / "bmrep"))


def test_missing_script_is_an_error(fake):
    with pytest.raises(FileNotFoundError, match="no such script"):
        library_files(fake / "nope.py", fake / "bmrep")


def test_module_file_resolves_packages_modules_and_extensions():
    assert module_file("bmrep") == PACKAGE_ROOT / "__init__.py"
    assert module_file("bmrep.models.dbm") == PACKAGE_ROOT / "models" / "dbm.py"
    assert module_file("bmrep.sampling._kernels") == PACKAGE_ROOT / "sampling" / "_kernels.pyx"
    assert module_file("bmrep.models.dbm.DBM") is None
    assert module_file("numpy") is None


SALA_SCRIPTS = ROOT / "workflow" / "scripts" / "salakhutdinov2010"


def _sala_closure(script):
    return {f.relative_to(PACKAGE_ROOT).as_posix() for f in library_files(SALA_SCRIPTS / script)}


@pytest.mark.parametrize("script", ["pretrain.py", "train.py"])
def test_real_script_depends_on_its_paper_code_not_others(script):
    """A training job imports its model and sampler, not AIS, not claims, not plotting, not other papers."""
    files = _sala_closure(script)
    assert {"models/dbm.py", "sampling/_kernels.pyx"} <= files
    assert "learning/dbm_training.py" in files or script == "pretrain.py"
    assert not any(f.startswith(("estimators/", "claims/", "plotting/")) for f in files), sorted(files)
    assert {f for f in files if f.startswith("papers/")} <= {
        "papers/__init__.py",
        "papers/salakhutdinov2010/__init__.py",
        "papers/salakhutdinov2010/common.py",
        "papers/salakhutdinov2010/train.py",
    }


def test_the_claims_job_is_the_only_one_that_imports_the_claims():
    assert "papers/salakhutdinov2010/claims.py" in _sala_closure("claims.py")
    for script in sorted(SALA_SCRIPTS.glob("*.py")):
        if script.name != "claims.py":
            closure = _sala_closure(script.name)
            assert not any(f.startswith(("claims/", "papers/salakhutdinov2010/claims")) for f in closure), script.name


def test_every_rule_with_a_script_carries_its_code_digest():
    """Each rule's params hold code=code_version(<its own script>), so library edits rerun it."""
    n = 0
    for smk in sorted((ROOT / "workflow" / "rules").glob("*.smk")):
        text = smk.read_text()
        blocks = re.split(r"\n(?=\s*rule\b)", text)
        for block in blocks:
            m = re.search(r'script:\s*\n\s*"\.\./scripts/([^"]+)"', block)
            if not m:
                continue
            n += 1
            assert f'code=code_version("{m.group(1)}")' in block, (
                f"{smk.name}: rule running {m.group(1)} lacks its code digest"
            )
    assert n >= 50


def test_compiled_modules_bring_their_headers_and_pxd_files():
    """A kernel edited only in its C header (or a shared .pxd) is changed code: its jobs rerun."""
    ops = library_files(ROOT / "src/bmrep/sampling/operators.py")
    names = {str(f.relative_to(PACKAGE_ROOT)) for f in ops}
    assert {"sampling/_kernels.pyx", "sampling/_row_update.h", "_expn.h"} <= names
    sbn = {str(f.relative_to(PACKAGE_ROOT)) for f in library_files(ROOT / "src/bmrep/meanfield/sbn_bound.py")}
    # the solver's own .pxd (read by Cython unasked) and the headers it declares
    assert {"meanfield/_sbn.pyx", "meanfield/_sbn.pxd", "meanfield/_sbn_terms.h", "_expn.h", "_cmath.pxd"} <= sbn
    assert "sampling/_row_update.h" not in sbn
