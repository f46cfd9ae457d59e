"""Where the final AIS of a trained 784-500-1000 DBM gets its weight, and how its base steers it (issue 64).

Measurement, not a ``bench_*`` script (``make bench`` does not run it). On the schedule run's published models
(``docs/results/evidence/sala_schedule/models/``) the pooled log Z of Table 1 has a heavy tail: a pool of 250
runs can be carried by one run. Two questions, one subcommand each:

``replay MODEL.npz REPEAT REPLICATE``
    Anneals replicate ``REPLICATE`` of the model's final AIS exactly as the pipeline did (the profile's seed, the
    keys ``"final", REPEAT, "replicate", REPLICATE``, the evidence overlay's ``final_ais``, the AIS base of
    :func:`bmrep.estimators.dbm_ais.data_base_biases` on the evaluation's training subset), checks that the
    estimate is the published one bit for bit when ``--expect`` is given, and prints, along the ladder, how far
    the heaviest run's partial log weight lies above the others' (Neal 2001, eq. 2's partial sums): the beta at
    which it gains says whether it crossed into another mode, and its final state (pixels on) which one.
``bases MODEL.npz [MODEL.npz ...] --bases data,vdata,uniform``
    Pools ``--replicates`` replicates of the same ladder from three AIS bases: ``data`` (the pipeline's:
    visible logits of the data's pixel means, hidden logits of their mean-field posteriors), ``vdata`` (the
    visible logits only, hidden units uniform: Salakhutdinov & Murray 2008's base-rate model) and ``uniform``
    (every unit 1/2). Per model and base: the pooled log Z, each replicate's, the ESS, how many runs end in a
    "thick" state (more than ``--thick`` pixels on; the data's median is about 100) and the share of the pooled
    weight those runs carry. One CSV row per (model, base), appended to ``--out`` as each finishes.

    python benchmarks/dbm_ais_modes.py replay docs/results/evidence/sala_schedule/models/seed0/SAP-50.npz 0 2
    python benchmarks/dbm_ais_modes.py bases docs/results/evidence/sala_schedule/models/seed0/SAP-50.npz \
        --replicates 1 --out benchmarks/results/dbm_ais_modes.csv

Data: ``results/evidence/sala_schedule/data/mnist_stochastic.npz`` (``--data``), which the overlay's run builds.
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np
import yaml
from threadpoolctl import threadpool_limits

import bmrep.estimators.ais as ais_module
from bmrep.estimators.ais import effective_sample_size, log_mean_exp
from bmrep.estimators.dbm_ais import data_base_bias, data_base_biases
from bmrep.io import load_npz
from bmrep.models.dbm import DBM
from bmrep.papers.salakhutdinov2010.common import split_mnist
from bmrep.papers.salakhutdinov2010.evaluation import (
    EvaluationSettings,
    estimate_log_z,
    independent_replicates,
    train_subset,
)
from bmrep.pipeline.config_check import deep_merge, validated_part

ROOT = Path(__file__).resolve().parents[1]
OVERLAY = ROOT / "config" / "evidence" / "sala_schedule.yaml"
SCHEMA = ROOT / "workflow" / "schemas" / "salakhutdinov2010.schema.yaml"
DATA = ROOT / "results" / "evidence" / "sala_schedule" / "data" / "mnist_stochastic.npz"
BASE_SEED = 4242  # the bases' own streams: none of the run's estimates is reused
COLUMNS = [
    "model", "base", "n_betas", "n_runs", "n_replicates", "log_z_pooled", "log_z_replicates", "replicate_ess",
    "pool_ess", "thick_runs", "thick_weight_share", "cpu_s",
]  # fmt: skip


def _setup(model_path: str, data_path: str):
    """The model, the overlay's evaluation settings, seed and the evaluation's training subset (its AIS base's)."""
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    cfg = deep_merge(cfg, yaml.safe_load(OVERLAY.read_text()))
    s = EvaluationSettings.from_config(validated_part(cfg["salakhutdinov2010"]["evaluation"], SCHEMA, "evaluation"))
    seed = int(cfg["seed"])
    arrays = load_npz(model_path)
    dbm = DBM(*(arrays[k] for k in ("W1", "W2", "b", "c1", "c2")))
    X, _, _, _ = split_mnist(load_npz(data_path), int(cfg["salakhutdinov2010"]["n_validation"]))
    return dbm, s, seed, train_subset(X, s.curve_train_subset, seed)


def base_of(kind: str, dbm: DBM, sub: np.ndarray):
    """The AIS base logits (v, h1, h2) of ``kind``: ``data``, ``vdata`` or ``uniform`` (module docstring)."""
    F1, F2 = dbm.W2.shape
    if kind == "data":
        return data_base_biases(dbm, sub)
    if kind == "vdata":
        return data_base_bias(sub), np.zeros(F1), np.zeros(F2)
    if kind == "uniform":
        return np.zeros(dbm.W1.shape[0]), np.zeros(F1), np.zeros(F2)
    raise ValueError(f"unknown base {kind!r}: data, vdata or uniform")


def final_v(run, j: int, n_runs: int) -> np.ndarray:
    """Replicate ``j``'s final visible states: its own chains, or its block of the batch it annealed in."""
    v = np.asarray(run.state.chains.v)
    return v if v.shape[0] == n_runs else v[j * n_runs : (j + 1) * n_runs]


def replay(model_path: str, repeat: int, replicate: int, data_path: str, expect: float | None) -> None:
    """One replicate of the model's final AIS again, with every run's partial log weights (module docstring)."""
    dbm, s, seed, sub = _setup(model_path, data_path)
    kept = {}
    record = ais_module._run_record

    def keep(log_w, betas, sds, partial, log_z_base, state):  # the per-run partial sums the record averages away
        kept["partial"] = np.array(partial)
        return record(log_w, betas, sds, partial, log_z_base, state)

    ais_module._run_record = keep
    try:
        with threadpool_limits(1):
            run = estimate_log_z(
                dbm, s.final_ais, data_base_biases(dbm, sub), seed, "final", repeat, "replicate", replicate,
                record_partial=True,
            )  # fmt: skip
    finally:
        ais_module._run_record = record
    print(f"replicate {replicate} of repeat {repeat}: log Z {run.estimate!r}, ESS {run.ess:.2f}")
    if expect is not None and run.estimate != expect:
        raise SystemExit(f"not the published estimate: {run.estimate!r} != {expect!r}")
    P, w = kept["partial"], run.log_weights
    top = int(np.argmax(w))
    rest = np.delete(np.arange(w.size), top)
    v = np.asarray(run.state.chains.v)
    print(f"heaviest run {top}: {v[top].sum():.0f} pixels on (the others' median {np.median(v[rest].sum(1)):.0f})")
    print("beta    heaviest - median(others)   heaviest - max(others)   sd(others)")
    for k in np.unique(np.r_[np.linspace(0, P.shape[0] - 1, 11).astype(int), P.shape[0] - np.array([200, 50, 1])]):
        others = P[k, rest]
        print(
            f"{run.betas[k + 1]:.3f}   {P[k, top] - np.median(others):10.2f}   "
            f"{P[k, top] - others.max():22.2f}   {others.std():10.2f}"
        )


def bases(models: list[str], kinds: list[str], n_replicates: int, thick: int, data_path: str, out: str) -> None:
    """The final ladder from each base of ``kinds`` on each model; rows appended to ``out`` (module docstring)."""
    for model_path in models:
        dbm, s, _, sub = _setup(model_path, data_path)
        for kind in kinds:
            t0 = time.process_time()
            with threadpool_limits(1):
                reps = independent_replicates(
                    dbm, s.final_ais, base_of(kind, dbm, sub), n_replicates, BASE_SEED, "probe-base", kind
                )
            w = np.concatenate([r.log_weights for r in reps])
            is_thick = np.concatenate([final_v(r, j, s.final_ais.n_runs).sum(1) > thick for j, r in enumerate(reps)])
            # the thick runs' share of the pooled weight: sum over them of exp(w) / sum over all
            share = 0.0
            if is_thick.any():
                share = float(np.exp(log_mean_exp(w[is_thick]) - log_mean_exp(w)) * is_thick.mean())
            row = {
                "model": "/".join(Path(model_path).parts[-2:]),
                "base": kind,
                "n_betas": s.final_ais.n_betas,
                "n_runs": s.final_ais.n_runs,
                "n_replicates": n_replicates,
                "log_z_pooled": round(log_mean_exp(w), 4),
                "log_z_replicates": " ".join(f"{r.estimate:.4f}" for r in reps),
                "replicate_ess": " ".join(f"{r.ess:.2f}" for r in reps),
                "pool_ess": round(effective_sample_size(w), 2),
                "thick_runs": f"{int(is_thick.sum())}/{is_thick.size}",
                "thick_weight_share": round(share, 4),
                "cpu_s": round(time.process_time() - t0, 1),
            }
            print(", ".join(f"{k} {v}" for k, v in row.items()), flush=True)
            new = not Path(out).exists()
            with open(out, "a", newline="") as fh:
                writer = csv.DictWriter(fh, fieldnames=COLUMNS)
                if new:
                    writer.writeheader()
                writer.writerow(row)


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", default=str(DATA), help="the overlay's mnist_stochastic.npz")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("replay", help="one replicate of a model's final AIS, with partial log weights")
    r.add_argument("model")
    r.add_argument("repeat", type=int)
    r.add_argument("replicate", type=int)
    r.add_argument("--expect", type=float, help="the published replicate estimate (checked bit for bit)")
    b = sub.add_parser("bases", help="the final ladder from several AIS bases")
    b.add_argument("models", nargs="+")
    b.add_argument("--bases", default="data,vdata,uniform")
    b.add_argument("--replicates", type=int, default=1)
    b.add_argument("--thick", type=int, default=120, help="pixels on above which a run's final state is thick")
    b.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "dbm_ais_modes.csv"))
    a = p.parse_args(argv)
    if not Path(a.data).exists():
        raise SystemExit(f"no data at {a.data}: run the overlay's data rule first (make run PROFILE=... TARGET=...)")
    if a.command == "replay":
        replay(a.model, a.repeat, a.replicate, a.data, a.expect)
    else:
        bases(a.models, a.bases.split(","), a.replicates, a.thick, a.data, a.out)


if __name__ == "__main__":
    main()
