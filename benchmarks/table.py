"""One table of every benchmark of one `make bench` run: our time, the matrix products' time, scikit-learn's.

Reads what the benchmark scripts of the same run wrote under ``benchmarks/out``
(``sweeps.csv``, ``ais.csv``, ``dbm_ais.csv``, ``dbm_update.csv``,
``small_rbm.csv``) and
prints, below the machine's CPU model and the BLAS libraries in use
(threadpoolctl: library, version, kernel architecture), one row per
operation, size and dtype:

    operation | size | dtype | ours | products | ours/products | scikit-learn | sklearn/ours | numpy loop | numpy/ours

times in microseconds per call (per sweep, AIS step or DBM update), each
operation's matrix products timed in the same run on the same arrays, and
scikit-learn's ``BernoulliRBM.gibbs`` where it does the same thing (an RBM
sweep) or ``BernoulliRBM.partial_fit`` (a small-RBM training update, also
timed through the numpy update of the same loop). The targets of issues 21
and 42 are checked against the rows and said met or not met; nothing here
is asserted (a slow machine is a measurement, not an error).

Run: ``make bench`` (all benchmarks, then this table), or
``.venv/bin/python benchmarks/table.py`` to reprint the last run's table.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent / "out"
COLUMNS = ["operation", "size", "dtype", "ours_us", "products_us", "ours/products", "sklearn_us", "sklearn/ours"]
COLUMNS += ["numpy_us", "numpy/ours"]
SMALL_RBM = "small-RBM update (PCD-1, SGD)"

# (operation, size, dtype, ratio column, bound, direction): issues 21 and 42's acceptance targets
TARGETS = [
    ("RBM Gibbs sweep", "784x500", "float64", "ours/products", 1.05, "<="),
    ("RBM Gibbs sweep", "784x500", "float32", "ours/products", 1.05, "<="),
    ("RBM Gibbs sweep", "784x10", "float64", "sklearn/ours", 5.0, ">="),
    ("RBM Gibbs sweep", "784x10", "float32", "sklearn/ours", 5.0, ">="),
    ("DBM update (SAP)", "784-500-1000", "float32", "ours/products", 1.25, "<="),
    (SMALL_RBM, "16x16", "float64", "sklearn/ours", 5.0, ">="),
]


def _row(operation, size, dtype, ours_s, products_s, sklearn_s=None) -> dict:
    return {
        "operation": operation,
        "size": size,
        "dtype": dtype,
        "ours_us": 1e6 * ours_s,
        "products_us": 1e6 * products_s,
        "ours/products": ours_s / products_s,
        "sklearn_us": None if sklearn_s is None else 1e6 * sklearn_s,
        "sklearn/ours": None if sklearn_s is None else sklearn_s / ours_s,
    }


def sweep_rows(df: pd.DataFrame) -> list[dict]:
    """RBM sweeps (``bench_sweeps.py``): the ratios are the medians of per-block ratios it recorded."""
    rows = []
    for _, r in df.iterrows():
        size = f"{r['size']}, {r['chains']} chains"
        for op, col, skl in (("RBM Gibbs sweep", "G_sweep", True), ("RBM flip-the-state sweep", "T_sweep", False)):
            row = _row(op, size, r["dtype"], r[col], r["products_numpy"], r["sklearn_gibbs"] if skl else None)
            if col == "G_sweep":  # paired per-block medians, less noisy than the ratio of medians
                row["ours/products"], row["sklearn/ours"] = r["G/products"], r["sklearn/G"]
            rows.append(row)
    return rows


def ais_rows(df: pd.DataFrame) -> list[dict]:
    """AIS steps and simulated-tempering sweeps of a 784x500 RBM, 100 chains (``bench_ais.py``)."""
    rows = []
    for dtype, g in df.groupby("dtype", sort=False):
        mm = g.loc[g["what"] == "matrix products alone", "ms_per_step"].item() * 1e-3
        for _, r in g[g["what"] != "matrix products alone"].iterrows():
            rows.append(_row(r["what"], "784x500, 100 chains", dtype, r["ms_per_step"] * 1e-3, mm))
    return rows


def dbm_ais_rows(df: pd.DataFrame) -> list[dict]:
    """DBM AIS steps of salakhutdinov2010's evaluation and calibration (``bench_dbm_ais.py``)."""
    rows = []
    for (size, chains), g in df.groupby(["size", "chains"], sort=False):
        mm = g.loc[g["what"] == "matrix products alone", "ms_per_step"].item() * 1e-3
        ours = g.loc[g["what"] == "AIS step", "ms_per_step"].item() * 1e-3
        rows.append(_row("DBM AIS step", f"{size}, {chains}", "float32", ours, mm))
    return rows


