"""Fetching raw data files: local mirror first, then public URLs, SHA-256 verified.

A raw file is identified by its name relative to the mirror (e.g.
``mnist/train-images-idx3-ubyte``). :func:`fetch` looks for it in the mirror
directory, as is or gzip-compressed (``.gz``), then tries the public URLs in
order; it decompresses, checks the SHA-256 of the *decompressed* content
(mirrors may recompress) and writes the result atomically. Any failure raises
:class:`DataError` with one message naming the file, what was expected and
how to fix it; nothing partial is left behind.
"""

from __future__ import annotations

import gzip
import os
import shutil
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from ..io import atomic_path, sha256_of


class DataError(RuntimeError):
    """A data file is missing, corrupt or unreadable."""

    user_facing = True


@dataclass(frozen=True)
class RawFile:
    """One raw data file of the mirror: where it lives, its checksum, and how to obtain it."""

    name: str  # path relative to the mirror, decompressed form
    sha256: str  # of the decompressed content
    urls: tuple[str, ...] = ()
    how_to_get: str = ""


_MNIST_BASES = (
    "https://storage.googleapis.com/cvdf-datasets/mnist/",
    "https://ossci-datasets.s3.amazonaws.com/mnist/",
)


def _mnist(name: str, sha: str) -> RawFile:
    return RawFile(f"mnist/{name}", sha, tuple(b + name + ".gz" for b in _MNIST_BASES))


# SHA-256 values: shared/data/PROVENANCE.md (MNIST: decompressed IDX) and
# shared/data/SHA256SUMS (USPS, dna: stored uncompressed).
RAW_FILES: dict[str, RawFile] = {
    f.name: f
    for f in [
        _mnist("train-images-idx3-ubyte", "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db"),
        _mnist("train-labels-idx1-ubyte", "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5"),
        _mnist("t10k-images-idx3-ubyte", "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7"),
        _mnist("t10k-labels-idx1-ubyte", "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2"),
        RawFile(
            "usps/usps.h5",
            "734f88c541104a956d88be2c95d03b4a463ffd74ccc2ba9c80841fb98e3fcb36",
            (),
            "USPS has no stable direct URL: download usps.h5 (Kaggle dataset 'bistaumanga/usps-dataset', "
            "https://www.kaggle.com/datasets/bistaumanga/usps-dataset) into <mirror>/usps/usps.h5, the mirror being "
            "DATA_MIRROR or the config's data_mirror",
        ),
        RawFile(
            "dna/dna.scale",
            "f74937ccb8908628058ae1819d4d46c960ce64383f622c994d4f2e6e21026494",
            ("https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass/dna.scale",),
        ),
        RawFile(
            "dna/dna.scale.t",
            "d2eeed170e4e38ae2aba6aa4cd27a8ca4ecceb01a7751e8e509bb4e1a6bcef39",
            ("https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass/dna.scale.t",),
        ),
    ]
}


def resolve_mirror(config_mirror: str | None) -> str | None:
    """The mirror directory: ``DATA_MIRROR`` if set, else the config's ``data_mirror``."""
    env = os.environ.get("DATA_MIRROR")
    return env if env else (config_mirror or None)


def _copy_decompressed(src: Path, dst: Path) -> None:
    opener = gzip.open if src.suffix == ".gz" else open
    try:
        with opener(src, "rb") as fin, open(dst, "wb") as fout:
            shutil.copyfileobj(fin, fout, 1 << 20)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise DataError(f"{src}: unreadable ({exc}); replace it with an intact copy") from exc


def _sources(raw: RawFile, mirror: str | None, allow_download: bool) -> tuple[list, list[str]]:
    """Where ``raw`` can come from (kind, path or URL), mirror first; and the mirror paths looked at."""
    tried = []
    candidates: list[tuple[str, Path | str]] = []
    if mirror:
        m = Path(mirror)
        for cand in (m / raw.name, m / (raw.name + ".gz")):
            tried.append(str(cand))
            if cand.exists():
                candidates.append(("mirror", cand))
                break
    if not candidates and allow_download:
        for url in raw.urls:
            candidates.append(("url", url))
    return candidates, tried


def unreachable(raw: RawFile, mirror: str | None, allow_download: bool = True) -> str | None:
    """The one-line reason ``raw`` has no source at all, or None when the mirror holds it or a URL may serve it.

    Decided without the network, so that a run can stop before its first job
    (USPS has no public URL: without a mirror copy the only hint is where to
    get it), rather than when the data job fails.
    """
    candidates, tried = _sources(raw, mirror, allow_download)
    if candidates:
        return None
    where = f"mirror {mirror!r} (looked for {', '.join(tried)})" if mirror else "no data mirror configured"
    hint = raw.how_to_get or (
        "set data_mirror in the config or the DATA_MIRROR environment variable to a directory holding it"
        + (f", or allow downloads from {raw.urls[0]}" if raw.urls else "")
    )
    return f"{raw.name}: not found ({where}); {hint}"


def fetch(raw: RawFile, dest: str | os.PathLike, mirror: str | None, allow_download: bool = True) -> str:
    """Materialise ``raw`` (decompressed, verified) at ``dest``; return where it came from."""
    dest = Path(dest)
    candidates, tried = _sources(raw, mirror, allow_download)
    if not candidates:
        raise DataError(unreachable(raw, mirror, allow_download))
    # a mirror that was looked in and did not hold the file is named first: on a machine without
    # internet the download errors alone (DNS failures) do not say where the file was expected
    errors = (
        [f"mirror {mirror!r}: not found (looked for {', '.join(tried)})"]
        if tried and not any(kind == "mirror" for kind, _ in candidates)
        else []
    )
    for kind, src in candidates:
        try:
            with atomic_path(dest) as tmp:
                if kind == "mirror":
                    _copy_decompressed(Path(src), tmp)
                else:
                    dl = tmp.with_name(tmp.name + (".gz" if str(src).endswith(".gz") else ".part"))
                    try:
                        urllib.request.urlretrieve(str(src), dl)  # noqa: S310 - fixed public URLs
                        _copy_decompressed(dl, tmp)
                    finally:
                        dl.unlink(missing_ok=True)
                digest = sha256_of(tmp)
                if digest != raw.sha256:
                    raise DataError(
                        f"{raw.name}: checksum mismatch for {src}: SHA-256 of the decompressed content is "
                        f"{digest}, expected {raw.sha256}; the file is corrupt or a different version: "
                        "replace it with the original"
                    )
            return f"{kind}:{src}"
        except DataError as exc:
            if kind == "mirror":
                raise
            errors.append(str(exc))
        except OSError as exc:
            errors.append(f"{src}: {exc}")
    raise DataError(f"{raw.name}: every source failed: " + " | ".join(errors))


__all__ = [
    "RAW_FILES",
    "DataError",
    "RawFile",
    "resolve_mirror",
    "unreachable",
    "fetch",
]
