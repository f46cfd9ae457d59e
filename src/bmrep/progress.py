"""Progress of long work: a log line per tenth of it, with the elapsed time and the time left.

Loops that can run for minutes (training updates, annealing ladders, repeats)
wrap their range in :func:`track`::

    for t in track(range(n_updates), "SAP updates"):
        ...

The lines go to the ``bmrep.progress`` logger, which ``runtime.setup_job``
sends to the job's log file and to the terminal; outside a workflow job
(tests, notebooks) nothing is configured and nothing is printed. Only the
outermost tracked loop reports, so a loop inside a tracked loop stays quiet.
A loop reports only once it has run for ``BMREP_PROGRESS_AFTER`` seconds
(environment variable; default 10), so the many loops that take well under a
second do not fill the logs; once it has reported, its last line (100%) is
always written.
This module sits at the bottom of the layers so that every layer may use it;
it does no file I/O of its own.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
LOG = logging.getLogger("bmrep.progress")
_depth = [0]
AFTER_VARIABLE = "BMREP_PROGRESS_AFTER"


def _quiet_seconds() -> float:
    """Seconds a loop runs before its first line (``BMREP_PROGRESS_AFTER``, default 10)."""
    value = os.environ.get(AFTER_VARIABLE, "10")
    try:
        return max(0.0, float(value))
    except ValueError:
        raise ValueError(f"{AFTER_VARIABLE}={value!r} is not a number of seconds") from None


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h:d}:{m:02d}:{s:02d}" if h else f"{m:d}:{s:02d}"


def track(items: Iterable[T], what: str, total: int | None = None, steps: int = 10) -> Iterator[T]:
    """Yield ``items``, logging ``what: i/total (p%), elapsed, left`` at every ``1/steps`` of ``total``.

    ``total`` defaults to ``len(items)``; without either the loop is not reported.
    Marks passed in the first ``BMREP_PROGRESS_AFTER`` seconds are not logged.
    """
    if total is None:
        total = len(items) if hasattr(items, "__len__") else 0
    report = _depth[0] == 0 and total > 0
    _depth[0] += 1
    start = time.monotonic()
    quiet = _quiet_seconds() if report else 0.0
    next_mark = 1
    try:
        for i, item in enumerate(items, start=1):
            yield item
            if report and i * steps >= next_mark * total:
                next_mark = i * steps // total + 1
                elapsed = time.monotonic() - start
                if elapsed < quiet:  # a short loop stays quiet; a long one reports from here on
                    continue
                left = elapsed / i * (total - i)
                LOG.info(
                    "%s: %d/%d (%d%%), %s elapsed, %s left",
                    what,
                    i,
                    total,
                    100 * i // total,
                    _clock(elapsed),
                    _clock(left),
                )
    finally:
        _depth[0] -= 1
