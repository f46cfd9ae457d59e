"""Claims: what every paper's claims are made of, decided by the spec's verdict rule.

``core`` (the Claim declaration and its decision), ``verdict`` (the spec's
statistics), ``stats`` (estimates for metrics), ``summary`` (CSV,
REPLICATION.md and the report's front page) and ``report_pages`` (the report's
verdict pages). A paper's own claims are declared in
``bmrep/papers/<paper>/claims.py``.
"""

from bmrep.public_api import lazy_face

# the public names: the modules' own __all__, loaded on first use (bmrep.public_api; docs/api.md)
__getattr__, __dir__, __all__, PUBLIC_API = lazy_face(__name__, __file__)
