"""The library's layers: no upward or sibling import, no import cycle, no module over 400 lines.

Layers, lowest first (``tests/support/layering.py``): the science's utilities (special, seeds, io, progress) <
datasets < models < sampling < estimators | meanfield < learning < diagnostics < claims | plotting
(``|``: siblings that must not import each other) < papers (one folder per paper; papers never import
each other) < the pipeline wing (``bmrep.pipeline``: what a job and the workflow need at run time), which the
science never imports < the operator's wing (``bmrep.ops``: costs, rehearsal, publishing, ...), which the
pipeline wing and the workflow never import. Issues 16 (item 4), 53 and 66.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.layering import INDEPENDENT_PARTS, LAYERS, import_cycles, layer_of, violations

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "bmrep"
MAX_LINES = 400


def test_no_import_from_a_higher_layer_or_a_sibling():
    found = violations(PACKAGE)
    assert not found, "layer violations:\n" + "\n".join(map(str, found))


def test_no_package_level_import_cycle():
    cycles = import_cycles(PACKAGE, "unit")
    assert len(cycles) == 0, f"{len(cycles)} package-level import cycles: {cycles}"


def test_no_module_level_import_cycle():
    """A lazy import inside a function that dodges a cycle still closes it here."""
    cycles = import_cycles(PACKAGE, "module")
    assert len(cycles) == 0, f"{len(cycles)} module-level import cycles: {cycles}"


def test_papers_never_import_each_other():
    """What two papers share lives below them (issue 66): the checker above reports bmrep.papers.X importing
    bmrep.papers.Y; here, every paper is a folder of the papers layer, and the papers layer is the science's top."""
    papers = sorted(d.name for d in (PACKAGE / "papers").iterdir() if (d / "__init__.py").is_file())
    assert papers == ["bruegge2013", "calibration", "carlson2016", "salakhutdinov2010", "saul1996", "yokoyama2019"]
    assert "papers" in INDEPENDENT_PARTS
    assert LAYERS[layer_of("pipeline") - 1] == (frozenset({"papers"}), False)
    crossing = [v for v in violations(PACKAGE) if "independent" in v.why]
    assert not crossing, "papers importing each other:\n" + "\n".join(map(str, crossing))


LOOSE_MODULES_MAX = 6  # issue 53: the package's front room holds the science's utilities, not the pipeline
# issue 66: what a job and the workflow need at run time, and the operator's tools beside it
RUNTIME_WING = ("cli", "runtime", "config_check", "code_digest", "provenance", "memory")
OPERATOR_WING = ("costs", "work_keys", "slurm_resources", "rehearsal", "rehearsal_report", "job_memory", "timeline",
                 "publish", "published", "evidence", "quoted", "result_manifest", "browser", "trace",
                 "api_doc")  # fmt: skip


def test_the_two_wings_are_the_top_floors_and_the_front_room_is_small():
    """bmrep.pipeline is the one unit of the layer above the science and bmrep.ops the one unit of the top layer,
    so the violations test above fails on any import of the pipeline by the science and on any import of the
    operator's tools by either (issues 53, 66); every module is in its wing, and the package holds few loose
    modules."""
    assert LAYERS[-2:] == [(frozenset({"pipeline"}), False), (frozenset({"ops"}), False)]
    assert all(not units & {"pipeline", "ops"} for units, _ in LAYERS[:-2])
    loose = sorted(f.name for f in PACKAGE.iterdir() if f.suffix in (".py", ".pyx"))
    assert len(loose) <= LOOSE_MODULES_MAX, loose
    for wing, modules in (("pipeline", RUNTIME_WING), ("ops", OPERATOR_WING)):
        present = {f.stem for f in (PACKAGE / wing).glob("*.py")} - {"__init__"}
        assert present == set(modules), (wing, present ^ set(modules))


# an import of the operator's wing in a Python file or a rules file (`from bmrep.ops...`, `import bmrep.ops`,
# `from bmrep import ops`)
OPS_IMPORT = re.compile(r"^\s*(?:from\s+bmrep\.ops\b|import\s+bmrep\.ops\b|from\s+bmrep\s+import\s+.*\bops\b)", re.M)


def test_the_workflow_never_imports_the_operators_tools():
    """No rule and no job needs bmrep.ops (issue 66): the Snakefile, the rules and the scripts import only the
    pipeline wing (and the science), so a job runs, and the workflow is built, without the operator's tools."""
    workflow = ROOT / "workflow"
    files = [ROOT / "Snakefile", *sorted(workflow.rglob("*.smk")), *sorted(workflow.rglob("*.py"))]
    assert len(files) > 50
    found = [f"{f.relative_to(ROOT)}: {m.group(0).strip()}" for f in files for m in OPS_IMPORT.finditer(f.read_text())]
    assert not found, "the workflow imports the operator's tools:\n" + "\n".join(found)
    assert OPS_IMPORT.search("    from bmrep.ops.costs import x\n") and OPS_IMPORT.search("from bmrep import io, ops\n")
    assert not OPS_IMPORT.search("from bmrep.pipeline.runtime import setup_job\n")


