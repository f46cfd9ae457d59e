"""Test systems with exact answers, shared by the sampler and estimator tests (issue 18).

- ``models``: the enumerable models (binary RBM, two-layer DBM, multivalued-hidden
  RBM, layered sigmoid belief network) drawn from a seed or a generator.
- ``tempered``: tempered families with closed-form ``log Z(beta)``, ``E_beta[Delta]``
  and exact i.i.d. draws of the joint ``q(x, beta_k)`` (Carlson et al. 2016, eq. 6):
  ``GaussianFamily`` (closed form) and ``TemperedRBM`` (enumeration through
  ``bmrep.models.exact.rbm``). ``TEMPERED_SYSTEMS`` names the ones an estimator of
  log Z on tempered samples is checked on (the ``tempered_system`` fixture).
- ``goodness``: exact draws from a two-layer DBM as chains and a chi-square test of the
  joint-state counts, for the checks that a transition leaves the DBM invariant.

Exact answers come from the enumerators in ``bmrep.models.exact`` (none is written here).
"""

from support.testsystems.gaussian import GaussianFamily
from support.testsystems.goodness import chi2_pvalue, dbm_chains, dbm_state_index, exact_dbm_draws
from support.testsystems.models import random_dbm, random_multivalued, random_rbm, random_sbn
from support.testsystems.tempered import TEMPERED_SYSTEMS, TemperedRBM, exact_tempered_joint, joint_deltas

__all__ = [
    "GaussianFamily",
    "TEMPERED_SYSTEMS",
    "TemperedRBM",
    "chi2_pvalue",
    "dbm_chains",
    "dbm_state_index",
    "exact_dbm_draws",
    "exact_tempered_joint",
    "joint_deltas",
    "random_dbm",
    "random_multivalued",
    "random_rbm",
    "random_sbn",
]
