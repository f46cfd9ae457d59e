"""Salakhutdinov (2010), Learning deep Boltzmann machines using adaptive MCMC: stages, claims, plots.

Pure functions from settings (the parts of the paper's validated config
section that a stage reads, turned once into frozen records: ``AISSettings``,
``EvaluationSettings``, ``TrainingSettings``, ``SamplerSettings``) and seeds
to arrays and data frames; the workflow scripts in
``workflow/scripts/salakhutdinov2010/`` only read, call these and write.
One module per pipeline stage, so a job imports only the code it runs:

* :mod:`.toy`: the two-node MRF of section 4.1 under Gibbs, FPCD and
  Wang-Landau (Figure 2).
* :mod:`.train`: greedy pretraining and joint training with SAP, FPCD,
  Trans-SAP or CAST (section 8), with parameter snapshots.
* :mod:`.evaluation`: AIS log Z and the eq. (3) bound (Table 1, Figure 4 right).
* :mod:`.sampling`: Gibbs vs adaptive-ST samples and the temperature
  trajectory (Figure 4, left and middle).
* :mod:`.exact_check`: the AIS calibration (independent AIS replicates against exact enumeration on a
  small DBM trained like the large ones) and the eq. (3) bound against the exact likelihood.
* :mod:`.summaries`: Table 1 from the evaluations.
* :mod:`.common`: the data split and the paper's keyed random streams.
* :mod:`.claims` (metrics in :mod:`.claims_table1` and :mod:`.claims_ais`): the paper's claims;
  :mod:`.plots`: its figures.

This file imports nothing: Python runs it for every module of the package.
"""
