"""Atomic file output and the cached-model format.

Every output is written to a temporary file in the destination directory and
renamed into place, so a crashed or killed job never leaves a partial file
that a later run would mistake for a finished one.

Models are stored as ``<name>.npz`` (the arrays) with a ``<name>.npz.json``
sidecar (settings, seed, package version, training time).
"""

from __future__ import annotations

import contextlib
import json
import os
import platform
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it to ``path`` on success.

    On an exception the temporary file is removed and ``path`` is untouched.
    The temporary name keeps the final suffix so that writers that infer the
    format from the extension (matplotlib, numpy) still work.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=f".tmp{path.suffix}", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.replace(tmp_path, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def write_text(path: str | os.PathLike, text: str) -> None:
    """Write UTF-8 text atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def write_json(path: str | os.PathLike, obj: Any) -> None:
    """Write ``obj`` as indented JSON with sorted keys, atomically (numpy arrays and scalars as lists/numbers)."""
    write_text(path, json.dumps(_jsonable(obj), indent=2, sort_keys=True) + "\n")


def read_json(path: str | os.PathLike) -> Any:
    """Read a UTF-8 JSON file."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def write_csv(path: str | os.PathLike, frame) -> None:
    """Write a pandas DataFrame as CSV atomically (no index)."""
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, index=False)


def save_npz(path: str | os.PathLike, **arrays: np.ndarray) -> None:
    """Write named arrays as a compressed ``.npz`` archive, atomically."""
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            np.savez_compressed(fh, **arrays)


def load_npz(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """Read every array of an ``.npz`` archive into memory (no pickled objects)."""
    with np.load(path, allow_pickle=False) as data:
        return {k: data[k] for k in data.files}


def save_figure(fig, path: str | os.PathLike, **kwargs) -> None:
    """Save a matplotlib figure atomically."""
    kwargs.setdefault("dpi", 150)
    kwargs.setdefault("bbox_inches", "tight")
    with atomic_path(path) as tmp:
        fig.savefig(tmp, **kwargs)


def save_model(path: str | os.PathLike, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
    """Cache a trained model: arrays in ``path`` (npz), metadata in ``path + '.json'``.

    ``meta`` should hold the training settings and seed; the package version,
    Python/numpy versions and the write time are added here. The sidecar is
    written first and the npz last, so the npz (the Snakemake output) only
    exists once both are complete.
    """
    from . import __version__

    path = Path(path)
    sidecar = dict(meta)
    sidecar.setdefault("package_version", __version__)
    sidecar.setdefault("numpy_version", np.__version__)
    sidecar.setdefault("python_version", platform.python_version())
    sidecar.setdefault("written_at_unix", time.time())
    write_json(str(path) + ".json", sidecar)
    save_npz(path, **{k: np.asarray(v) for k, v in arrays.items()})


def load_model(path: str | os.PathLike) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Load arrays and metadata written by :func:`save_model`."""
    arrays = load_npz(path)
    sidecar = Path(str(path) + ".json")
    meta = read_json(sidecar) if sidecar.exists() else {}
    return arrays, meta


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    return obj


def load_table(path: str | os.PathLike):
    """A result table by its extension: CSV -> DataFrame, JSON -> object, npz -> dict of arrays."""
    suffix = Path(path).suffix
    if suffix == ".csv":
        import pandas as pd

        return pd.read_csv(path)
    if suffix == ".json":
        return read_json(path)
    if suffix == ".npz":
        return load_npz(path)
    raise ValueError(f"{path}: no reader for {suffix!r} tables (expected .csv, .json or .npz)")


def load_tables(named_paths: Mapping[str, Any]) -> dict[str, Any]:
    """Load every named input (a Snakemake ``input`` with keys) with :func:`load_table`.

    A name bound to a list of paths gives a list of tables.
    """
    out = {}
    for name, path in dict(named_paths).items():
        if isinstance(path, (list, tuple)):
            out[name] = [load_table(p) for p in path]
        else:
            out[name] = load_table(path)
    return out
