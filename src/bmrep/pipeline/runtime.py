"""Glue for workflow scripts: logging to the rule's log file and thread limits.

A workflow script starts with::

    from bmrep.pipeline.runtime import setup_job
    log, cfg = setup_job(snakemake)

``setup_job`` sends Python logging (and uncaught exceptions) to the rule's
``log:`` file as well as stderr, limits BLAS/OpenMP threads to the rule's
``threads:``, keeps freed memory in the process (:func:`keep_freed_memory`),
and returns the job's logger and its ``params.cfg`` (if any).
When the job ends it logs what it used (:data:`RESOURCES_LINE`: CPU seconds,
wall seconds, peak resident memory), which ``bmrep.ops.costs`` reads back into
the per-rule cost table.
"""

from __future__ import annotations

import atexit
import ctypes
import ctypes.util
import logging
import os
import resource
import sys
import time
from pathlib import Path


def limit_threads(n: int) -> None:
    """Limit BLAS and OpenMP pools to ``n`` threads (numbers do not depend on it)."""
    n = max(int(n), 1)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(n)
    try:
        from threadpoolctl import threadpool_limits

        threadpool_limits(n)
    except ImportError:  # pragma: no cover - threadpoolctl ships with scikit-learn
        pass


# glibc mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_MMAP_THRESHOLD = 32 * 1024 * 1024  # glibc's largest (DEFAULT_MMAP_THRESHOLD_MAX on 64-bit)
_TRIM_THRESHOLD = 1 << 30


def keep_freed_memory() -> bool:
    """Let glibc keep freed heap memory instead of returning it to the kernel at once.

    Why: the jobs allocate and free numpy temporaries of 0.1-10 MB in their
    loops. glibc serves them from the heap and, by default, trims the top of
    the heap after a free, so the next allocation faults its pages in again
    (and the kernel zeroes them). A bruegge2013 learning job spent 25 s of
    its 67 s in the kernel that way (10 million minor page faults); with
    these settings 0.4 s, with byte-identical results: only where memory
    comes from changes, not what is computed. Arrays above 32 MB are still
    mapped and unmapped one by one. Returns False where there is no glibc
    ``mallopt`` (e.g. macOS), which changes nothing else.
    """
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    # Both are set: setting one disables glibc's dynamic mmap threshold, which
    # would otherwise stay at 128 kB and map every such temporary afresh.
    return bool(mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, _TRIM_THRESHOLD))


RESOURCES_LINE = "job resources: cpu {cpu:.2f} s, wall {wall:.2f} s, max rss {rss:.1f} MB"
# What the job spent before its script's first line of work: the interpreter, Snakemake's script
# preamble (unpickling its job object imports Snakemake) and the script's imports (bmrep.ops.timeline).
STARTUP_LINE = "job start-up: cpu {cpu:.2f} s, wall {wall:.2f} s"
# Under SLURM: the job's id, which joins this log to the job's memory as the node saw it (bmrep.ops.job_memory)
SLURM_LINE = "slurm job {job}"


def _process_age() -> float | None:
    """Seconds since this process started (Linux /proc), so wall time includes the imports as CPU time does."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return uptime - int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def _log_resources(log: logging.Logger, start: float) -> None:
    """Log the job's CPU time (its own and its children's), wall time and peak memory (Linux: ru_maxrss in kB)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
    rss = max(own.ru_maxrss, kids.ru_maxrss) / 1024.0
    wall = _process_age()
    log.info(RESOURCES_LINE.format(cpu=cpu, wall=time.monotonic() - start if wall is None else wall, rss=rss))


def setup_job(snakemake):
    """Configure logging and threads for a Snakemake script job; see module docstring."""
    threads = getattr(snakemake, "threads", 1) or 1
    limit_threads(threads)
    keep_freed_memory()
    log = logging.getLogger(f"bmrep.{snakemake.rule}")
    log.setLevel(logging.INFO)
    fmt = logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s")
    handlers = [logging.StreamHandler(sys.stderr)]
    if len(snakemake.log) > 0:
        os.makedirs(os.path.dirname(os.path.abspath(snakemake.log[0])), exist_ok=True)
        handlers.append(logging.FileHandler(snakemake.log[0], mode="w"))
    for h in handlers:
        h.setFormatter(fmt)
        log.addHandler(h)
    root = logging.getLogger("bmrep")  # also bmrep.progress's lines (bmrep.progress.track)
    root.setLevel(logging.INFO)
    for h in handlers:
        if h not in root.handlers:
            root.addHandler(h)
    log.propagate = False

    def _excepthook(exc_type, exc, tb):
        # Errors about the user's input (missing or corrupt data, bad settings)
        # are one line that names the file or key; others keep the traceback.
        if getattr(exc_type, "user_facing", False):
            log.error("%s", exc)
        else:
            log.error("job failed", exc_info=(exc_type, exc, tb))

    sys.excepthook = _excepthook
    cfg = getattr(snakemake.params, "cfg", None) if hasattr(snakemake, "params") else None
    log.info("rule %s, threads %d, outputs %s", snakemake.rule, threads, list(snakemake.output))
    if os.environ.get("SLURM_JOB_ID"):
        log.info(SLURM_LINE.format(job=os.environ["SLURM_JOB_ID"]))
    own = resource.getrusage(resource.RUSAGE_SELF)
    age = _process_age()
    log.info(STARTUP_LINE.format(cpu=own.ru_utime + own.ru_stime, wall=0.0 if age is None else age))
    atexit.register(_log_resources, log, time.monotonic())
    return log, cfg


def training_checkpoint(snakemake, log: logging.Logger | None = None):
    """The checkpoint of a long job (:class:`bmrep.learning.checkpoint.Checkpoint`): training, annealing, evaluation.

    It is ``<first output>.ckpt.npz``, saved every ``checkpoint_every.<rule>``
    steps of the config (0 or absent: never): a training's updates, an
    annealing's steps (carlson2016_fig3_truth), an evaluation's units. The period is read from the
    config, not passed as a param, so that changing it never reruns a finished
    job (it does not change the numbers). The checkpoint is keyed by the job's
    params (settings, seed, code digest), wildcards and the SHA-256 of its
    inputs: one saved by a job with other values is ignored. It outlives the
    job: the workflow deletes it once Snakemake has kept the output
    (:func:`bmrep.learning.checkpoint.remove_accepted`).
    """
    from ..io import sha256_of
    from ..learning.checkpoint import SUFFIX, Checkpoint

    every = int((snakemake.config.get("checkpoint_every") or {}).get(snakemake.rule, 0))
    out = Path(snakemake.output[0])
    key = {
        "rule": snakemake.rule,
        "output": str(out),
        "params": {k: v for k, v in snakemake.params.items()},
        "wildcards": {k: v for k, v in snakemake.wildcards.items()},
        "inputs": {str(p): sha256_of(p) for p in snakemake.input},
    }
    ck = Checkpoint(out.with_name(out.name + SUFFIX), every, key, log=(log or logging.getLogger("bmrep")).info)
    if every:
        ck.log(f"checkpoints every {every} steps (updates, annealing steps or units) in {ck.path}")
    return ck