@pytest.mark.parametrize("suffix", [".py", ".pyx"])
def test_no_module_over_400_lines(suffix):
    long = {
        str(f.relative_to(PACKAGE)): n
        for f in sorted(PACKAGE.rglob(f"*{suffix}"))
        if (n := len(f.read_text().splitlines())) > MAX_LINES
    }
    assert not long, f"modules over {MAX_LINES} lines: {long}"


# -- the checker itself, on a fake package ---------------------------------------
def _write(root: Path, rel: str, text: str = "") -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.fixture
def fake(tmp_path):
    pkg = tmp_path / "bmrep"
    for sub in ("", "models/", "sampling/", "estimators/", "meanfield/", "learning/"):
        _write(pkg, f"{sub}__init__.py")
    _write(pkg, "seeds.py")
    _write(pkg, "models/rbm.py", "import numpy as np\nfrom bmrep.seeds import rng\nfrom . import exact\n")
    _write(pkg, "models/exact.py", "from .rbm import RBM\n")
    _write(pkg, "sampling/ops.py", "from ..models.rbm import RBM\n\n\ndef f():\n    return 1\n")
    _write(pkg, "estimators/ais.py", "from bmrep.sampling import ops\nfrom .. import __version__\n")
    _write(pkg, "learning/cd.py", "from bmrep.estimators.ais import x\nfrom ..meanfield import bound\n")
    _write(pkg, "meanfield/bound.py", "")
    return pkg


def test_checker_passes_a_package_that_only_imports_downwards(fake):
    assert violations(fake) == []
    assert import_cycles(fake, "unit") == []


def test_checker_reports_upward_imports_at_top_level_and_inside_functions(fake):
    _write(fake, "models/dbm.py", "from bmrep.estimators.ais import ais_log_weights\n")
    _write(
        fake,
        "sampling/st.py",
        "import numpy as np\n\n\ndef draw():\n    from ..estimators import ais\n    return ais\n",
    )
    found = {(v.module, v.line, v.target) for v in violations(fake)}
    assert found == {
        ("bmrep.models.dbm", 1, "bmrep.estimators.ais.ais_log_weights"),
        ("bmrep.sampling.st", 5, "bmrep.estimators.ais"),
    }
    cycles = import_cycles(fake, "unit")
    assert cycles == [["estimators", "models", "sampling"]]


def test_checker_reports_siblings_and_unknown_units(fake):
    _write(fake, "estimators/mf.py", "def f():\n    import bmrep.meanfield.bound\n")
    _write(fake, "newthing/__init__.py", "from bmrep.models import rbm\n")
    why = sorted(v.why for v in violations(fake))
    assert why == ["estimators and meanfield are siblings", "unit 'newthing' is in no layer"]


def test_checker_reports_a_paper_importing_another(fake):
    _write(fake, "papers/__init__.py")
    _write(fake, "papers/a/__init__.py", "PAPER = 'a'\n")
    _write(fake, "papers/a/fig1.py", "from . import PAPER\nfrom .common import x\nfrom bmrep.models.rbm import RBM\n")
    _write(fake, "papers/a/common.py", "from .. import b\n")
    _write(fake, "papers/b/__init__.py")
    _write(fake, "papers/b/train.py", "def f():\n    from ..a.fig1 import PAPER\n    import bmrep.papers\n")
    found = {(v.module, v.line, v.target, v.why) for v in violations(fake)}
    assert found == {
        ("bmrep.papers.a.common", 1, "bmrep.papers.b", "papers a and b are independent"),
        ("bmrep.papers.b.train", 2, "bmrep.papers.a.fig1.PAPER", "papers b and a are independent"),
    }


def test_checker_reports_the_pipeline_wing_importing_the_operators_wing(fake):
    _write(fake, "pipeline/__init__.py")
    _write(fake, "ops/__init__.py")
    _write(fake, "ops/costs.py", "from ..pipeline.memory import request\nfrom bmrep.models.rbm import RBM\n")
    _write(fake, "pipeline/memory.py", "import bmrep.models.rbm\n")
    assert violations(fake) == []
    _write(fake, "pipeline/memory.py", "def request():\n    from ..ops import costs\n")
    _write(fake, "models/dbm.py", "from bmrep.pipeline import memory\n")
    found = {(v.module, v.line, v.target, v.why) for v in violations(fake)}
    assert found == {
        ("bmrep.pipeline.memory", 2, "bmrep.ops.costs", "ops is above pipeline"),
        ("bmrep.models.dbm", 1, "bmrep.pipeline.memory", "pipeline is above models"),
    }


def test_module_level_cycle_through_a_lazy_import(fake):
    _write(fake, "models/rbm.py", "from . import exact\n")
    _write(fake, "models/exact.py", "def f():\n    from .rbm import RBM\n")
    assert import_cycles(fake, "module") == [["bmrep.models.exact", "bmrep.models.rbm"]]
