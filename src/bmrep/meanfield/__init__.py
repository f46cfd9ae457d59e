"""Mean-field theory of sigmoid belief networks (Saul, Jaakkola & Jordan 1996).

The bound on the logistic function's expectation (eq. 13) and the network's bound, solved and trained.
"""

from bmrep.public_api import lazy_face

# the public names: the modules' own __all__, loaded on first use (bmrep.public_api; docs/api.md)
__getattr__, __dir__, __all__, PUBLIC_API = lazy_face(__name__, __file__)
