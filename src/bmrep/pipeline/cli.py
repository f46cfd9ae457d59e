"""``bmrep-run``: Snakemake, with the command line's config checked first.

Snakemake reads ``--configfile`` and ``--config`` before it reads the
Snakefile, so a missing file, a YAML syntax error or a dotted ``--config``
key ends in a traceback there, before the workflow's own one-line checks
(:mod:`bmrep.pipeline.config_check`) can run. ``bmrep-run`` (what ``make run`` calls)
takes the same arguments as ``snakemake`` and, before handing them over:

- merges repeated ``--configfile`` options into one, in order (Snakemake
  keeps only the last occurrence; one option with several files merges them,
  later files overriding earlier ones);
- checks that every config file exists and parses, naming the file and the
  YAML line of a syntax error;
- applies a dotted ``--config`` key (``saul1996.classifier.n_splits=3``), which
  Snakemake refuses, as a small config file given last to ``--configfile``
  (``.snakemake/config-overrides/<hash>.yaml``; a file, because Snakemake
  reads nested ``--config`` values as strings, and the schema wants numbers);
  any other malformed entry is one line.

Every problem is one line on stderr and exit status 2; nothing is run.

A local run also gets a memory budget (:func:`with_memory_budget`): every rule
declares ``mem_mb`` (:mod:`bmrep.pipeline.memory`), and ``--resources
mem_mb=`` from the machine's available memory keeps Snakemake from starting
more jobs at once than fit, unless the command gives ``--resources`` itself or
runs on a cluster executor.

The Snakefile also calls :func:`clear_stale_locks_at_start`, for ``bmrep-run``
and a plain ``snakemake`` alike: it clears the locks a killed run leaves in
``.snakemake/locks`` (after SIGKILL, Snakemake would refuse to start until
``--unlock``), but only when no other Snakemake process works in this
directory and the locks were not written on another host, so the same command
resumes a killed run as it resumes an interrupted one.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import socket
import sys
from pathlib import Path

import yaml

from .config_check import deep_merge
from .memory import available_mb, budget_mb

CONFIG_FILE_OPTIONS = ("--configfile", "--configfiles")
CONFIG_OPTION = "--config"
_KEY = re.compile(r"[A-Za-z_][\w-]*$")
LOCK_OWNER = Path(".snakemake/bmrep-lock-owner.json")


class UsageError(ValueError):
    """A command-line problem, reported as one line."""


def _option_values(argv: list[str], i: int) -> int:
    """Index one past the values of the option at ``argv[i]`` (values run until the next ``-`` argument)."""
    j = i + 1
    while j < len(argv) and not argv[j].startswith("-"):
        j += 1
    return j


def check_config_file(path: str) -> None:
    """Raise :class:`UsageError` unless ``path`` is a readable YAML mapping."""
    p = Path(path)
    if not p.is_file():
        profiles = ", ".join(str(f) for f in sorted(Path("config").glob("*.yaml"))) or "none found"
        hint = (
            ""
            if p.suffix in (".yaml", ".yml", ".json")
            else "; a target after --configfile is read as a file: put targets first"
        )
        raise UsageError(f"config file not found: {path} (the profiles here: {profiles}{hint})")
    try:
        data = yaml.safe_load(p.read_text(encoding="utf-8"))
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark else path
        raise UsageError(f"{where}: YAML syntax error: {err.problem or err.context}") from None
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        raise UsageError(f"{path}: not a YAML file ({err})") from None
    if data is not None and not isinstance(data, dict):
        raise UsageError(f"{path}: a config file must be a mapping of keys to values, not a {type(data).__name__}")


def dotted_override(entry: str) -> dict | None:
    """A dotted ``--config`` entry as a nested mapping (``a.b=1`` -> ``{a: {b: 1}}``); None for a plain key."""
    key, sep, value = entry.partition("=")
    if not sep:
        raise UsageError(f"--config {entry!r}: expected key=value (e.g. saul1996.classifier.n_splits=3)")
    parts = key.split(".")
    if not all(_KEY.match(p) for p in parts):
        raise UsageError(f"--config {entry!r}: {key!r} is not a key or dotted key path")
    if len(parts) == 1:
        return None
    try:
        nested = yaml.safe_load(value) if value else None
    except yaml.YAMLError:
        nested = value
    for p in reversed(parts):
        nested = {p: nested}
    return nested


def overrides_file(overrides: dict, where: Path = Path(".snakemake/config-overrides")) -> str:
    """Write the dotted overrides as a YAML file named by its content; return its path."""
    text = yaml.safe_dump(overrides, sort_keys=True)
    path = where / f"{hashlib.sha256(text.encode()).hexdigest()[:16]}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def check_args(argv: list[str]) -> list[str]:
    """The Snakemake arguments ``argv``: config files merged and checked, dotted ``--config`` keys as a file."""
    out: list[str] = []
    config_files: list[str] = []
    overrides: dict = {}
    insert_at = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, inline = arg.partition("=")
        if name in CONFIG_FILE_OPTIONS or name == CONFIG_OPTION:
            end = _option_values(argv, i)
            values = ([inline] if eq else []) + argv[i + 1 : end]
            if not values:
                raise UsageError(f"{name} needs a value")
            if name == CONFIG_OPTION:
                plain = []
                for v in values:
                    nested = dotted_override(v)
                    if nested is None:
                        plain.append(v)
                    else:
                        deep_merge(overrides, nested)
                out += [CONFIG_OPTION, *plain] if plain else []
            else:
                insert_at = len(out) if insert_at is None else insert_at
                config_files += values
            i = end
            continue
        out.append(arg)
        i += 1
    for path in config_files:
        check_config_file(path)
    if overrides:
        insert_at = len(out) if insert_at is None else insert_at
        config_files.append(overrides_file(overrides))
    if config_files:
        out[insert_at:insert_at] = ["--configfile", *config_files]
    return out


def repeated_config_file_options(argv: list[str]) -> str | None:
    """A one-line refusal when ``argv`` repeats ``--configfile`` (Snakemake would keep only the last)."""
    names = [a.partition("=")[0] for a in argv]
    n = sum(name in CONFIG_FILE_OPTIONS for name in names)
    if n < 2:
        return None
    return (
        f"--configfile given {n} times: Snakemake keeps only the last one. Give all files to one option, "
        "--configfile a.yaml b.yaml (later files override earlier ones), or run through `bmrep-run`, which merges them"
    )


def _snakemake_processes_here(workdir: Path) -> list[int]:
    """PIDs of other processes running Snakemake or one of its jobs with ``workdir`` as their directory (Linux)."""
    mine = {os.getpid(), os.getppid()}
    pids = []
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            if int(proc.name) in mine or Path(os.readlink(proc / "cwd")).resolve() != workdir:
                continue
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ")
        except (OSError, ValueError):
            continue  # gone, or not ours to read
        if b"snakemake" in cmdline:
            pids.append(int(proc.name))
    return pids


def _lock_owner(workdir: Path) -> dict | None:
    """The host and PID recorded by the run that last started in ``workdir`` with no locks present."""
    try:
        owner = json.loads((workdir / LOCK_OWNER).read_text())
        return owner if isinstance(owner, dict) else None
    except (OSError, ValueError):
        return None


def _record_lock_owner(workdir: Path) -> None:
    path = workdir / LOCK_OWNER
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"host": socket.gethostname(), "pid": os.getpid()}))
        tmp.replace(path)
    except OSError:
        pass  # a read-only checkout: nothing to record, the /proc check still applies


def clear_stale_locks(workdir: Path = Path(".")) -> bool:
    """Remove the locks in ``.snakemake/locks`` that no live Snakemake run holds; whether any were removed.

    Snakemake locks its files while it runs and removes the locks when it
    ends, even after Ctrl-C, but not after SIGKILL (an out-of-memory kill, a
    ``kill -9``, a lost terminal): the same command then stops with "Directory
    cannot be locked" until ``snakemake --unlock``. A lock is stale when no
    other Snakemake process (or job of one) works in this directory on this
    machine. Locks written by a run on another machine (a login node sharing
    the file system: its processes cannot be seen from here) are never
    removed; a line says which host holds them. A run that finds no locks
    records its host and PID (``.snakemake/bmrep-lock-owner.json``) for that
    check.
    """
    workdir = workdir.resolve()
    locks = workdir / ".snakemake" / "locks"
    held = [p for p in locks.iterdir() if p.name.endswith(".lock")] if locks.is_dir() else []
    if not Path("/proc/self").exists():
        return False  # no /proc: no way to tell a live run from a killed one
    if not held:
        _record_lock_owner(workdir)
        return False
    owner = _lock_owner(workdir) or {}
    if owner.get("host", socket.gethostname()) != socket.gethostname():
        print(
            f"bmrep: .snakemake/locks were written by a run on host {owner['host']} (pid {owner.get('pid')}); "
            "if it no longer runs, remove them with `snakemake --unlock`",
            file=sys.stderr,
        )
        return False
    if owner.get("pid") == os.getpid() or _snakemake_processes_here(workdir):
        return False  # ours, or a live run holds them: Snakemake's own message applies
    for lock in held:
        lock.unlink(missing_ok=True)
    _record_lock_owner(workdir)
    print("bmrep: removed the locks of an earlier run that was killed; resuming", file=sys.stderr)
    return True


def clear_stale_locks_at_start(argv: list[str]) -> None:
    """The Snakefile's call: clear stale locks in a run that takes locks (not a job, not ``--unlock``)."""
    if not {"--nolock", "--unlock"} & set(argv):
        clear_stale_locks(Path.cwd())


