"""Peak memory of each SLURM job on this node, counted as SLURM counts it: every process of the job.

A job of ``profiles/slurm`` is more than its script: the batch step runs
Snakemake, which starts the job step (``srun``) running Snakemake again, which
runs the script (``snakemake --executor slurm-jobstep``). The two Snakemake
processes hold the parsed workflow, a few hundred MB that the job's memory
request must cover as well as the script's own peak (SLURM's
``jobacct_gather/linux`` and a cgroup's limit both count the job's processes
together). The script's log has its own peak (``getrusage``, exact);
Snakemake's ``benchmark:`` record polls the script's process tree. Neither
sees the Snakemake processes.

``python -m bmrep.ops.job_memory OUT.csv`` polls every process that has
``SLURM_JOB_ID`` in its environment, every 0.2 s, until it is stopped
(SIGTERM/SIGINT), and keeps per job: the largest sum of its processes' RSS
(``peak_mb``) and the largest sum of its Snakemake processes' RSS
(``snakemake_mb``); it rewrites ``OUT.csv`` every few seconds and when it
stops. ``make paper-rehearsal`` runs it beside the rehearsal
(``ci/paper_rehearsal.sh``); the job's log names its SLURM job
(``runtime.SLURM_LINE``), which joins the two (:mod:`bmrep.ops.rehearsal`).
A poll can miss a peak shorter than its interval; the rehearsal takes the
larger of this peak and the script's exact one plus its Snakemake processes'.
"""

from __future__ import annotations

import csv
import signal
import sys
import time
from pathlib import Path

import psutil

INTERVAL_S, WRITE_EVERY_S = 0.2, 5.0


def slurm_job(proc: psutil.Process) -> str | None:
    """The SLURM job id in a process's environment, None if it has none (or is gone, or not ours to read)."""
    try:
        return proc.environ().get("SLURM_JOB_ID")
    except (psutil.Error, OSError):
        return None


def is_snakemake(cmdline: list[str]) -> bool:
    """Whether a command line runs Snakemake (``python -m snakemake``, ``.../bin/snakemake``), not its scripts."""
    return any(part == "snakemake" or part.endswith(("/snakemake", "snakemake/__main__.py")) for part in cmdline)


def poll(peaks: dict, jobs: dict) -> None:
    """One poll: every SLURM job's summed RSS, and its Snakemake processes', into ``peaks`` (largest so far).

    ``jobs`` caches each pid's (process creation time, job id): a process's environment does not change.
    """
    total: dict[str, float] = {}
    snake: dict[str, float] = {}
    for proc in psutil.process_iter(["pid", "create_time", "cmdline", "memory_info"]):
        info = proc.info
        key = (info["pid"], info["create_time"])
        if key not in jobs:
            jobs[key] = slurm_job(proc)
        job = jobs[key]
        if job is None or info["memory_info"] is None:
            continue
        rss = info["memory_info"].rss / 2**20
        total[job] = total.get(job, 0.0) + rss
        if is_snakemake(info["cmdline"] or []):
            snake[job] = snake.get(job, 0.0) + rss
    for job, mb in total.items():
        peak, sm = peaks.get(job, (0.0, 0.0))
        peaks[job] = (max(peak, mb), max(sm, snake.get(job, 0.0)))


def write(peaks: dict, out: Path) -> None:
    """``peaks`` as a CSV (slurm_job, peak_mb, snakemake_mb), replaced whole so that a reader never sees half."""
    tmp = out.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["slurm_job", "peak_mb", "snakemake_mb"])
        for job, (peak, sm) in sorted(peaks.items(), key=lambda kv: int(kv[0])):
            w.writerow([job, round(peak, 1), round(sm, 1)])
    tmp.replace(out)


def main(argv: list[str]) -> int:
    """``python -m bmrep.ops.job_memory OUT.csv``: poll until SIGTERM or SIGINT, then write OUT.csv."""
    if len(argv) != 1:
        print("usage: python -m bmrep.ops.job_memory OUT.csv   (polls until SIGTERM)")
        return 2
    out = Path(argv[0])
    out.parent.mkdir(parents=True, exist_ok=True)
    peaks: dict = {}
    jobs: dict = {}
    stop = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.append(True))
    last = time.monotonic()
    while not stop:
        poll(peaks, jobs)
        if time.monotonic() - last > WRITE_EVERY_S:
            write(peaks, out)
            last = time.monotonic()
        time.sleep(INTERVAL_S)
    write(peaks, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
