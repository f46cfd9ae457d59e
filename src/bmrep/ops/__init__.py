"""The operator's tools: what measures, rehearses, publishes and explains a run, never what runs in one.

The per-rule costs and the SLURM profile's resources (:mod:`.costs`, :mod:`.work_keys`,
:mod:`.slurm_resources`), the paper profile's rehearsal and its per-job memory (:mod:`.rehearsal`,
:mod:`.rehearsal_report`, :mod:`.job_memory`), the timeline, publishing, the published summary and the
figures quoted from their records (:mod:`.publish`, :mod:`.published`, :mod:`.evidence`, :mod:`.quoted`), the
smoke profile's result manifest (:mod:`.result_manifest`), the report's browser screenshots
(:mod:`.browser`), the trace from a figure to its rule, script and library calls (:mod:`.trace`) and
the science library's page of public names, docs/api.md (:mod:`.api_doc`). Their
records are in :mod:`.records`.

Run from the Makefile, ``ci/`` and the command line (``python -m bmrep.ops.<tool>``). This wing may import
the pipeline wing (:mod:`bmrep.pipeline`), never the other way round (tests/house/test_layers.py): no job and no
rule needs it.
"""
