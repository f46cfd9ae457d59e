"""The linters of `make lint` (pinned dev dependencies): ruff (check and format) and snakefmt.

`snakemake --lint`, the fourth check of `make lint`, is tests/house/test_workflow.py::test_lint_is_clean.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

BIN = Path(sys.executable).parent


def _run(tool: str, *args: str) -> subprocess.CompletedProcess:
    exe = BIN / tool
    assert exe.is_file(), f"{tool} is not installed next to {sys.executable}: pip install -e '.[dev]'"
    return subprocess.run([str(exe), *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(
    "tool, args",
    [
        ("ruff", ["check", "--no-fix", "."]),
        ("ruff", ["format", "--check", "."]),
        ("snakefmt", ["--check", "Snakefile", "workflow/rules"]),
    ],
    ids=["ruff-check", "ruff-format", "snakefmt"],
)
def test_linter_is_clean(tool, args):
    proc = _run(tool, *args)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-5000:]


def _ruff_codes(source: str, as_path: str) -> set[str]:
    proc = subprocess.run(
        [str(BIN / "ruff"), "check", "--no-cache", "--output-format", "json", "--stdin-filename", as_path, "-"],
        cwd=ROOT,
        input=source,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return {f["code"] for f in json.loads(proc.stdout)}


def test_ruff_applies_the_project_config():
    """The checks above mean something only if ruff reads pyproject's rules: 120 columns, docstrings, tests exempt."""
    source = (
        '"""A module."""\n\n\ndef public(x):\n    return x  # ' + "x" * 120 + "\n\n\ndef _private(x):\n    return x\n"
    )
    assert _ruff_codes(source, "src/bmrep/example.py") == {"D103", "E501"}
    assert _ruff_codes(source.replace("# " + "x" * 120, "# short"), "src/bmrep/example.py") == {"D103"}
    assert _ruff_codes(source, "tests/test_example.py") == {"E501"}
