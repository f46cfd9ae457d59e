"""The HTML report as a reader sees it: headless Chromium, element boxes and screenshots (issue 43).

The front page must be short and whole at ordinary window sizes: its title and
one line per paper inside the first screen, right of the sidebar, none of them
under the workflow's rule graph; its link opens the full verdict table in a
pane that starts at the top, right of the sidebar; that table, as a page of
its own, shows its first row in the first screen and no cell left of it.
The screenshots (``<figures_dir>/report/``, where ``make publish`` finds them)
are for a person to look at.
"""

from __future__ import annotations

import pandas as pd
import pytest

from bmrep.ops import browser
from conftest import needs_browser

pytestmark = [pytest.mark.workflow, pytest.mark.checkout, needs_browser]

SIZES = [(1400, 1000), (1600, 1100)]


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(box, left, top, right, bottom) -> bool:
    return box[0] >= left - 0.5 and box[1] >= top - 0.5 and box[2] <= right + 0.5 and box[3] <= bottom + 0.5


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_front_page_is_short_and_whole(smoke_run, size):
    res, _, _, report = smoke_run
    papers = pd.read_csv(res / "replication_summary.csv", dtype=str)["paper"].unique()
    b = browser.report_boxes(report, size)
    width, height = b["window"]
    (content,) = b["content"]
    assert content[0] > 100, f"the content pane should start right of the sidebar: {content}"
    assert len(b["papers"]) == len(papers), b["papers"]
    for what in ("heading", "papers", "link"):
        assert b[what], f"no {what} on the front page"
        for box in b[what]:
            assert _inside(box, content[0], 0, width, height), f"{what} box {box} outside the first screen {size}"
    assert b["graph"], "the rule graph is drawn beside the front page"
    for g in b["graph"]:
        for cell in b["paper_cells"]:
            assert not _overlap(g, cell), f"rule graph {g} over the per-paper table's cell {cell}"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_full_table_opens_in_its_own_pane_from_its_first_row(smoke_run, size):
    res, _, _, report = smoke_run
    b = browser.report_boxes(report, size, open_table=True)
    width, height = b["window"]
    (content,) = b["content"]
    (frame,) = b["iframe"]
    assert frame[0] >= content[0] - 0.5 and frame[1] <= 1 and frame[3] >= height - 1, (frame, content)
    # The table page itself at the pane's size (an iframe of a data: URI keeps its boxes to itself).
    pane = (int(frame[2] - frame[0]), int(frame[3] - frame[1]))
    t = browser.report_boxes(res / "verdicts.html", pane)
    summary = pd.read_csv(res / "replication_summary.csv", dtype=str)
    assert len(t["rows"]) == len(summary)
    first = t["rows"][0]
    assert 0 <= first[1] and first[3] <= pane[1], f"first row {first} not in the first screen {pane}"
    assert min(c[0] for c in t["cells"]) >= 0, "a cell starts left of the page"
    html = (res / "verdicts.html").read_text()
    assert html.count('class="verdict"') == len(summary)
    for verdict in set(summary["verdict"]):
        assert f">{verdict}</td>" in html


def test_screenshots_written_for_the_publication(smoke_run):
    _, fig, _, _ = smoke_run
    shots = sorted((fig / "report").glob("*.png"))
    names = {p.name for p in shots}
    assert {f"report_front_{w}x{h}.png" for w, h in SIZES} <= names and "report_table_1400x1000.png" in names
    assert all(p.stat().st_size > 10_000 for p in shots)
