"""The hidden resolution ``s`` of Yokoyama et al. (2019): config value and table label.

``X(s) = {(2k - s)/s : k = 0..s}`` (eq. 1), ``X(inf) = [-1, 1]``; the config
writes ``s`` as an integer or the string ``'inf'``, the result tables as the
labels ``'1'``, ``'2'``, ..., ``'inf'``.
"""

from __future__ import annotations

import math

from ...models.multivalued import check_s


def s_label(s) -> str:
    """``'1'``, ``'2'``, ..., ``'inf'``: a readable key for ``s``."""
    s = check_s(s)
    return "inf" if math.isinf(s) else str(int(s))


def parse_s(value) -> float:
    """Config value (int or the string ``'inf'``) to ``s``."""
    return check_s(math.inf if str(value).lower() in ("inf", "infinity") else value)
