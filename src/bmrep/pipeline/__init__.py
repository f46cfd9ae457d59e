"""The pipeline wing: what a job and the workflow need at run time, never imported by the science.

The command line (``bmrep-run``: :mod:`.cli`), a job's start (:mod:`.runtime`), config checks
(:mod:`.config_check`), the code digests that rerun a job when its library code changes
(:mod:`.code_digest`), where a result came from (:mod:`.provenance`), and each rule's memory request
(:mod:`.memory`, from the cost table in :mod:`.records`), which the Snakefile declares when it builds the
workflow.

The science (models, samplers, estimators, learning, the papers, claims, plotting and the utilities
``bmrep.io``, ``bmrep.seeds``, ``bmrep.progress`` they use) never imports this package, and this package
never imports the operator's tools beside it (:mod:`bmrep.ops`; tests/house/test_layers.py): a job runs without
them, and the science can be reused without Snakemake.
"""