def dbm_rows(df: pd.DataFrame) -> list[dict]:
    """Whole DBM training updates against the products of one update (``bench_dbm_update.py``)."""
    rows = []
    for dtype, g in df.groupby("dtype", sort=False):
        products = dict(zip(g["what"], g["ms_per_update"] * 1e-3, strict=True))
        mm = products["matrix products of one update (numpy alone)"]
        for _, r in g[g["what"].str.startswith("whole update: ")].iterrows():
            alg = r["what"].removeprefix("whole update: ")
            # a Trans-SAP update every update has its own products (its transition's sweeps), where measured
            own = products.get(f"matrix products of one update: {alg}", mm)
            rows.append(_row(f"DBM update ({alg})", "784-500-1000", dtype, r["ms_per_update"] * 1e-3, own))
    return rows


def small_rbm_rows(df: pd.DataFrame) -> list[dict]:
    """Small-RBM training updates (``bench_small_rbm.py``): against scikit-learn's and the numpy update."""
    rows = []
    for _, r in df.iterrows():
        row = {"operation": SMALL_RBM, "size": f"{r['size']}, minibatch {r['batch']}", "dtype": "float64"}
        row.update({"ours_us": 1e6 * r["ours_s"], "sklearn_us": 1e6 * r["sklearn_s"], "numpy_us": 1e6 * r["numpy_s"]})
        row.update({"sklearn/ours": r["sklearn/ours"], "numpy/ours": r["numpy/ours"]})
        rows.append(row)
    return rows


def machine_lines() -> list[str]:
    """The CPU model and the BLAS libraries (with the kernel each picked for this CPU): ratios depend on both."""
    from threadpoolctl import threadpool_info

    info = {}
    for ln in _cpuinfo():
        key, _, value = ln.partition(":")
        info.setdefault(key.strip(), value.strip())
    cpu = info.get("model name", "unknown CPU")
    if "cpu family" in info:  # a VM may show only the vendor's name
        avx = "AVX-512" if "avx512f" in info.get("flags", "").split() else "no AVX-512"
        cpu += f" (family {info['cpu family']}, model {info.get('model', '?')}, {avx}, {os.cpu_count()} logical CPUs)"
    blas = [
        f"{i.get('internal_api')} {i.get('version')} ({i.get('architecture', '?')} kernels), {Path(i['filepath']).name}"
        for i in threadpool_info()
        if i.get("user_api") == "blas"
    ]
    return [f"CPU: {cpu}", *(f"BLAS: {b}" for b in blas)]


def _cpuinfo() -> list[str]:
    try:
        return Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return []


def table() -> pd.DataFrame:
    readers = {"sweeps.csv": sweep_rows, "ais.csv": ais_rows, "dbm_ais.csv": dbm_ais_rows, "dbm_update.csv": dbm_rows}
    readers["small_rbm.csv"] = small_rbm_rows
    missing = [name for name in readers if not (OUT / name).exists()]
    if missing:
        sys.exit(f"benchmarks/table.py: no {', '.join(missing)} under {OUT}: run `make bench` first")
    rows = [row for name, read in readers.items() for row in read(pd.read_csv(OUT / name))]
    return pd.DataFrame(rows, columns=COLUMNS)


def target_lines(df: pd.DataFrame) -> list[str]:
    lines = []
    for op, size, dtype, col, bound, sense in TARGETS:
        hit = df[(df["operation"] == op) & (df["size"].str.split(",").str[0] == size) & (df["dtype"] == dtype)]
        if hit.empty:
            lines.append(f"  {op} {size} {dtype}: not measured")
            continue
        x = float(hit[col].iloc[0])
        met = x <= bound if sense == "<=" else x >= bound
        lines.append(f"  {op} {size} {dtype}: {col} = {x:.2f} (target {sense} {bound:g}) {'met' if met else 'NOT met'}")
    return lines


def main() -> None:
    df = table()
    df.to_csv(OUT / "bench_table.csv", index=False)
    times = ("ours_us", "products_us", "sklearn_us", "numpy_us")
    ratios = ("ours/products", "sklearn/ours", "numpy/ours")
    fmt = {c: (lambda x: "" if pd.isna(x) else f"{x:,.1f}") for c in times}
    fmt.update({c: (lambda x: "" if pd.isna(x) else f"{x:.2f}") for c in ratios})
    import numpy  # noqa: F401  (loads numpy's BLAS, so that threadpoolctl lists it)
    import scipy.linalg  # noqa: F401  (scipy's: the sweep kernels' ?gemm)

    print("\n".join(machine_lines()))
    print("one thread; times in us per call; products = the operation's own matrix products in the same run")
    print(df.to_string(index=False, formatters=fmt))
    print("issue 21 and 42 targets:")
    print("\n".join(target_lines(df)))
    print(f"wrote {OUT / 'bench_table.csv'}")


if __name__ == "__main__":
    main()
