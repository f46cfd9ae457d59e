"""The README is a newcomer's page (issue 53): at most 150 lines, the two commands first, every link resolving,
and the pages it links to under docs/ resolve theirs too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT

README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "config/README.md", ROOT / "CONTRIBUTING.md"]
# [text](target) links, not images; the target up to a space or the closing parenthesis
LINK = re.compile(r"(?<!\!)\[[^\]]*\]\(([^)\s]+)\)")


def links(page: Path) -> list[str]:
    return LINK.findall(page.read_text(encoding="utf-8"))


def test_the_readme_is_short_and_its_first_commands_are_the_two():
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    first_block = re.search(r"```bash\n(.*?)```", text, re.S).group(1)
    commands = [line.split("#")[0].strip() for line in first_block.splitlines() if line.strip()]
    assert commands == ["make run CORES=16", "make test"]
    assert [line for line in text.splitlines() if line.startswith("## ")][:3] == [
        "## The two commands",
        "## One figure or one paper",
        "## Profiles",
    ]
    for page in ("running", "cluster", "calibration", "publishing", "development"):
        assert f"(docs/{page}.md)" in text, page


FIRST_SCREEN_WORDS = ("[Re]", "[~Re]", "inconclusive", "profile", "evidence run")


def test_the_first_screen_defines_its_words():
    """Each word the results block uses is defined in a line of its own right below it (issue 65)."""
    lines = README.read_text(encoding="utf-8").splitlines()
    end = lines.index("<!-- published-results: end -->")
    first_screen = lines[: end + 10]
    for word in FIRST_SCREEN_WORDS:
        defined = [ln for ln in first_screen if ln.startswith(f"- **{word}**: ") and len(ln) > len(word) + 20]
        assert len(defined) == 1, f"{word!r} is not defined in a line of its own within the README's first screen"


def anchors(page: Path) -> set[str]:
    """The section anchors GitHub makes of a Markdown page's headings (lower case, punctuation dropped, spaces to
    hyphens, a repeated heading numbered), outside fenced code."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} +(.+?) *#*$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        yield slug if n == 0 else f"{slug}-{n}"


def test_anchors_follow_githubs_rule(tmp_path):
    page = tmp_path / "p.md"
    page.write_text("# Title\n## The cost table (costs.csv)\n```\n# not a heading\n```\n## Title\n")
    assert list(anchors(page)) == ["title", "the-cost-table-costscsv", "title-1"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves(page):
    """Every local link names a file that exists, and a section of it that exists (issue 65: files were checked,
    sections were not)."""
    found = links(page)
    local = [t for t in found if not re.match(r"[a-z]+://|mailto:", t)]
    missing = [t for t in local if not (page.parent / t.split("#")[0]).exists()]
    assert not missing, f"{page.relative_to(ROOT)}: links to nothing: {missing}"
    no_section = []
    for target in local:
        path, _, anchor = target.partition("#")
        file = page if not path else page.parent / path
        if anchor and file.suffix == ".md" and anchor not in set(anchors(file)):
            no_section.append(target)
    assert not no_section, f"{page.relative_to(ROOT)}: links to sections that do not exist: {no_section}"
    if page == README:
        assert len(local) >= 8  # the results, the docs pages, config/README.md, CONTRIBUTING.md
