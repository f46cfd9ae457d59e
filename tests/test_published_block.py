"""The README's block of published verdicts (bmrep.pipeline.published), on publications written here."""

from __future__ import annotations

from bmrep.pipeline import published

MD = """# Replication summary

Profile: **paper**. Claims: 3.

- saul1996: 2 reproduced, 0 not reproduced, 0 inconclusive, 0 not run **[Re]**
- calibration: not run in this publication (about 23.0 core-hours in the paper profile)

## saul1996: Saul

Figures: [fig5.png](figures/saul1996/fig5.png), [fig2.png](figures/saul1996/fig2.png)
"""


def _publish(root, profile, commit):
    d = root / profile
    d.mkdir(parents=True)
    (d / "REPLICATION.md").write_text(MD.replace("**paper**", f"**{profile}**"))
    (d / "RUN.md").write_text(f"# Run\n\n- commit: `{commit}`\n- profile: {profile}\n")


def test_block_from_published_files_and_readme_rewrite(tmp_path):
    pub = tmp_path / "docs" / "results"
    readme = tmp_path / "README.md"
    readme.write_text("# Title\n\nBody.\n")
    published.rewrite_readme(readme, pub)
    assert "No run is published yet" in published.readme_block(readme.read_text())
    _publish(pub, "default", "a" * 40)
    _publish(pub, "paper", "b" * 40)
    published.rewrite_readme(readme, pub)
    text = readme.read_text()
    block = published.readme_block(text)
    assert text.startswith("# Title\n\n" + published.BEGIN) and text.rstrip().endswith("Body.")
    assert text.count(published.BEGIN) == 1  # rewritten in place, not added again
    assert block.index("default profile") < block.index("paper profile")
    assert "`aaaaaaaaaaaa`" in block and "`bbbbbbbbbbbb`" in block
    assert block.count("- saul1996: 2 reproduced") == 2 and "- calibration: not run" in block
    assert f"({pub}/paper/REPLICATION.md)" in block


def test_figure_links():
    assert published.figure_links(MD) == ["figures/saul1996/fig5.png", "figures/saul1996/fig2.png"]
