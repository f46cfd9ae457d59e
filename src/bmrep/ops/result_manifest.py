"""A manifest of SHA-256 hashes of a profile's result files, for refactoring.

``python -m bmrep.ops.result_manifest write RESULTS_DIR MANIFEST`` records a hash
of every result file; ``... check RESULTS_DIR MANIFEST`` compares (exit 1 on
any difference, each one named). A refactoring commit must reproduce the
committed manifest of the smoke profile (``make smoke-hash``); a commit that
changes numbers on purpose says why and rewrites it.

What is hashed is the numbers, not provenance: JSON sidecar keys that record
time, versions, the settings echo or an archive's checksum are dropped (a
sidecar left empty by that, an intermediate's checksum, is no result); CSVs and npz archives are
hashed by content, without columns of measured CPU time (:data:`VOLATILE_COLUMNS`). Logs and
the rendered claims/summary files (a presentation of the numbers, whose format the claim
framework owns) are not results here.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import sys
from pathlib import Path

import numpy as np

SKIP_DIRS = ("logs", "claims")
SKIP_FILES = ("replication_summary.csv", "REPLICATION.md", "report_front.rst", "report.html", "report_screenshot.png")
SKIP_SUFFIXES = (".log", ".html", ".png")
# Provenance, not results: wall-clock times, software versions, the settings echo,
# and the SHA-256 of an archive (bmrep.io sidecars) whose arrays are hashed themselves.
VOLATILE_KEYS = ("seconds", "training_seconds", "seconds_per_update", "train_seconds_per_update",
                 "numpy_version", "package_version", "python_version", "settings", "written_at_unix",
                 "sha256", "exact_seconds")  # fmt: skip
# Measured CPU time as a table column or an npz array (the calibration study's cost): not hashed.
# A CSV or archive without such a column is hashed exactly as before.
VOLATILE_COLUMNS = ("cpu_seconds", "cpu_seconds_se")


def _strip(obj):
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in VOLATILE_KEYS}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def file_digest(path: Path) -> str:
    """SHA-256 of a result file's numbers.

    JSON is hashed without its :data:`VOLATILE_KEYS`, an npz archive by each
    array's name, dtype, shape and bytes, any other file by its bytes.
    """
    h = hashlib.sha256()
    if path.suffix == ".json":
        h.update(json.dumps(_strip(json.loads(path.read_text())), sort_keys=True).encode())
    elif path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as z:
            for key in sorted(k for k in z.files if k not in VOLATILE_COLUMNS):
                a = z[key]
                h.update(f"{key}:{a.dtype.str}:{a.shape}".encode())
                h.update(np.ascontiguousarray(a).tobytes())
    elif path.suffix == ".csv" and _volatile_columns(path):
        h.update(_without_volatile_columns(path))
    else:
        h.update(path.read_bytes())
    return h.hexdigest()


def _volatile_columns(path: Path) -> bool:
    with open(path, newline="") as f:
        return bool(set(next(csv.reader(f), [])) & set(VOLATILE_COLUMNS))


def _without_volatile_columns(path: Path) -> bytes:
    """The CSV's bytes with the :data:`VOLATILE_COLUMNS` dropped (rewritten by the csv module)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    keep = [i for i, name in enumerate(rows[0]) if name not in VOLATILE_COLUMNS]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for row in rows:
        w.writerow([row[i] for i in keep])
    return buf.getvalue().encode()


def _checksum_only(path: Path) -> bool:
    """An archive's sidecar that holds nothing but provenance (e.g. only its SHA-256)."""
    return path.name.endswith(".npz.json") and not _strip(json.loads(path.read_text()))


def result_files(root: Path) -> list[Path]:
    """The result files under ``root``, sorted, without logs, claims, rendered summaries and checksum sidecars."""
    out = []
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if not p.is_file() or rel.parts[0] in SKIP_DIRS or p.name in SKIP_FILES or p.suffix in SKIP_SUFFIXES:
            continue
        if _checksum_only(p):
            continue
        out.append(p)
    return out


def manifest(root: str | Path) -> dict[str, str]:
    """Digest of every result file, keyed by its path relative to ``root``."""
    root = Path(root)
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no results directory (run the profile first)")
    return {str(p.relative_to(root)): file_digest(p) for p in result_files(root)}


def compare(expected: dict[str, str], actual: dict[str, str]) -> list[str]:
    """Lines naming every file added, missing or changed."""
    lines = [f"missing: {k}" for k in sorted(set(expected) - set(actual))]
    lines += [f"new:     {k}" for k in sorted(set(actual) - set(expected))]
    lines += [f"changed: {k}" for k in sorted(set(expected) & set(actual)) if expected[k] != actual[k]]
    return lines


def main(argv: list[str]) -> int:
    """Command line: ``write|check RESULTS_DIR MANIFEST``; returns the exit status (1 on a difference)."""
    if len(argv) != 3 or argv[0] not in ("write", "check"):
        print("usage: python -m bmrep.ops.result_manifest write|check RESULTS_DIR MANIFEST", file=sys.stderr)
        return 2
    cmd, root, path = argv
    actual = manifest(root)
    if cmd == "write":
        buf = io.StringIO()
        for k, v in actual.items():
            buf.write(f"{v}  {k}\n")
        Path(path).write_text(buf.getvalue())
        print(f"wrote {len(actual)} hashes to {path}")
        return 0
    expected = {}
    for line in Path(path).read_text().splitlines():
        digest, name = line.split("  ", 1)
        expected[name] = digest
    diff = compare(expected, actual)
    for line in diff:
        print(line)
    print(f"{len(actual)} files, {len(diff)} differences from {path}")
    return 1 if diff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
