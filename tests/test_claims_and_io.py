import json

import numpy as np
import pandas as pd
import pytest

from bmrep import io
from bmrep.claims import COLUMNS, Claim, check_range, read_claims, render_markdown, write_claims


def _claim(passed):
    return Claim("p", "t", "c", "1.0", "1.1", "in [0.9, 1.2]", "smoke", passed)


def test_status_follows_passed():
    assert _claim(True).status == "pass"
    assert _claim(False).status == "fail"
    assert _claim(None).status == "not run"


def test_check_range_nan_fails():
    assert check_range(1.0, 0.0, 2.0)
    assert not check_range(float("nan"), 0.0, 2.0)


def test_claims_roundtrip_and_markdown(tmp_path):
    path = tmp_path / "claims" / "p.csv"
    write_claims(path, [_claim(True), _claim(False), _claim(None)])
    df = read_claims([path])
    assert list(df.columns) == COLUMNS
    assert df["status"].tolist() == ["pass", "fail", "not run"]
    md = render_markdown(df, {"p": ["../figures/p/fig.png"]}, "smoke", {"p": "Paper"})
    assert "## p: Paper" in md and "fig.png" in md and "❌ fail" in md


def test_unknown_status_is_rejected(tmp_path):
    path = tmp_path / "bad.csv"
    row = _claim(True).row()
    row["status"] = "maybe"
    pd.DataFrame([row]).to_csv(path, index=False)
    with pytest.raises(ValueError, match="unknown claim status"):
        read_claims([path])


def test_empty_claims_are_an_error(tmp_path):
    with pytest.raises(ValueError, match="no claims"):
        write_claims(tmp_path / "x.csv", [])


def test_atomic_write_leaves_nothing_on_failure(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(RuntimeError):
        with io.atomic_path(target) as tmp:
            tmp.write_text("partial")
            raise RuntimeError("boom")
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_model_cache_roundtrip(tmp_path):
    path = tmp_path / "models" / "m.npz"
    io.save_model(path, {"W": np.eye(2)}, {"seed": 3, "lr": 0.1})
    arrays, meta = io.load_model(path)
    np.testing.assert_array_equal(arrays["W"], np.eye(2))
    assert meta["seed"] == 3 and "package_version" in meta
    assert json.loads((tmp_path / "models" / "m.npz.json").read_text())["lr"] == 0.1
