"""Train one 784-H MNIST RBM for carlson2016 (Figs. 1, 3, 4) and cache it with its recipe."""

from bmrep.io import load_npz, save_model
from bmrep.learning.mnist_rbm import train_mnist_rbm
from bmrep.pipeline.runtime import setup_job, training_checkpoint

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
X = load_npz(sm.input.data)["X_train"]
checkpoint = training_checkpoint(sm, log)
rbm, recipe = train_mnist_rbm(X, int(sm.params.n_hidden), cfg, int(sm.params.seed), checkpoint=checkpoint)
log.info("trained %s in %.1f s", sm.wildcards.model, recipe["training_seconds"])
save_model(sm.output.model, rbm.params(), recipe)
