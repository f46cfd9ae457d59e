"""Sampling: per-chain random streams and compiled layer-wise operators.

``ChainStreams`` (one PCG64 per chain), ``Gibbs``, ``FlipTheState`` and
``Blend`` (see :mod:`bmrep.sampling.operators`).
"""

from bmrep.sampling.operators import Blend, FlipTheState, Gibbs, Operator, operator_from_name
from bmrep.sampling.streams import ChainStreams

__all__ = ["ChainStreams", "Gibbs", "FlipTheState", "Blend", "Operator", "operator_from_name"]
