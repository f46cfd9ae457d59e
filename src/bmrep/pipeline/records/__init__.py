"""The pipeline's records: the cost table that the workflow reads when it is built (package data).

``costs.csv``, one row per rule: the default run's measured CPU and peak memory per job, the paper
profile's job count and core-hours, and the SLURM requests (``runtime_min``, ``mem_mb``; docs/cluster.md,
"The cost table"). Written by ``make costs`` (:mod:`bmrep.ops.costs`) and raised by ``make
paper-rehearsal`` where the rehearsal measured more (:mod:`bmrep.ops.rehearsal`); the Snakefile gives
every rule its ``mem_mb`` from it (:mod:`bmrep.pipeline.memory`). Found beside this file, whatever the
working directory.
"""

from pathlib import Path

COSTS = Path(__file__).with_name("costs.csv")
