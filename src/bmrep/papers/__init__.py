"""One folder per paper (and the calibration study): its stages, its claims and its plots.

``papers/<paper>/`` holds the paper's pipeline stages (pure functions from
settings, arrays and seeds to result tables; no file I/O), ``claims.py`` (its
claims as declarations reading the result tables, on :mod:`bmrep.claims.core`)
and ``plots.py`` (its figures, in :mod:`bmrep.plotting.style`). Papers never
import each other: what two of them share lives in the layers below
(``learning``, ``estimators``, ``sampling``, ...).

This file imports nothing: Python runs it for every module of every paper.
"""
