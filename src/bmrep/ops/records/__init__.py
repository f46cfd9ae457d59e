"""The operator's records: what the cost model, the rehearsal and the refactoring guard read (package data).

- ``default_jobs.csv``: the last default run's jobs as ``make costs`` measured them (rule, CPU, wall, peak,
  outputs), so that a change of the scaling below is extrapolated again without a run
  (``make costs COSTS_FROM=`` this file; :mod:`bmrep.ops.costs`).
- ``cost_scaling.yaml``: per rule, the config keys whose paper/default ratio scales a job's CPU time
  (:mod:`bmrep.ops.work_keys`); a rule whose work per job grows with config values lists them here.
- ``memory_scaling.yaml``: per rule, the counts the rehearsal cuts that a job's peak memory grows with
  (:mod:`bmrep.ops.rehearsal`).
- ``rehearsal_kinds.yaml``: per rule, the jobs that do the same work per unit at the paper's shapes
  (:func:`bmrep.ops.rehearsal.job_kind`).
- ``smoke_manifest.sha256``: the SHA-256 of every result file of the smoke profile, which a refactoring
  reproduces (``make smoke-hash``; :mod:`bmrep.ops.result_manifest`).

The cost table the workflow reads itself is :data:`bmrep.pipeline.records.COSTS`. Found beside this file,
whatever the working directory.
"""

from pathlib import Path

_HERE = Path(__file__).parent
DEFAULT_JOBS = _HERE / "default_jobs.csv"
COST_SCALING = _HERE / "cost_scaling.yaml"
MEMORY_SCALING = _HERE / "memory_scaling.yaml"
REHEARSAL_KINDS = _HERE / "rehearsal_kinds.yaml"
SMOKE_MANIFEST = _HERE / "smoke_manifest.sha256"
