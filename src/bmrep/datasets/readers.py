"""Readers for the raw formats: IDX (MNIST), HDF5 (USPS), libsvm text (dna).

Every reader raises :class:`~bmrep.datasets.sources.DataError` naming the
file and what was expected when the content is not what it should be.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import numpy as np

from .sources import DataError

_IDX_DTYPES = {0x08: np.uint8, 0x09: np.int8, 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}


def read_idx(path: str | os.PathLike) -> np.ndarray:
    """Read an IDX file (LeCun's MNIST format), gzip-compressed or not."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rb") as fh:
            raw = fh.read()
    except (OSError, EOFError) as exc:
        raise DataError(f"{path}: unreadable IDX file ({exc})") from exc
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0 or raw[2] not in _IDX_DTYPES:
        raise DataError(f"{path}: not an IDX file (bad magic number {raw[:4]!r}; expected 00 00 <type> <ndim>)")
    ndim = raw[3]
    header = 4 + 4 * ndim
    dims = tuple(int.from_bytes(raw[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim))
    dtype = np.dtype(_IDX_DTYPES[raw[2]])
    expected = header + int(np.prod(dims)) * dtype.itemsize
    if len(raw) != expected:
        raise DataError(f"{path}: IDX file truncated or padded: {len(raw)} bytes, expected {expected} for shape {dims}")
    return np.frombuffer(raw, dtype=dtype, offset=header).reshape(dims).astype(dtype.newbyteorder("="))


def write_idx(path: str | os.PathLike, array: np.ndarray) -> None:
    """Write ``array`` (uint8) as IDX; gzip if the path ends in .gz (used by tests)."""
    array = np.ascontiguousarray(array, dtype=np.uint8)
    head = bytes([0, 0, 0x08, array.ndim]) + b"".join(int(d).to_bytes(4, "big") for d in array.shape)
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wb") as fh:
        fh.write(head + array.tobytes())


def read_usps_h5(path: str | os.PathLike) -> dict[str, np.ndarray]:
    """Read the USPS HDF5 file: groups train/test with datasets data (n, 256) in [0,1] and target (n,)."""
    import h5py

    out = {}
    try:
        with h5py.File(path, "r") as f:
            for part in ("train", "test"):
                if part not in f or "data" not in f[part] or "target" not in f[part]:
                    raise DataError(f"{path}: expected groups train/ and test/ each with 'data' and 'target'")
                X = np.asarray(f[part]["data"], dtype=np.float64)
                y = np.asarray(f[part]["target"]).astype(np.int64)
                if X.ndim != 2 or X.shape[1] != 256 or len(y) != len(X):
                    raise DataError(f"{path}: {part}/data has shape {X.shape}, expected (n, 256) matching target")
                out[f"X_{part}"], out[f"y_{part}"] = X, y
    except OSError as exc:
        raise DataError(f"{path}: unreadable HDF5 file ({exc})") from exc
    return out


def read_libsvm_binary(path: str | os.PathLike, n_features: int) -> tuple[np.ndarray, np.ndarray]:
    """Read a libsvm file of binary features into a dense uint8 matrix (1-based indices)."""
    rows, labels = [], []
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: unreadable libsvm file ({exc})") from exc
    for lineno, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        parts = line.split()
        try:
            labels.append(int(float(parts[0])))
            x = np.zeros(n_features, dtype=np.uint8)
            for tok in parts[1:]:
                idx, val = tok.split(":")
                j = int(idx) - 1
                if not 0 <= j < n_features:
                    raise ValueError(f"feature index {idx} outside 1..{n_features}")
                x[j] = 1 if float(val) > 0 else 0
        except ValueError as exc:
            raise DataError(f"{path}, line {lineno}: not a libsvm row ({exc})") from exc
        rows.append(x)
    if not rows:
        raise DataError(f"{path}: no rows")
    return np.array(rows), np.array(labels, dtype=np.int64)


__all__ = [
    "read_idx",
    "write_idx",
    "read_usps_h5",
    "read_libsvm_binary",
]
