"""What the AIS benchmarks share: the best-of timer and writing their table (``bench_ais.py``, ``bench_dbm_ais.py``)."""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd


def best_of(fn, repeats):
    """Minimum thread CPU time over ``repeats`` calls (after one warm-up call).

    One BLAS thread, so the products run in this thread; CPU time rather than
    wall time, which waiting for a core inflates on a shared machine.
    """
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.thread_time()
        fn()
        times.append(time.thread_time() - t0)
    return min(times)


def write_table(rows: list[dict], out: Path) -> None:
    """Write the rows to ``out`` (csv, for ``table.py``) and print them."""
    df = pd.DataFrame(rows)
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False)
    print(df.to_string(index=False, float_format=lambda x: f"{x:.3f}"))
