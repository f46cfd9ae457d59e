"""The published results (``docs/results/<profile>/``, written by ``make publish``) as the README shows them.

The README opens with a block between :data:`BEGIN` and :data:`END` that
:func:`rewrite_readme` renders from the published files (each paper's verdict
line from ``REPLICATION.md``, the commit from ``RUN.md``), so no verdict is
ever typed into the README by hand. :func:`figure_links` lists the files a
published ``REPLICATION.md`` links to (a test checks that they exist).
"""

from __future__ import annotations

import re
from pathlib import Path

BEGIN = "<!-- published-results: begin (written by `make publish` from docs/results/; do not edit) -->"
END = "<!-- published-results: end -->"
PROFILES = ("default", "paper")
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def paper_lines(replication_md: str) -> list[str]:
    """The per-paper verdict lines (``- paper: counts [Re]``) at the top of a REPLICATION.md."""
    lines = replication_md.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Profile: "))
    out = []
    for line in lines[start + 1 :]:
        if line.startswith("- "):
            out.append(line)
        elif out:
            break
    return out


def commit_of(run_md: str) -> str:
    """The commit RUN.md names (``- commit: `<hash>```), with its note on uncommitted changes if any."""
    m = re.search(r"^- commit: `([0-9a-f]+|unknown)`(.*)$", run_md, re.M)
    if not m:
        raise ValueError("RUN.md names no commit")
    return m.group(1)[:12] + m.group(2)


def figure_links(replication_md: str) -> list[str]:
    """Every relative link of a REPLICATION.md (its figures), in order."""
    return [link for link in _LINK.findall(replication_md) if "://" not in link]


def block(published: Path) -> str:
    """The README's block, from ``published/<profile>/`` for each profile published, then each evidence run."""
    lines = [BEGIN, ""]
    found = [p for p in PROFILES if (published / p / "REPLICATION.md").is_file()]
    if not found:
        lines += ["No run is published yet: after a default run, `make publish` writes `docs/results/default/`."]
    for profile in found:
        d = published / profile
        what = "the default profile" if profile == "default" else "the paper profile (the papers' own settings)"
        lines += [
            f"**Results of {what}**, from commit `{commit_of((d / 'RUN.md').read_text())}` "
            f"([claim by claim]({d}/REPLICATION.md), [how it ran]({d}/RUN.md)):",
            "",
            *paper_lines((d / "REPLICATION.md").read_text()),
            "",
        ]
    for d in sorted(p.parent for p in published.glob("evidence/*/REPLICATION.md")):
        run = (d / "RUN.md").read_text()
        what = re.search(r"^- what it settles: (.+)$", run, re.M)
        lines += [
            f"**Evidence run `{d.name}`**{': ' + what.group(1) if what else ''}, from commit `{commit_of(run)}` "
            f"([claim by claim]({d}/REPLICATION.md), [how it ran]({d}/RUN.md)):",
            "",
            *paper_lines((d / "REPLICATION.md").read_text()),
            "",
        ]
    return "\n".join(lines).rstrip("\n") + "\n\n" + END


def root_of(out: Path, profile: str) -> Path:
    """The directory every profile is published under, from one publication's directory ``out``.

    docs/results for docs/results/default (profile ``default``) and for docs/results/evidence/<name>.
    """
    return out.parents[len(Path(profile).parts) - 1]


def rewrite_readme(readme: Path, published: Path) -> None:
    """Replace the README's block by :func:`block` (inserted after the title if the README has none)."""
    text = readme.read_text()
    new = block(published)
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + new + rest.split(END, 1)[1]
    else:
        title, _, rest = text.partition("\n")
        text = f"{title}\n\n{new}\n{rest}"
    readme.write_text(text)


def readme_block(readme_text: str) -> str:
    """The block as it stands in a README (for the test that it matches the published files)."""
    if BEGIN not in readme_text or END not in readme_text:
        raise ValueError(f"README has no block between {BEGIN!r} and {END!r}")
    return BEGIN + readme_text.split(BEGIN, 1)[1].split(END, 1)[0] + END
