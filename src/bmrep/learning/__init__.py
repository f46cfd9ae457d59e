"""Learning: RBM and DBM training loops, negative phases, DBM samplers, pretraining, optimisers, checkpoints.

The negative phases are CD, PCD and parallel tempering; the DBM samplers those of Salakhutdinov (2010): SAP,
FPCD, Trans-SAP and CAST.
"""

from bmrep.public_api import lazy_face

# the public names: the modules' own __all__, loaded on first use (bmrep.public_api; docs/api.md)
__getattr__, __dir__, __all__, PUBLIC_API = lazy_face(__name__, __file__)
