"""Fig. 5 of Carlson et al. (2016), sec. 4.4: tracking log-likelihoods during training on dna with RTS."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ...estimators.ais import ais_log_partition
from ...estimators.base import base_log_partition, data_marginal_base_bias
from ...estimators.rts import exponential_log_prior, partial_update, run_simulated_tempering
from ...estimators.rts_run import RTSRun
from ...learning.checkpoint import Checkpoint, resume, save_if_due
from ...learning.negative_phases import CDChains
from ...learning.optimizers import Adam
from ...learning.rbm_training import train_rbm
from ...models.rbm import RBM
from ...progress import track
from ...sampling.ladders import linear_betas
from ...sampling.operators import Gibbs
from ...sampling.simulated_tempering import log_temperature_conditional, rbm_step
from ...sampling.streams import ChainStreams
from ...sampling.tempered_rbm import TemperedRBMChains
from ...seeds import rng as make_rng
from . import PAPER


def fig5_track_training(
    X_train: np.ndarray,
    X_valid: np.ndarray,
    settings: dict,
    seed: int,
    log=None,
    checkpoint: Checkpoint | None = None,
) -> tuple[RBM, pd.DataFrame, dict]:
    """Sec. 4.4 / Fig. 5: RBM training with tempered persistent chains and a running RTS log Z.

    1. CD-1 pretraining (Adam).
    2. RTS initial iterations (K temperatures, prior ``r_k ∝ exp(rate beta_k)``).
    3. Each update: ``sweeps_per_update`` ST sweeps of the persistent chains;
       the model term of the gradient from the last sweep's states weighted
       by ``q(beta_K | x)`` (the Rao-Blackwellized probability of being at
       beta = 1, self-normalised); the data term from a minibatch; an Adam
       step (substitute for RMSspectral, which our copy does not describe);
       then the partial update (alpha) of log Zhat from the sweeps' ``c_k``.
    4. Every ``ais_every`` updates: AIS log Z for comparison, the mean of
       ``ais_replicates`` independent AIS estimates (``ais_runs`` runs,
       ``ais_betas`` betas each).

    Mean log-likelihoods are ``-mean F(v) - log Z``.

    Parameters
    ----------
    X_train, X_valid : ndarray
        Binary training and validation rows (180 features for dna).
    settings : dict
        The Fig. 5 section (sizes, learning rates, ladder, alpha, AIS checkpoints).
    seed : int
        Root seed.
    log : logging.Logger or None
        Receives one line per AIS checkpoint.
    checkpoint : Checkpoint or None
        Saves the update loop's whole state every ``checkpoint.every`` updates;
        a rerun resumes from it with the same numbers (bmrep.learning.checkpoint).

    Returns
    -------
    rbm : RBM
        The trained model.
    trace : DataFrame
        ``iteration``, ``train_rts``, ``valid_rts``, ``log_z_rts`` and, at AIS
        checkpoints, ``train_ais``, ``valid_ais``, ``log_z_ais`` (mean over the
        replicates), ``log_z_ais_se`` (their standard error), ``ais_n`` (their
        count) and ``ais_stderr`` (the replicates' mean stated error, a diagnostic).
    meta : dict
        Sizes, optimiser, seed, training time and the settings (the model's sidecar).
    """
    key = ("carlson2016", "fig5")
    rng = make_rng(seed, *key)
    X = np.ascontiguousarray(X_train, np.float64)
    Xv = np.ascontiguousarray(X_valid, np.float64)
    base_bias = data_marginal_base_bias(X, 1.0)
    n_hidden = int(settings["n_hidden"])
    rbm0 = RBM.random(X.shape[1], n_hidden, rng, scale=0.01)
    rbm0 = RBM(rbm0.W, base_bias.copy(), rbm0.c)
    bs = int(settings["batch_size"])
    t0 = time.time()
    rbm, _ = train_rbm(
        rbm0,
        X,
        negative_phase=CDChains(
            Gibbs(), 1, persistent=False, streams=ChainStreams.from_seed(seed, *key, "pretrain", n_chains=bs)
        ),
        batch_size=bs,
        n_updates=int(settings["pretrain_updates"]),
        optimizer=Adam(float(settings["pretrain_learning_rate"])),
        rng=rng,
    )
    rbm = rbm.copy()
    K = int(settings["K"])
    betas = linear_betas(K)
    log_prior = exponential_log_prior(betas, float(settings["prior_rate"]))
    n_chains = int(settings["n_chains"])
    streams = ChainStreams.from_seed(seed, *key, "chains", n_chains=n_chains)
    trng = make_rng(seed, *key, "temperatures")
    state = TemperedRBMChains.from_base(rbm, n_chains, streams, base_bias)
    log_z1 = base_log_partition(base_bias, n_hidden)

    rts = RTSRun(state, rbm_step, betas, log_prior, n_chains, trng, np.full(K, log_z1))
    init = rts.initial_iterations(int(settings["init_sweeps"]), int(settings["init_iterations"]), stop=True)
    lz = init.final_log_zhat
    k = trng.integers(0, K, n_chains)
    opt = Adam(float(settings["learning_rate"]))
    params = rbm.params()
    alpha = float(settings["alpha"])
    n_updates = int(settings["n_updates"])
    ais_every = int(settings["ais_every"])
    rows = []

    def mean_ll(log_z):
        return float(-np.mean(rbm.free_energy_v(X)) - log_z), float(-np.mean(rbm.free_energy_v(Xv)) - log_z)

    def record(t, lz_now):
        tr, va = mean_ll(lz_now[-1])
        row = {"iteration": t, "train_rts": tr, "valid_rts": va, "log_z_rts": lz_now[-1]}
        if t % ais_every == 0 or t == n_updates:
            # independent AIS replicates: their spread is the checkpoint's standard error
            reps = [
                ais_log_partition(
                    rbm,
                    int(settings["ais_runs"]),
                    linear_betas(int(settings["ais_betas"])),
                    ChainStreams.from_seed(seed, *key, "ais", t, rep, n_chains=int(settings["ais_runs"])),
                    base_bias,
                )
                for rep in range(int(settings["ais_replicates"]))
            ]
            lz_reps = np.array([a.estimate for a in reps])
            lz_ais = float(lz_reps.mean())
            tr_a, va_a = mean_ll(lz_ais)
            row.update(
                {
                    "train_ais": tr_a,
                    "valid_ais": va_a,
                    "log_z_ais": lz_ais,
                    "log_z_ais_se": float(lz_reps.std(ddof=1) / np.sqrt(lz_reps.size)) if lz_reps.size > 1 else np.nan,
                    "ais_n": int(lz_reps.size),
                    "ais_stderr": float(np.mean([a.stderr for a in reps])),
                }
            )
            if log is not None:
                log.info(
                    "update %d: log Z RTS %.3f AIS %.3f (+-%.3f over %d replicates)",
                    t, lz_now[-1], lz_ais, row["log_z_ais_se"], lz_reps.size,
                )  # fmt: skip
        rows.append(row)

    def snapshot() -> dict:
        # everything the update loop changes, every random stream included (bit-identical resume)
        return {
            "params": {name: a.copy() for name, a in params.items()},
            "optimizer": opt.get_state(),
            "v": state.v.copy(),
            "h": state.h.copy(),
            "streams": streams.get_state(),
            "trng": trng.bit_generator.state,
            "rng": rng.bit_generator.state,
            "log_zhat": lz.copy(),
            "k": np.asarray(k).copy(),
            "rows": [dict(r) for r in rows],
        }

    def restore(saved: dict) -> None:
        nonlocal lz, k
        for name, a in params.items():
            a[...] = saved["params"][name]
        opt.set_state(saved["optimizer"])
        state.set_visible(saved["v"])  # through the chains' setter, so no cached hidden field outlives it
        state.h[...] = saved["h"]
        streams.set_state(saved["streams"])
        trng.bit_generator.state, rng.bit_generator.state = saved["trng"], saved["rng"]
        lz, k = np.asarray(saved["log_zhat"]).copy(), np.asarray(saved["k"]).copy()
        rows[:] = [dict(r) for r in saved["rows"]]

    record(0, lz)
    # The pretraining and the initial iterations above are rerun (they are short and seeded);
    # the checkpoint then overrides every state the update loop changes.
    done = resume(checkpoint, restore)
    for t in track(range(done + 1, n_updates + 1), "fig5 training updates"):
        state.set_rbm(rbm)
        stats, k, _ = run_simulated_tempering(
            state,
            k,
            step=rbm_step,
            betas=betas,
            log_prior=log_prior,
            log_zhat=lz,
            n_sweeps=int(settings["sweeps_per_update"]),
            rng=trng,
        )
        # model term: states of the last sweep weighted by q(beta_K | x)
        dlt = state.delta()
        w = np.exp(log_temperature_conditional(dlt, betas, log_prior, lz)[:, -1])
        w = w / w.sum()
        vm = np.asarray(state.v, np.float64)
        hm = rbm.prob_h_given_v(vm)
        vd = X[rng.integers(0, X.shape[0], bs)]
        hd = rbm.prob_h_given_v(vd)
        grads = {
            "W": vd.T @ hd / bs - (vm * w[:, None]).T @ hm,
            "b": vd.mean(axis=0) - w @ vm,
            "c": hd.mean(axis=0) - w @ hm,
        }
        opt.step(params, grads)
        if not all(np.all(np.isfinite(p)) for p in params.values()):
            raise FloatingPointError(f"fig5: parameters became non-finite at update {t}")
        lz = partial_update(lz, stats.log_c, log_prior, alpha)
        if t % int(settings["record_every"]) == 0 or t % ais_every == 0 or t == n_updates:
            record(t, lz)
        save_if_due(checkpoint, t, n_updates, snapshot)
    meta = {
        "paper": PAPER,
        "n_visible": int(X.shape[1]),
        "n_hidden": n_hidden,
        "n_train": int(X.shape[0]),
        "n_valid": int(Xv.shape[0]),
        "optimizer": "Adam (substitute for RMSspectral)",
        "init_converged_at": init.converged_at,
        "seed": int(seed),
        "training_seconds": time.time() - t0,
        **{k_: settings[k_] for k_ in sorted(settings)},
    }
    return rbm, pd.DataFrame(rows), meta
