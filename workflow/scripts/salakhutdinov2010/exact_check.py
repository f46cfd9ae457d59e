"""The AIS calibration: the replicates' errors against the exact log Z, with the diagnostics, and its figure."""

from bmrep.io import load_npz, read_json, write_json
from bmrep.papers.salakhutdinov2010.exact_check import combine
from bmrep.papers.salakhutdinov2010.plots import plot_ais_exact_check
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, _ = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
p = sm.params
res = combine(
    read_json(sm.input.exact),
    [load_npz(f) for f in sm.input.shards],
    p.ais,
    p.ais_state,
    read_json(sm.input.diagnostics),
    pool=p.pool,
)
errs = [r["error"] for r in res["replicates"]]
log.info("%d replicates: mean error %+.4f, pooled %s", len(errs), sum(errs) / len(errs), res["replicates_pooled"])
write_json(sm.output.json, res)
plot_ais_exact_check(
    res,
    sm.output.fig,
    caption(
        p.profile,
        replicates=len(errs),
        runs=p.ais["n_runs"],
        betas=p.ais["n_betas"],
        model="-".join(map(str, res["shape"])),
        trained_updates=res["n_updates"],
        ais_state=res["ais_state"],
        seed=p.seed,
    ),
    p.tolerance,
)
