"""Atomic file output, the cached-model format and checked reads.

Every output is written to a temporary file in the destination directory and
renamed into place, so a crashed or killed job never leaves a partial file
that a later run would mistake for a finished one. Files get the user's
umask (0644 under the usual 022), not ``mkstemp``'s 0600, so a shared
results directory stays readable by colleagues.

Arrays are stored as ``<name>.npz`` with a ``<name>.npz.json`` sidecar that
holds the archive's SHA-256 (and, for a cached model, its settings, seed,
package version and training time). The sidecar is written after the data,
and reading an archive checks it: a corrupted or truncated cache is one line
naming the file and the command that remakes it, not a ``BadZipFile``.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import os
import platform
import re
import shutil
import tempfile
import time
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once: os.umask can only be read by setting it, which is not thread-safe.
FILE_MODE = 0o666 & ~_umask()


class CacheError(RuntimeError):
    """A cached file is corrupt, truncated or does not match its sidecar."""

    user_facing = True  # one line in the job's log, no traceback (see runtime.setup_job)


def remake_hint(path: str | os.PathLike) -> str:
    """How to remake one result file: delete it and its sidecar, then the command that rebuilds it."""
    path = Path(path)
    parts = path.parts
    profile = ""
    if "results" in parts:
        i = parts.index("results")
        if i + 1 < len(parts) and parts[i + 1] in ("smoke", "paper"):
            profile = f" --configfile config/{parts[i + 1]}.yaml"
    return f"delete {path} and {path}.json, then remake it: snakemake --cores 1 {path}{profile}"


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; rename it to ``path`` on success.

    On an exception the temporary file is removed and ``path`` is untouched.
    The temporary name keeps the final suffix so that writers that infer the
    format from the extension (matplotlib, numpy) still work.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A job killed mid-write (SIGKILL) leaves its temporary file; the rerun clears it.
    stale = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp{re.escape(path.suffix)}")
    for old in path.parent.glob(f".{glob.escape(path.name)}.*.tmp{glob.escape(path.suffix)}"):
        if stale.fullmatch(old.name):
            with contextlib.suppress(FileNotFoundError):
                old.unlink()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".tmp{path.suffix}", dir=path.parent)
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, FILE_MODE)
        os.replace(tmp_path, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def copy_file(source: str | os.PathLike, path: str | os.PathLike) -> None:
    """Copy ``source`` to ``path`` byte for byte, atomically (:func:`atomic_path`)."""
    with atomic_path(path) as tmp:
        shutil.copyfile(source, tmp)


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


def sha256_of(path: str | os.PathLike) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sidecar_of(path: str | os.PathLike) -> Path:
    """The ``.json`` sidecar of an archive: ``x.npz`` -> ``x.npz.json``."""
    return Path(str(path) + ".json")


def save_npz(path: str | os.PathLike, **arrays: np.ndarray) -> None:
    """Write named arrays as a compressed ``.npz`` archive, then its sidecar (the SHA-256), atomically."""
    _save_archive(path, {}, arrays)


def _save_archive(path: str | os.PathLike, meta: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
    """Write ``arrays`` as an npz archive, then its sidecar: ``meta`` and the archive's SHA-256.

    The data is renamed into place before the sidecar is written, so a failed
    write (a full disk) leaves neither file behind or an archive without a
    sidecar, never a sidecar describing an archive that does not exist.
    """
    path = Path(path)
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            np.savez_compressed(fh, **arrays)
        digest = sha256_of(tmp)
    try:
        write_json(sidecar_of(path), {**dict(meta), "sha256": digest})
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        raise


def verify(path: str | os.PathLike, *, require_sidecar: bool = False) -> dict[str, Any]:
    """Check an archive against its sidecar's SHA-256; return the sidecar (empty if there is none).

    Raises :class:`CacheError` on a mismatch, or on a missing sidecar when
    ``require_sidecar`` (a cached model without one was never finished). An
    archive with no sidecar (user-supplied data) is not checked otherwise.
    """
    path = Path(path)
    side = sidecar_of(path)
    if not side.exists():
        if require_sidecar:
            raise CacheError(f"{path}: its sidecar {side.name} is missing (an interrupted write); {remake_hint(path)}")
        return {}
    try:
        meta = read_json(side)
    except (ValueError, UnicodeDecodeError):
        raise CacheError(f"{side}: not valid JSON (a corrupted sidecar); {remake_hint(path)}") from None
    expected = meta.get("sha256")
    if expected is not None and sha256_of(path) != expected:
        raise CacheError(f"{path}: content does not match the SHA-256 in its sidecar (corrupted); {remake_hint(path)}")
    return meta


def load_npz(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """Read every array of an ``.npz`` archive into memory (no pickled objects), checked against its sidecar."""
    verify(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            return {k: data[k] for k in data.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as err:
        raise CacheError(f"{path}: not a readable npz archive ({err}); {remake_hint(path)}") from None


def save_figure(fig, path: str | os.PathLike, **kwargs) -> None:
    """Save a matplotlib figure atomically."""
    kwargs.setdefault("dpi", 150)
    kwargs.setdefault("bbox_inches", "tight")
    with atomic_path(path) as tmp:
        fig.savefig(tmp, **kwargs)


def save_model(path: str | os.PathLike, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any]) -> None:
    """Cache a trained model: arrays in ``path`` (npz), metadata and SHA-256 in ``path + '.json'``.

    ``meta`` should hold the training settings and seed; the package version,
    Python/numpy versions and the write time are added here.
    """
    from . import __version__

    path = Path(path)
    sidecar = dict(meta)
    sidecar.setdefault("package_version", __version__)
    sidecar.setdefault("numpy_version", np.__version__)
    sidecar.setdefault("python_version", platform.python_version())
    sidecar.setdefault("written_at_unix", time.time())
    _save_archive(path, sidecar, {k: np.asarray(v) for k, v in arrays.items()})


def load_model(path: str | os.PathLike) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """Load arrays and metadata written by :func:`save_model`, checked against the sidecar's SHA-256."""
    verify(path, require_sidecar=True)
    return load_npz(path), read_json(sidecar_of(path))


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


def frame_arrays(df) -> dict[str, np.ndarray]:
    """One array per column of a shard's table, in column order: what :func:`save_npz` writes.

    Text columns become fixed-width unicode (npz stores no objects); :func:`concat_frames` reads them back.

    Parameters
    ----------
    df : DataFrame
        A shard's table.

    Returns
    -------
    dict of str to ndarray
        Column name to values, in column order.
    """
    import pandas as pd

    def column(c):
        if pd.api.types.is_numeric_dtype(df[c]) or pd.api.types.is_bool_dtype(df[c]):
            return df[c].to_numpy()
        return np.array([str(x) for x in df[c]], dtype=str)

    return {c: column(c) for c in df.columns}


def concat_frames(tables: Iterable[Mapping[str, np.ndarray]]):
    """The shards' tables (from :func:`frame_arrays`, read with :func:`load_npz`) concatenated into one DataFrame."""
    import pandas as pd

    return pd.concat([pd.DataFrame(dict(t)) for t in tables], ignore_index=True)


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
