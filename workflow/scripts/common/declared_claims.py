"""Every claim the code declares for this profile, as rows of the summary with verdict ``not run``.

``make publish`` fills the rows of a paper the run did not reach with them, and
tests/ops/test_published.py compares a published summary's claim ids with them.
The claims modules are imported by name (not in a loop) so that the rule's
code digest covers each of them.
"""

import pandas as pd

from bmrep.claims.summary import declared_rows
from bmrep.io import write_csv
from bmrep.papers.bruegge2013 import claims as bruegge2013
from bmrep.papers.calibration import claims as calibration
from bmrep.papers.carlson2016 import claims as carlson2016
from bmrep.papers.salakhutdinov2010 import claims as salakhutdinov2010
from bmrep.papers.saul1996 import claims as saul1996
from bmrep.papers.yokoyama2019 import claims as yokoyama2019
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)
modules = dict(saul1996=saul1996, yokoyama2019=yokoyama2019, salakhutdinov2010=salakhutdinov2010,
               carlson2016=carlson2016, bruegge2013=bruegge2013, calibration=calibration)  # fmt: skip
p = snakemake.params
frames = [declared_rows(modules[paper].claims(settings), p.profile) for paper, settings in p.settings.items()]
table = pd.concat(frames, ignore_index=True)
write_csv(snakemake.output[0], table)
log.info("%d claims declared: %s", len(table), table["paper"].value_counts().to_dict())
