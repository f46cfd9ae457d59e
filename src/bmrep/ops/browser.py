"""Headless Chromium for tests that look at a rendered page (the HTML report).

Chromium is Debian's package, an optional extra (``make chromium``, as root):
``make setup`` must work for a user without root or network beyond the package
index (a cluster's login node), so nothing here is needed to run the pipeline.
Without it ``make report`` writes the report and says in one line that it took
no screenshots, and the tests that render the report skip with one line. The
flags keep it off this machine's closed network (no background services).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--virtual-time-budget=10000"]  # fmt: skip


MISSING = "no chromium on PATH: the report's screenshots and rendering tests need it (`make chromium`, as root)"


def available() -> bool:
    """Whether a Chromium executable is on ``PATH``."""
    return bool(shutil.which("chromium") or shutil.which("chromium-browser"))


def chromium() -> str:
    """The Chromium executable, or a RuntimeError saying how to install it."""
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        raise RuntimeError(MISSING)
    return exe


def _run(page: Path, *args: str, timeout: int = 120) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory() as profile:
        cmd = [chromium(), *FLAGS, f"--user-data-dir={profile}", *args, Path(page).resolve().as_uri()]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=True)


def rendered_dom(page: Path) -> str:
    """The page's DOM after its scripts ran (the report is a React app)."""
    return _run(page, "--dump-dom").stdout


def screenshot(page: Path, out: Path, size: tuple[int, int] = (1400, 1000)) -> Path:
    """A PNG of ``page`` as a window of ``size`` shows it, written to ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    _run(page, f"--window-size={size[0]},{size[1]}", f"--screenshot={out.resolve()}")
    return out


# Run in the page after the report app has drawn: the boxes a reader's eye meets, as JSON in <pre id="boxes">.
_PROBE = """<script>
window.addEventListener("load", () => setTimeout(() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const all = (sel) => Array.from(document.querySelectorAll(sel)).map(box);
  const out = {window: [window.innerWidth, window.innerHeight],
               papers: all("#papers tr.paper"), paper_cells: all("#papers td, #papers th"),
               graph: all("#rulegraph canvas"), content: all("div.grow.h-screen"),
               heading: all("h1.title"), link: all("#full-table"), iframe: all("iframe"),
               rows: all("#verdicts tbody tr"), cells: all("#verdicts td, #verdicts th")};
  const pre = document.createElement("pre"); pre.id = "boxes"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}, 3000));
</script>"""
_OPEN_TABLE = """<script>
window.addEventListener("load", () => setTimeout(() => document.getElementById("full-table").click(), 1500));
</script>"""


def _with_scripts(page: Path, scripts: str, out: Path) -> Path:
    text = Path(page).read_text(errors="replace")
    i = text.rfind("</body>")
    out.write_text(text[:i] + scripts + text[i:] if i >= 0 else text + scripts)
    return out


def report_boxes(report: Path, size: tuple[int, int], open_table: bool = False) -> dict:
    """Element boxes ``[left, top, right, bottom]`` (CSS pixels) of the report rendered at ``size``.

    Keys: window, papers (the front page's per-paper rows), paper_cells, graph (the rule graph's
    canvas), content (the pane right of the sidebar), heading, link (to the full table), iframe
    (the full table's pane, after a click on the link when ``open_table``).
    """
    import json
    import re

    with tempfile.TemporaryDirectory() as tmp:
        probe = _with_scripts(report, (_OPEN_TABLE if open_table else "") + _PROBE, Path(tmp) / "probe.html")
        dom = _run(probe, f"--window-size={size[0]},{size[1]}", "--dump-dom").stdout
    m = re.search(r'<pre id="boxes">(.*?)</pre>', dom, re.S)
    if not m:
        raise RuntimeError(f"{report}: the probe found no boxes (did the page load?)")
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def report_screenshots(report: Path, out_dir: Path, sizes=((1400, 1000), (1600, 1100))) -> list[Path]:
    """Screenshots of the report's front page at each size, and of its full verdict table at the first."""
    out_dir = Path(out_dir)
    shots = [screenshot(report, out_dir / f"report_front_{w}x{h}.png", (w, h)) for w, h in sizes]
    with tempfile.TemporaryDirectory() as tmp:
        opened = _with_scripts(report, _OPEN_TABLE, Path(tmp) / "table.html")
        w, h = sizes[0]
        shots.append(screenshot(opened, out_dir / f"report_table_{w}x{h}.png", (w, h)))
    return shots


def main(argv: list[str]) -> int:
    """``python -m bmrep.ops.browser REPORT.html OUT_DIR``: the report's screenshots (make report).

    Without Chromium: one line, exit 0 (the report itself is written; only its pictures are missing).
    """
    if len(argv) != 2:
        print("usage: python -m bmrep.ops.browser REPORT.html OUT_DIR")
        return 2
    if not available():
        print(f"make report: no screenshots of {argv[0]}: {MISSING}")
        return 0
    for shot in report_screenshots(Path(argv[0]), Path(argv[1])):
        print(f"wrote {shot}")
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
