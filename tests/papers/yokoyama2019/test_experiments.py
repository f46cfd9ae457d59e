"""Experiments of Yokoyama et al. (2019): the toy model (Fig. 4), the KLD and DRBM runners, the config schema."""

import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from bmrep.models import multivalued as mv
from bmrep.models.exact import multivalued as mv_exact
from bmrep.papers.yokoyama2019 import summaries, toy, train_drbm, train_kld
from bmrep.papers.yokoyama2019.s_values import parse_s
from bmrep.pipeline.config_check import ConfigError, validate_config

PAPER_W_STAR = {1: 0.6585, 2: 0.7834, 4: 0.8941, "inf": 1.0887}


@pytest.mark.parametrize("s", list(PAPER_W_STAR))
def test_fig4_w_star_to_four_decimals(s):
    """|w*_s| for |H| = 2, beta = 0.6 (caption of Fig. 4)."""
    w = toy.toy_w_star(parse_s(s), 0.6, 2)
    assert round(w, 4) == PAPER_W_STAR[s]


def test_w_star_is_the_maximiser_of_eq21():
    curves, stars = toy.toy_table([1, 2, 4, "inf"], 0.6, 2, 2.0, 401)
    np.testing.assert_allclose(stars["w_star"], stars["w_star_argmax"], atol=1e-6)
    # l_s is symmetric in w and its maximum is the same for every s (footnote 1)
    assert np.allclose(stars["loglik_at_w_star"], stars["loglik_at_w_star"].iloc[0], atol=1e-12)
    for _, c in curves.groupby("s"):
        assert np.allclose(c["loglik"].to_numpy(), c["loglik"].to_numpy()[::-1], atol=1e-14)


def test_toy_alpha_matches_eq18_marginal():
    """alpha_s(w) = sum v1 v2 P_s(v1, v2 | w) with the marginal of eq. (18) by enumeration."""
    w = 0.37
    for s in (1, 3, math.inf):
        params = {"b": np.zeros(2), "c": np.zeros(2), "W": np.full((2, 2), w)}
        states = mv_exact.all_visible_states(2)
        p = np.exp(mv_exact.log_marginal(params, s, states))
        assert toy.toy_alpha(w, s, 2) == pytest.approx(float(p @ (states[:, 0] * states[:, 1])), rel=1e-12)


def test_alpha_decreases_in_s():
    w = np.linspace(0.05, 3, 50)
    a = [toy.toy_alpha(w, s) for s in (1, 2, 4, math.inf)]
    assert all(np.all(a[i] > a[i + 1]) for i in range(3))


def test_kld_curves_do_not_depend_on_sharding_and_start_from_the_initial_model():
    kw = dict(root_seed=7, R=1, s_values=[1, "inf"], epochs=3, lr=0.01, record_every=2)
    both = train_kld.kld_curves(experiments=[0, 1], **kw)
    one = train_kld.kld_curves(experiments=[1], **kw)
    np.testing.assert_allclose(both["kld"][1], one["kld"][0], rtol=1e-12)
    np.testing.assert_allclose(both["loglik"][1], one["loglik"][0], rtol=1e-12)
    assert list(both["epochs"]) == [0, 2, 3]
    # epoch 0: the tRBM with zero biases and the shared Xavier couplings
    st = train_kld.kld_setup(7, 1, 0, 8, 4, 200)
    log_p = mv_exact.log_marginal(st["gen"], 1)
    for si, s in enumerate([1, math.inf]):
        q = mv_exact.log_marginal({"b": np.zeros(8), "c": np.zeros(5), "W": st["W0"]}, s)
        assert both["kld"][0, si, 0] == pytest.approx(mv.kl_per_unit(log_p, q), rel=1e-12)
        ll = q[mv_exact.state_index(st["data"])].mean() / 8
        assert both["loglik"][0, si, 0] == pytest.approx(ll, rel=1e-12)
    merged = summaries.merge_shards([one, train_kld.kld_curves(experiments=[0], **kw)])
    np.testing.assert_array_equal(merged["kld"], both["kld"])


def test_drbm_curves_tiny_run_is_paired_and_deterministic():
    g = np.random.default_rng(0)
    x = g.integers(0, 256, (60, 20), dtype=np.uint8)
    y = np.arange(60) % 3
    xt = train_drbm.noisy_test_set(1, x[:30], 120.0)
    kw = dict(
        root_seed=1,
        s_values=[1, "inf"],
        x_train_uint8=x,
        y_train=y,
        x_test=xt,
        y_test=y[:30],
        n_train=20,
        n_hidden=4,
        batch_size=10,
        lr=0.01,
        epochs=3,
        eval_epochs=[0, 1, 3],
    )
    a = train_drbm.drbm_curves(experiments=[0, 1], **kw)
    b = train_drbm.drbm_curves(experiments=[1], **kw)
    np.testing.assert_array_equal(a["test_error"][1], b["test_error"][0])
    assert a["train_error"].shape == (2, 2, 3)
    table = summaries.drbm_table(a)
    assert set(table["metric"]) == {"train_error", "test_error"} and len(table) == 2 * 2 * 3
    with pytest.raises(ValueError):
        train_drbm.drbm_curves(experiments=[0], **{**kw, "eval_epochs": [0, 1]})


def test_eval_grid():
    assert train_drbm.eval_epoch_grid(100, 8)[0] == 0 and train_drbm.eval_epoch_grid(100, 8)[-1] == 100


SCHEMA = Path(__file__).resolve().parents[3] / "workflow" / "schemas" / "yokoyama2019.schema.yaml"


def _section(**toy_changes):
    with open(Path(__file__).resolve().parents[3] / "config" / "config.yaml") as f:
        section = yaml.safe_load(f)["yokoyama2019"]
    section["toy"].update(toy_changes)
    return section


def test_schema_rejects_duplicate_s_values():
    """Claims match s by value, so a repeated s value is a config error."""
    validate_config(_section(s_values=["inf", 1]), SCHEMA, prefix="yokoyama2019")
    with pytest.raises(ConfigError):
        validate_config(_section(s_values=[1, 2, 1]), SCHEMA, prefix="yokoyama2019")
    with pytest.raises(ConfigError):
        validate_config(_section(s_values=["inf", 4, "inf"]), SCHEMA, prefix="yokoyama2019")
