"""The two operators of Brügge et al. (2013) by name: Gibbs G and flip-the-state T (sec. 3.1)."""

from __future__ import annotations

from ...sampling.operators import operator_from_name
from .common import OPERATOR_NAMES

OPERATORS = {name: operator_from_name(name) for name in OPERATOR_NAMES}
