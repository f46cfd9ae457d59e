import json

import numpy as np
import pytest

from bmrep import io
from bmrep.claims.core import COLUMNS, Above, Claim, Estimate, Results, evaluate
from bmrep.claims.report_pages import render_report_front, render_verdict_page
from bmrep.claims.summary import claims_frame, declared_rows, read_claims, render_markdown, write_claims


def _decided():
    def claim(name, kind, threshold, est, unit=""):
        return Claim(id=f"p/t/{name}", kind=kind, text="x {threshold}", threshold=threshold,
                     metric=lambda _: est, unit=unit)  # fmt: skip

    cs = [
        claim("a", "exact", Above(0.0), Estimate(1.0)),
        claim("b", "one-sided", Above(0.0), Estimate(-5.0, 0.1, 10), unit="nats"),
        claim("c", "ordering", Above(0.0), Estimate(0.1, 1.0, 10), unit="%"),
        claim("d", "one-sided", Above(0.0), Estimate(1199.0, 2.0, 5), unit="steps"),
    ]
    return evaluate(cs, Results({}, profile="smoke"))


def test_claims_roundtrip_and_markdown(tmp_path):
    path = tmp_path / "claims" / "p.csv"
    write_claims(path, _decided())
    df = read_claims([path])
    assert list(df.columns) == COLUMNS
    assert df["verdict"].tolist() == ["reproduced", "not reproduced", "inconclusive", "reproduced"]
    md = render_markdown(df, {"p": ["../figures/p/fig.png"]}, "smoke", {"p": "Paper"})
    assert "## p: Paper" in md and "fig.png" in md
    # One line per paper with verdict counts and the ReScience mark.
    assert "- p: 2 reproduced, 1 not reproduced, 1 inconclusive, 0 not run **[~Re]**" in md
    # Not reproduced and inconclusive rows come first, keyed by claim id.
    body = md[md.index("| claim |") :]
    assert body.index("p/t/b") < body.index("p/t/c") < body.index("p/t/a")
    # Numbers formatted by kind: a difference labelled, units shown, steps as integers.
    assert "difference 0.1% +- 1% (n = 10)" in md
    assert "-5 nats +- 0.1 nats (n = 10)" in md
    assert "1199 +- 2 (n = 5)" in md


def test_report_pages_front_short_and_full_table_coloured():
    from docutils.core import publish_parts

    df = claims_frame(_decided())
    rst = render_report_front(df, "smoke", {"p": "Paper"}, "0123456789abcdef", "today", "r/verdicts.html", "Intro.")
    html = publish_parts(rst, writer="html")["html_body"]
    assert "Intro." in html and 'id="papers"' in html and 'id="full-table"' in html
    # one row per paper with its counts and mark; no claim on the front page
    assert html.count('class="paper"') == 1 and "[~Re]" in html and "p/t/a" not in html
    assert "results['r/verdicts.html'].data_uri" in html and "0123456789ab" in html
    page = render_verdict_page(df, "smoke", {"p": "Paper"}, None, "today")
    assert page.count('class="verdict"') == 4
    assert "background:#f8d7da" in page  # not reproduced in red
    # worst first: not reproduced, inconclusive, then reproduced
    assert page.index("p/<wbr>t/<wbr>b") < page.index("p/<wbr>t/<wbr>c") < page.index("p/<wbr>t/<wbr>a")


def test_not_run_paper_has_its_note_instead_of_counts():
    claim = _decided()[0].claim
    df = declared_rows([claim], "paper")
    assert df["verdict"].tolist() == ["not run"] and df["estimate"].tolist() == [""]
    md = render_markdown(df, {}, "paper", {"p": "Paper"}, notes={"p": "not run here (about 3.0 core-hours)"})
    assert "- p: not run here (about 3.0 core-hours)" in md and "Not run here (about 3.0 core-hours)." in md


def test_all_reproduced_is_marked_re():
    df = claims_frame(_decided()[:1])
    assert "**[Re]**" in render_markdown(df, {}, "smoke", {"p": "Paper"})


def test_unknown_verdict_and_duplicate_ids_are_rejected(tmp_path):
    path = tmp_path / "bad.csv"
    df = claims_frame(_decided())
    df.loc[0, "verdict"] = "maybe"
    df.to_csv(path, index=False)
    with pytest.raises(ValueError, match="unknown verdict"):
        read_claims([path])
    ok = tmp_path / "ok.csv"
    write_claims(ok, _decided())
    with pytest.raises(ValueError, match="duplicate claim ids"):
        read_claims([ok, ok])


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
