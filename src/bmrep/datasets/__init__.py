"""Data sets: raw-file fetching and verification, readers, derived sets, toys.

See ``CONTRIBUTING.md`` ("Datasets") for the files the workflow builds.
"""

from bmrep.public_api import lazy_face

# the public names: the modules' own __all__, loaded on first use (bmrep.public_api; docs/api.md)
__getattr__, __dir__, __all__, PUBLIC_API = lazy_face(__name__, __file__)
