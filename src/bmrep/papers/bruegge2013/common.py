"""What every stage of Brügge et al. (2013) shares: the random-stream key and the benchmarks' names."""

from __future__ import annotations

PAPER = "bruegge2013"
# The two operators compared throughout (sec. 3): Gibbs G and flip-the-state T.
OPERATOR_NAMES = ("G", "T")
BENCHMARK_LABELS = {
    "bas": "Bars and Stripes",
    "modes_0p1": "Artificial Modes, p_mut=0.1",
    "modes_0p01": "Artificial Modes, p_mut=0.01",
    "mnist": "MNIST, n=10",
    "mnist500": "MNIST, n=500",
}
MODES_P_MUT = {"modes_0p1": 0.1, "modes_0p01": 0.01}
# The keys of the config's ``data`` section that each benchmark's data depend
# on (the keyword arguments of train.make_benchmark it reads), so that a
# change to, say, the MNIST evaluation subset does not retrain on Bars and Stripes.
DATA_KEYS = {
    "bas": (),
    "modes_0p1": ("modes_train_size", "batch_size"),
    "modes_0p01": ("modes_train_size", "batch_size"),
    "mnist": ("mnist_hidden", "mnist_eval_size", "batch_size"),
    "mnist500": ("mnist_eval_size", "batch_size"),
}
