"""The result manifest ignores measured CPU time (the calibration study's cost columns), and only that."""

from __future__ import annotations

import numpy as np

from bmrep.ops.result_manifest import file_digest


def test_cpu_seconds_column_is_not_hashed(tmp_path):
    a, b, c = tmp_path / "a.csv", tmp_path / "b.csv", tmp_path / "c.csv"
    a.write_text("model,rmse,cpu_seconds\nx,0.5,1.25\n")
    b.write_text("model,rmse,cpu_seconds\nx,0.5,3.75\n")
    c.write_text("model,rmse,cpu_seconds\nx,0.6,1.25\n")
    assert file_digest(a) == file_digest(b)  # only the CPU time differs
    assert file_digest(a) != file_digest(c)  # a number differs


def test_csv_without_cpu_columns_hashed_by_bytes(tmp_path):
    import hashlib

    p = tmp_path / "t.csv"
    p.write_text("a,b\n1,2\n")
    assert file_digest(p) == hashlib.sha256(p.read_bytes()).hexdigest()


def test_npz_cpu_seconds_array_is_not_hashed(tmp_path):
    p, q = tmp_path / "p.npz", tmp_path / "q.npz"
    np.savez(p, estimate=np.array([1.0, 2.0]), cpu_seconds=np.array([0.1, 0.2]))
    np.savez(q, estimate=np.array([1.0, 2.0]), cpu_seconds=np.array([0.3, 0.4]))
    assert file_digest(p) == file_digest(q)
    np.savez(q, estimate=np.array([1.0, 2.5]), cpu_seconds=np.array([0.1, 0.2]))
    assert file_digest(p) != file_digest(q)
