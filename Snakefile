# Replication pipeline for five papers on Boltzmann machines and belief networks.
#
#   snakemake --cores 16 all                                # default profile
#   snakemake --cores 2 all --configfile config/smoke.yaml  # CI smoke profile
#   snakemake --cores 16 all --configfile config/paper.yaml # paper scale
#
# A profile file given with --configfile is merged over config/config.yaml.
# The workflow profile profiles/default (resume after an interruption, keep
# going past a failed job) is loaded by Snakemake itself. `bmrep-run` (what
# `make run` calls) takes the same arguments and checks the config files and
# --config values first. See README.md and config/README.md.

import sys
from pathlib import Path

from snakemake.utils import min_version

from bmrep.pipeline.cli import clear_stale_locks_at_start, repeated_config_file_options
from bmrep.pipeline.config_check import ConfigError, validate_config
from bmrep.learning.checkpoint import remove_accepted
from bmrep.pipeline.memory import declare as declare_memory

min_version("9.0")

# Snakemake keeps only the last of several --configfile options, silently.
if _repeated := repeated_config_file_options(sys.argv[1:]):
    sys.exit(_repeated)

# A run killed with SIGKILL leaves its locks: the same command would stop with "Directory cannot be
# locked". Remove them when no live Snakemake process in this directory holds them (bmrep.pipeline.cli).
clear_stale_locks_at_start(sys.argv[1:])


configfile: "config/config.yaml"


try:
    validate_config(config, workflow.source_path("workflow/schemas/config.schema.yaml"))
except ConfigError as err:
    sys.exit(str(err))


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/saul1996.smk"
include: "workflow/rules/yokoyama2019.smk"
include: "workflow/rules/salakhutdinov2010.smk"
include: "workflow/rules/carlson2016.smk"
include: "workflow/rules/bruegge2013.smk"
include: "workflow/rules/calibration.smk"
include: "workflow/rules/report.smk"


# Every rule's memory request (mem_mb), from the cost table and the rehearsal's table, per wildcard where it
# differs; a mem_mb given to Snakemake (--set-resources, profiles/slurm) wins (bmrep.pipeline.memory).
declare_memory(workflow, PROFILE, config)


# The report opens with one verdict line per paper (and a link to the full table) once the
# summary rule has written its front page (bmrep.claims.report_pages).
_front = Path(results("report_front.rst"))


report: str(_front) if _front.exists() else "workflow/report/workflow.rst"


# A training's checkpoint outlives its job (a job can write its output and still be reported failed at
# its time limit, then run again): delete the checkpoints of the outputs Snakemake kept, when it ends.
onsuccess:
    remove_accepted(RESULTS)


onerror:
    remove_accepted(RESULTS)


localrules:
    all,


rule all:
    default_target: True
    input:
        all_targets(),
