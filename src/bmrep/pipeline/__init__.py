"""The pipeline wing: what only the workflow, the Makefile and publishing use, never the science.

The command line (``bmrep-run``: :mod:`.cli`), a job's start (:mod:`.runtime`), config checks
(:mod:`.config_check`), the code digests that rerun a job when its library code changes
(:mod:`.code_digest`), provenance, costs and SLURM resources (:mod:`.costs`, :mod:`.slurm_resources`), the
paper profile's rehearsal and its per-job memory (:mod:`.rehearsal`, :mod:`.job_memory`),
the timeline, publishing and the published summary (:mod:`.publish`, :mod:`.published`), the smoke
profile's result manifest (:mod:`.result_manifest`), the report's browser screenshots (:mod:`.browser`)
and the trace from a figure to its rule, script and library calls (:mod:`.trace`).

The science (models, samplers, estimators, learning, the papers, claims, plotting and the utilities
``bmrep.io``, ``bmrep.seeds``, ``bmrep.progress`` they use) never imports this package
(tests/test_layers.py): it can be reused without Snakemake.
"""
