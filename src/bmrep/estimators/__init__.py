"""Partition-function estimators: AIS forward and reverse (RAISE), RTS and TS, TI, MBAR.

Rao-Blackwellised tempered sampling (RTS) and tempered sampling (TS), thermodynamic integration, and the
annealing models they run on RBMs and DBMs.
"""

from bmrep.public_api import lazy_face

# the public names: the modules' own __all__, loaded on first use (bmrep.public_api; docs/api.md)
__getattr__, __dir__, __all__, PUBLIC_API = lazy_face(__name__, __file__)
