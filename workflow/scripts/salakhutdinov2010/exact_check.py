"""AIS and the eq. (3) bound against exact enumeration on a small DBM trained on the same data."""

from bmrep.experiments.salakhutdinov2010.common import split_mnist
from bmrep.experiments.salakhutdinov2010.exact_check import exact_check
from bmrep.io import load_npz, write_json
from bmrep.plotting.salakhutdinov2010 import plot_ais_exact_check
from bmrep.plotting.style import caption
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
X, _, X_test, _ = split_mnist(load_npz(sm.input.data), cfg["n_validation"])
res = exact_check(X, X_test, cfg, sm.params.seed)
log.info("%s", {k: v for k, v in res.items() if k not in ("beta_profile", "ladder")})
for r in res["ladder"]:
    log.info("ladder: %d betas: error %+.3f ± %.3f", r["n_betas"], r["error"], r["stderr"])
write_json(sm.output.json, res)
e = cfg["exact_check"]
plot_ais_exact_check(
    res,
    sm.output.fig,
    caption(
        sm.params.profile,
        runs=e["ais"]["n_runs"],
        model="-".join(map(str, res["shape"])),
        trained_updates=e["n_updates"],
        ais_state=res["ais_state"],
        seed=sm.params.seed,
    ),
)
