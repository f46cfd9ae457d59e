"""Data sets: raw-file fetching and verification, readers, derived sets, toys.

See ``CONTRIBUTING.md`` ("Datasets") for the files the workflow builds.
"""

from .sources import RAW_FILES, DataError, fetch, resolve_mirror  # noqa: F401
