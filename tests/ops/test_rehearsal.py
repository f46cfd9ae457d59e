"""The paper profile's rehearsal (issue 52): config/rehearsal.yaml, given after config/paper.yaml, keeps every
rule of the paper profile in its DAG (each runs at least once) while cutting only iteration and repeat counts:
the shapes the spec names (model sizes, chains, AIS runs, ladder lengths K, data and minibatch sizes, dtypes)
stay the paper's."""

from __future__ import annotations

import re

import pytest
import yaml

from conftest import ROOT, run_snakemake

pytestmark = [pytest.mark.workflow, pytest.mark.checkout]

PAPER, REHEARSAL = "config/paper.yaml", "config/rehearsal.yaml"


def job_counts(*configfiles: str) -> dict[str, int]:
    """Jobs per rule of a run from scratch (--forceall: a rehearsal already made in this checkout counts too)."""
    proc = run_snakemake("-n", "--forceall", "all", "--configfile", *configfiles, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-3000:]
    stats = out[out.index("Job stats:") :]
    return {m[0]: int(m[1]) for m in re.findall(r"^([a-z][a-z0-9_]+)\s+(\d+)$", stats, re.M) if m[0] != "total"}


def test_every_rule_of_the_paper_profile_runs_in_the_rehearsal():
    paper, rehearsal = job_counts(PAPER), job_counts(PAPER, REHEARSAL)
    assert set(rehearsal) == set(paper), sorted(set(paper) ^ set(rehearsal))
    assert all(rehearsal[r] >= 1 for r in paper)
    assert sum(rehearsal.values()) < sum(paper.values()) / 4  # cut: a fraction of the paper profile's jobs


# Keys that set a shape. n_runs is one for an AIS (its chains), a repeat count elsewhere (fig2's toy runs, fig4's
# runs per K).
SHAPE = re.compile(
    r"(^|\.)(n_hidden\d?|n_visible|n_chains|ais_runs|K|Ks|batch_size|n_train|n_test|dtype|sizes|"
    r"curve_train_subset|n_validation|tt_levels|cast_n_betas|mbar_max_K)$|_ais\.n_runs$"
)


def _leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaves(v, (*path, k))
    else:
        yield ".".join(map(str, path)), node


def test_the_rehearsal_keeps_the_papers_shapes():
    """No key that sets a shape is overridden: sizes of models, chains, AIS runs, ladders K, data, minibatches."""
    overlay = yaml.safe_load((ROOT / REHEARSAL).read_text())
    changed = [key for key, _ in _leaves(overlay) if SHAPE.search(key) and not key.startswith("calibration.models")]
    assert not changed, changed
    # the pattern does catch shapes (not vacuous)
    assert all(SHAPE.search(k) for k in ("carlson2016.fig5.n_chains", "salakhutdinov2010.evaluation.final_ais.n_runs",
                                         "carlson2016.fig4.Ks", "calibration.dtype"))  # fmt: skip
    assert not SHAPE.search("carlson2016.fig4.n_runs") and not SHAPE.search("salakhutdinov2010.train.n_updates")
    paper = yaml.safe_load((ROOT / PAPER).read_text())
    for i, m in enumerate(overlay["calibration"]["models"]):  # the calibration's models: their sizes are the paper's
        assert {k: v for k, v in m.items() if k != "sweeps"} == {
            k: v for k, v in paper["calibration"]["models"][i].items() if k != "sweeps"
        }
    for i, m in enumerate(overlay["carlson2016"]["fig3"]["models"]):
        assert m["n_hidden"] == paper["carlson2016"]["fig3"]["models"][i]["n_hidden"]


def test_make_paper_rehearsal_dry_runs_both_cuts_through_the_slurm_profile():
    """``make paper-rehearsal``'s script with --dry-run: both cuts' DAGs through profiles/slurm (so the target cannot
    rot in CI, where it does not run): the first cut every rule of the paper profile, the second the rules it names."""
    import subprocess
    import sys

    proc = subprocess.run(
        ["ci/paper_rehearsal.sh", sys.executable, "--dry-run"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600,
    )  # fmt: skip
    out = proc.stdout  # the script's lines and Snakemake's in their order
    assert proc.returncode == 0, out[-3000:]
    first, second = out.split("paper-rehearsal: second cut: ")
    named = second.splitlines()[0].split()
    stats = [
        {m[0] for m in re.findall(r"^([a-z][a-z0-9_]+)\s+(\d+)$", part[part.index("Job stats:") :], re.M)}
        for part in (first, second)
    ]
    assert set(job_counts(PAPER)) <= stats[0] | {"all"}
    assert "salakhutdinov2010_train" in named and set(named) <= stats[1], set(named) - stats[1]
    assert "saul1996_train" not in stats[1]  # only the named rules and what they need


def test_group_args_bundle_each_rule_apart_and_leave_local_rules_out(tmp_path):
    """The rehearsal submits the jobs of a rule of many up to GROUP_SIZE at a time, one group per rule, no more than
    fit in the partition's time limit together; rules declared ``localrules:`` (they never reach SLURM) belong to
    none."""
    from bmrep.ops.rehearsal import group_args, local_rules

    (tmp_path / "workflow" / "rules").mkdir(parents=True)
    (tmp_path / "Snakefile").write_text("localrules:\n    all,\n\n\nrule all:\n    input: 'x'\n")
    (tmp_path / "workflow" / "rules" / "data.smk").write_text(
        "# fetch where Snakemake runs\nlocalrules:\n    data,\n    data_mnist,\n\nrule data:\n    output: 'y'\n"
    )
    assert local_rules(tmp_path) == {"all", "data", "data_mnist"}
    runtimes = {"b_shard": 10, "all": 10, "a_train": 60, "data_mnist": 10, "c_long": 434, "d_longer": 800, "e_few": 10}
    counts = {"b_shard": 20, "all": 1, "a_train": 8, "data_mnist": 9, "c_long": 12, "d_longer": 12, "e_few": 5}
    args = group_args(runtimes, counts, local_rules(tmp_path), cap_min=1440, size=4)
    # c_long: 3 x 434 min fit in the 1440-minute limit, 4 do not (SLURM refused such a group); d_longer: 1 fits;
    # e_few: 5 jobs, fewer than two groups' worth, run one a submission (a group of 4 would run them in a row)
    assert args == ["--groups", "a_train=g_a_train", "b_shard=g_b_shard", "c_long=g_c_long",
                    "--group-components", "g_a_train=4", "g_b_shard=4", "g_c_long=3"]  # fmt: skip
    assert group_args({"all": 10}, {"all": 1}, {"all"}, cap_min=1440) == []
    assert {"all", "data_mnist"} <= local_rules(ROOT)  # the workflow's own declarations are found
