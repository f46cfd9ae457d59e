"""bmrep.ops.trace: the library calls of a script (static) and the chain of a real target (smoke profile)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from bmrep.ops.trace import definition, library_calls
from conftest import ROOT


@pytest.fixture
def fake_package(tmp_path):
    """A small ``bmrep`` package: a module, a subpackage re-exporting a function, a module-level class."""
    pkg = tmp_path / "bmrep"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text(
        "def f():\n    pass\n\nclass C:\n    @classmethod\n    def make(cls):\n        pass\n\ndef h():\n    pass\n"
    )
    (pkg / "sub" / "__init__.py").write_text("from .impl import g\n")
    (pkg / "sub" / "impl.py").write_text("from ..a import f as g2\n\ndef g():\n    pass\n")
    return pkg


def test_library_calls_finds_called_names_and_their_modules(fake_package, tmp_path):
    script = tmp_path / "script.py"
    script.write_text(
        textwrap.dedent("""
        import numpy as np
        import bmrep.a
        import bmrep.sub.impl as impl
        from bmrep.a import C, f as eff
        from bmrep.sub import g
        from bmrep.a import h  # imported and used but never called: not listed

        np.zeros(3)
        eff()
        C.make()
        g()
        impl.g2()
        bmrep.a.f()
        callback = h
        snakemake.input[0]  # noqa: F821
    """)
    )
    assert library_calls(script, root=fake_package) == [
        ("bmrep.a", "C.make"),
        ("bmrep.a", "f"),  # as eff, as bmrep.a.f, and as impl.g2 (sub.impl re-exports it renamed)
        ("bmrep.sub.impl", "g"),  # re-exported by sub/__init__.py, defined in sub.impl
    ]


def test_definition_follows_reexports_and_stops_at_unknown_names(fake_package):
    assert definition("bmrep.sub", "g", fake_package) == ("bmrep.sub.impl", "g")
    assert definition("bmrep.sub.impl", "g2", fake_package) == ("bmrep.a", "f")
    assert definition("bmrep.a", "f", fake_package) == ("bmrep.a", "f")
    assert definition("bmrep.a", "made_at_runtime", fake_package) == ("bmrep.a", "made_at_runtime")


def _trace(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "bmrep.ops.trace", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


@pytest.mark.workflow
@pytest.mark.checkout
def test_trace_of_a_smoke_figure_names_the_chain_and_runs_nothing(tmp_path):
    res, fig = tmp_path / "results", tmp_path / "figures"
    target = fig / "carlson2016" / "fig3.png"
    proc = _trace(
        str(target), "--configfile", "config/smoke.yaml", "--config", f"results_dir={res}", f"figures_dir={fig}"
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    lines = out.splitlines()
    assert lines[0] == str(target)
    assert lines[1].startswith("rule carlson2016_fig3 "), out
    assert "  script workflow/scripts/carlson2016/fig3.py" in out
    # its inputs' producers, recursively, down to the data rules, indented under it
    order = [out.index(f"rule {r} ") for r in ("carlson2016_fig3", "carlson2016_train_mnist", "data_mnist_binary")]
    assert order == sorted(order), out
    assert "  rule carlson2016_fig3_shard  [" in out and "method=" in out
    assert "bmrep.pipeline.runtime: setup_job" in out
    assert not res.exists() and not fig.exists(), "trace ran a job"


@pytest.mark.workflow
@pytest.mark.checkout
def test_trace_of_a_path_no_rule_makes_is_one_line():
    proc = _trace("figures/carlson2016/fig3.png", "--configfile", "config/smoke.yaml")
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        "bmrep.ops.trace: no rule makes figures/carlson2016/fig3.png "
        "(this profile writes under results/smoke/ and figures/smoke/)"
    ]
