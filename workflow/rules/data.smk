# Data: raw files from the mirror (or public URLs), verified by SHA-256 of the
# decompressed content; derived sets of the replication spec. See
# CONTRIBUTING.md ("Datasets") for the contents of each file.

import re

from bmrep.datasets.sources import RAW_FILES
from bmrep.pipeline.config_check import unreachable_data

SYNTHETIC_DATA = bool(config["data"]["synthetic"])
DATA_TARGETS = [
    data(f) for f in ["mnist.npz", "mnist_binary.npz", "mnist_stochastic.npz", "digits8.npz", "dna.npz", "toys.npz"]
]
if not SYNTHETIC_DATA:
    DATA_TARGETS += [data("usps8.npz"), data("mnist8.npz")]


wildcard_constraints:
    raw="|".join(re.escape(n) for n in RAW_FILES),


# On a cluster the data jobs run where Snakemake runs (the login node): fetching may need the
# network, which compute nodes often lack, and each takes a few seconds (at most 3 s of CPU and
# 650 MB), less than one round trip through the queue.
localrules:
    data,
    data_raw,
    data_mnist,
    data_mnist_binary,
    data_mnist_stochastic,
    data_usps8,
    data_mnist8,
    data_digits8,
    data_dna,
    data_toys,


# Before the first job: a raw file that no source can provide (USPS has no public URL) stops the run with one
# line saying where to get it, instead of a failed data job (onstart is skipped in dry runs).
onstart:
    if _unreachable := unreachable_data(
        [job.wildcards.raw for job in workflow.dag.needrun_jobs() if job.rule.name == "data_raw"],
        config["data_mirror"],
        config["data"]["allow_download"],
    ):
        sys.exit("\n".join(_unreachable))


rule data:
    input:
        DATA_TARGETS,


rule data_raw:
    output:
        data("raw/{raw}"),
    log:
        logs("data/raw/{raw}.log"),
    benchmark:
        benchmarks("data/raw/{raw}.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("data/fetch_raw.py"),
        mirror=config["data_mirror"],
        allow_download=config["data"]["allow_download"],
    script:
        "../scripts/data/fetch_raw.py"


MNIST_RAW = {
    "train_images": data("raw/mnist/train-images-idx3-ubyte"),
    "train_labels": data("raw/mnist/train-labels-idx1-ubyte"),
    "test_images": data("raw/mnist/t10k-images-idx3-ubyte"),
    "test_labels": data("raw/mnist/t10k-labels-idx1-ubyte"),
}


rule data_mnist:
    input:
        **({} if SYNTHETIC_DATA else MNIST_RAW),
    output:
        data("mnist.npz"),
    log:
        logs("data/mnist.log"),
    benchmark:
        benchmarks("data/mnist.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("data/mnist.py"),
        synthetic=SYNTHETIC_DATA,
    script:
        "../scripts/data/mnist.py"


rule data_mnist_binary:
    input:
        data("mnist.npz"),
    output:
        data("mnist_binary.npz"),
    log:
        logs("data/mnist_binary.log"),
    benchmark:
        benchmarks("data/mnist_binary.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("data/mnist_binary.py"),
    script:
        "../scripts/data/mnist_binary.py"


# salakhutdinov2010's data (spec section 3): each pixel 1 with probability pixel/255, one recorded draw.
rule data_mnist_stochastic:
    input:
        data("mnist.npz"),
    output:
        data("mnist_stochastic.npz"),
    log:
        logs("data/mnist_stochastic.log"),
    benchmark:
        benchmarks("data/mnist_stochastic.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("data/mnist_stochastic.py"),
        synthetic=SYNTHETIC_DATA,
    script:
        "../scripts/data/mnist_stochastic.py"


rule data_usps8:
    input:
        data("raw/usps/usps.h5"),
    output:
        data("usps8.npz"),
    log:
        logs("data/usps8.log"),
    benchmark:
        benchmarks("data/usps8.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("data/usps8.py"),
        seed=SEED,
    script:
        "../scripts/data/usps8.py"


rule data_mnist8:
    input:
        data("mnist.npz"),
    output:
        data("mnist8.npz"),
    log:
        logs("data/mnist8.log"),
    benchmark:
        benchmarks("data/mnist8.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("data/mnist8.py"),
        seed=SEED,
        synthetic=SYNTHETIC_DATA,
    script:
        "../scripts/data/mnist8.py"


rule data_digits8:
    output:
        data("digits8.npz"),
    log:
        logs("data/digits8.log"),
    benchmark:
        benchmarks("data/digits8.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("data/digits8.py"),
        seed=SEED,
    script:
        "../scripts/data/digits8.py"


rule data_dna:
    input:
        **({} if SYNTHETIC_DATA else {"train": data("raw/dna/dna.scale"), "test": data("raw/dna/dna.scale.t")}),
    output:
        data("dna.npz"),
    log:
        logs("data/dna.log"),
    benchmark:
        benchmarks("data/dna.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("data/dna.py"),
        seed=SEED,
        synthetic=SYNTHETIC_DATA,
    script:
        "../scripts/data/dna.py"


rule data_toys:
    output:
        data("toys.npz"),
    log:
        logs("data/toys.log"),
    benchmark:
        benchmarks("data/toys.tsv")
    conda:
        CONDA_ENV
    params:
        code=code_version("data/toys.py"),
        seed=SEED,
    script:
        "../scripts/data/toys.py"
