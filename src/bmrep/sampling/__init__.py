"""Sampling: per-chain random streams, layer-wise operators, DBM Gibbs chains, tempering, ladders, HMC.

The operators (Gibbs, flip-the-state) are compiled; tempering is parallel, simulated, by tempered transitions
or Wang-Landau; ``transition_matrix`` gives exact transition matrices of small models.
"""

from bmrep.public_api import lazy_face

# the public names: the modules' own __all__, loaded on first use (bmrep.public_api; docs/api.md)
__getattr__, __dir__, __all__, PUBLIC_API = lazy_face(__name__, __file__)
