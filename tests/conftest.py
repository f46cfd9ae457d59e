"""Shared fixtures: the repository root and a helper to run snakemake."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))


def run_snakemake(*args: str, timeout: float = 600, env=None) -> subprocess.CompletedProcess:
    """Run snakemake in the repository root; return the completed process (text output)."""
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([SNAKEMAKE, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=e)


def small_rbm(seed: int, scale: float, nv: int, nh: int):
    """A random enumerable RBM: weights N(0, scale^2), biases N(0, 1), from ``seed``."""
    import numpy as np

    from bmrep.models.rbm import RBM

    r = np.random.default_rng(seed)
    return RBM(r.normal(0, scale, (nv, nh)), r.normal(0, 1, nv), r.normal(0, 1, nh))


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