RESOURCE_OPTIONS = ("--resources", "--res")
# a run through one of these submits its jobs elsewhere (profiles/slurm sets its executor): no local budget
REMOTE_OPTIONS = ("--executor", "-e", "--workflow-profile", "--profile")


def with_memory_budget(argv: list[str], available: int | None) -> tuple[list[str], str | None]:
    """``argv`` with ``--resources mem_mb=<budget>`` appended for a local run, and the line that says so.

    Unchanged (and no line) where the command names its own ``--resources``, a
    cluster executor or profile, or the available memory is unknown. Appended
    last, so that the option's values end before any target.
    """
    names = {a.partition("=")[0] for a in argv}
    budget = budget_mb(available)
    if names & set(RESOURCE_OPTIONS) or names & set(REMOTE_OPTIONS) or budget is None:
        return argv, None
    line = (
        f"bmrep-run: memory budget --resources mem_mb={budget} (available memory less the controller's share); "
        "give --resources mem_mb=N to change it"
    )
    return [*argv, "--resources", f"mem_mb={budget}"], line


def main(argv: list[str] | None = None) -> int:
    """Check the arguments, then run Snakemake with them (its exit status)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        argv = check_args(argv)
    except UsageError as err:
        print(f"bmrep-run: {err}", file=sys.stderr)
        return 2
    argv, budget_line = with_memory_budget(argv, available_mb())
    if budget_line:
        print(budget_line, file=sys.stderr)
    from snakemake.cli import main as snakemake_main

    try:
        snakemake_main(argv)
    except SystemExit as done:  # the Snakefile's own one-line checks exit with their message
        if done.code is None or isinstance(done.code, int):
            return done.code or 0
        print(done.code, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
