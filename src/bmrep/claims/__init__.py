"""Claims: the papers' statements as declarations, decided by the spec's verdict rule.

``core`` (the Claim declaration and its decision), ``verdict`` (the spec's
statistics), ``stats`` (estimates for metrics), ``summary`` (CSV,
REPLICATION.md and the report's front page), and one module per paper
holding that paper's claims.
"""
