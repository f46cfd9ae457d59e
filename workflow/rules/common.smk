# Helpers shared by all rules: output locations, seeds, shard lists, the
# software environment.
#
# Every path is built by results(), figures(), data() or logs(): each profile
# has its own roots (config keys results_dir, figures_dir), so smoke outputs
# never overwrite default ones.

import os
import re
import sys
from pathlib import Path

from bmrep.pipeline.code_digest import source_digest
from bmrep.pipeline.config_check import ConfigError, validate_config
from bmrep.seeds import shard_ranges

# The software environment of all rules (for conda users, --sdm conda).
CONDA_ENV = str(Path(workflow.basedir) / "environment.yml")

# the five papers, then the calibration study beyond them (issue 23), a section like a paper
PAPERS = ["saul1996", "yokoyama2019", "salakhutdinov2010", "carlson2016", "bruegge2013", "calibration"]
PROFILE = config["profile"]
SEED = int(config["seed"])
RESULTS = config["results_dir"].rstrip("/")
FIGURES = config["figures_dir"].rstrip("/")
# Targets registered by each paper (paper -> list of output paths).
PAPER_TARGETS = {p: [] for p in PAPERS}
# Figures registered by each paper for REPLICATION.md.
PAPER_FIGURES = {p: [] for p in PAPERS}


def validate(section, schema):
    """Validate a paper's config section (one-line error naming the key).

    ``schema`` is relative to the calling rule file, like Snakemake's validate.
    """
    path = Path(workflow.current_basedir) / schema
    prefix = Path(schema).name.split(".")[0]
    try:
        validate_config(section, path, prefix=prefix)
    except ConfigError as err:
        sys.exit(str(err))


def code_version(script):
    """Digest of the bmrep code ``script`` (under workflow/scripts/) imports.

    Each rule passes it as its ``code`` param, so a change to that library
    code reruns the job, as a change to the script itself does.
    """
    return source_digest(Path(workflow.basedir) / "workflow" / "scripts" / script)


def results(path):
    return f"{RESULTS}/{path}"


def figures(path):
    return f"{FIGURES}/{path}"


def data(path):
    return f"{RESULTS}/data/{path}"


def logs(path):
    return f"{RESULTS}/logs/{path}"


# Snakemake's benchmark record of a job (wall time, CPU time, peak memory of the job's whole process
# tree, polled): logs/benchmarks/<the job log's path>.tsv; read by bmrep.ops.costs and the
# paper-profile rehearsal (docs/paper-rehearsal.md)
def benchmarks(path):
    return f"{RESULTS}/logs/benchmarks/{path}"


def enabled(paper):
    return paper in config["papers"]


def paper_config(paper):
    """The config section of ``paper`` (validated against its own schema)."""
    return config[paper]


def settings(section, *keys):
    """The keys of a config section (``"paper"`` or ``"paper.sub"``) that one rule's script reads.

    A rule passes only these as its params, so a change to another key (say,
    one figure's setting) does not rerun it.
    """
    node = config
    for part in section.split("."):
        if not isinstance(node, dict) or part not in node:
            sys.exit(f"config: no section {section}")
        node = node[part]
    missing = [k for k in keys if k not in node]
    if missing:
        sys.exit(f"config: {section} has no key(s) {missing}")
    return {k: node[k] for k in keys}


def shards(n_repeats, shard_size):
    """Shard indices 0..S-1 for ``n_repeats`` repeats in shards of ``shard_size``."""
    return list(range(len(shard_ranges(int(n_repeats), int(shard_size)))))


def shard_repeats(n_repeats, shard_size, shard):
    """The repeat indices (a range) of shard ``shard``."""
    return shard_ranges(int(n_repeats), int(shard_size))[int(shard)]


def claims_file(paper):
    return results(f"claims/{paper}.csv")


def all_targets():
    out = []
    for p in PAPERS:
        if enabled(p):
            out += PAPER_TARGETS[p] + [claims_file(p)]
    out += DATA_TARGETS  # defined in data.smk
    out += [results("replication_summary.csv"), results("REPLICATION.md"), results("claims/declared.csv")]
    return out


wildcard_constraints:
    shard=r"\d+",


def pairs_expand(pairs, pattern):
    """``pattern`` (with {algorithm} and {repeat}) for each (algorithm, repeat) of ``pairs``.

    An expand over pairs, not over the product of algorithms and seeds: an algorithm may run on fewer seeds.
    """
    return [expand(pattern, algorithm=a, repeat=r)[0] for a, r in pairs]


def adopted_models(directory, seeds, algorithms):
    """What the published-models directory ``directory`` ("" for none) holds for this run.

    ``pretrained``: the seeds with a published pretraining; ``published``: seed -> the algorithms published for it
    (model, curve and final evaluation), seeds without any left out. Each (seed, algorithm) pair is adopted on
    its own (:func:`adopted_pairs_constraint`): a seed may have more algorithms than another (the schedule run
    trains FPCD and Trans-SAP on seed 0 alone), and a pair published later is adopted by the next run.
    """
    none = {"pretrained": [], "published": {}}
    if not directory:
        return none
    if not Path(directory).is_dir():
        raise ValueError(
            f"invalid config: salakhutdinov2010.adopt_dir: {directory} is not a directory "
            "(the published models to take instead of training; null for none)"
        )

    def has(r, name):
        return Path(f"{directory}/seed{r}/{name}").is_file()

    published = {
        r: [a for a in algorithms if all(has(r, f"{a}{end}") for end in (".npz", "_curve.csv", "_final.json"))]
        for r in seeds
    }
    return {
        "pretrained": [r for r in seeds if has(r, "pretrained.npz")],
        "published": {r: algs for r, algs in published.items() if algs},
    }


def adopted_pairs_constraint(published, endings):
    """A ``repeat`` wildcard constraint that matches a seed only when the path goes on to one of its algorithms.

    ``published`` maps a seed to its published algorithms (:func:`adopted_models`), ``endings`` are the file
    endings after ``{algorithm}`` in the rule's outputs. Each seed's alternative carries a lookahead on the rest of
    the path, so a rule with ``seed{repeat}/{algorithm}<ending>`` outputs matches exactly the published pairs (a
    constraint per wildcard alone would also match a seed's unpublished algorithm that another seed has).
    """
    ends = "|".join(re.escape(e) for e in endings)
    return "|".join(
        rf"{r}(?=/(?:{'|'.join(re.escape(a) for a in algs)})(?:{ends})$)" for r, algs in sorted(published.items())
    )
