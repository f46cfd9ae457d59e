"""Claims: the papers' statements as declarations, decided by the spec's verdict rule.

``core`` (the Claim declaration and its decision), ``verdict`` (the spec's
statistics), ``stats`` (estimates for metrics), ``summary`` (CSV and
REPLICATION.md), and one module per paper holding that paper's claims.

``legacy`` is the pass/fail format being replaced paper by paper; its names
are re-exported here until the last paper has moved.
"""

from .legacy import COLUMNS, STATUSES, Claim, check_close, check_less, check_range, fmt, read_claims, render_markdown, write_claims, write_summary  # noqa: F401
