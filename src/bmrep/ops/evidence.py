"""Evidence runs as publications: ``make publish EVIDENCE=<name>`` (``config/evidence/<name>.yaml``).

An evidence run (``config/evidence/``) reruns one part of the pipeline bigger; published like a profile under
``docs/results/evidence/<name>/`` (``REPLICATION.md``, ``replication_summary.csv``, figures, ``RUN.md``) with
one line in the README's block. Where its config adopts published models (``salakhutdinov2010.adopt_dir``:
the schedule run, whose trainings span sessions), ``RUN.md`` also lists each training's time, since the run that
publishes took them instead of training them: the wall time from its model's sidecar and the CPU time from
``training_cpu.csv`` beside the models (measured outside the training, across its sessions, so it is recorded by
hand when a model is published).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

PREFIX = "evidence/"


def is_evidence(profile: str) -> bool:
    """Whether ``profile`` names an evidence run (``evidence/<name>``) rather than a profile."""
    return profile.startswith(PREFIX)


def trained_models(cfg: dict) -> list[dict]:
    """The trainings an evidence run adopted, from their published sidecars (none without ``adopt_dir``).

    One row per published model: seed index, algorithm, updates, wall hours by the training's own clock,
    milliseconds per update, and the CPU hours and how they were counted where ``training_cpu.csv`` records
    them (NaN and "" where it does not).
    """
    adopt = (cfg.get("salakhutdinov2010") or {}).get("adopt_dir")
    if not adopt or not Path(adopt).is_dir():
        return []
    cpu = training_cpu(Path(adopt) / "training_cpu.csv")
    rows = []
    for sidecar in sorted(Path(adopt).glob("seed*/*.npz.json")):
        meta = json.loads(sidecar.read_text())
        name = sidecar.name.removesuffix(".npz.json")
        seed = int(meta.get("repeat", sidecar.parent.name.removeprefix("seed")))
        what = "pretraining" if name == "pretrained" else name
        cpu_seconds, how = cpu.get((seed, what), (float("nan"), ""))
        rows.append(
            {
                "seed": seed,
                "what": what,
                "updates": meta.get("final_update", meta.get("n_updates", "")),
                "hours": float(meta.get("seconds", float("nan"))) / 3600,
                "ms_per_update": 1e3 * float(meta.get("seconds_per_update", float("nan"))),
                "cpu_hours": cpu_seconds / 3600,
                "cpu_how": how,
            }
        )
    return rows


def training_cpu(path: Path) -> dict[tuple[int, str], tuple[float, str]]:
    """``(seed, training) -> (CPU seconds, how counted)`` from a models directory's ``training_cpu.csv``.

    Columns ``seed, training, cpu_seconds, how``; a missing file is no record (``{}``), a duplicated pair an error.
    """
    if not path.is_file():
        return {}
    out: dict[tuple[int, str], tuple[float, str]] = {}
    with path.open(newline="") as fh:
        for row in csv.DictReader(fh):
            key = (int(row["seed"]), row["training"])
            if key in out:
                raise ValueError(f"{path}: seed {key[0]}'s {key[1]} is listed twice")
            out[key] = (float(row["cpu_seconds"]), row.get("how", ""))
    return out


def run_md_lines(cfg: dict, models_dir: str) -> list[str]:
    """RUN.md's lines on an evidence run: what it settles, and the trainings it adopted."""
    lines = [f"- what it settles: {cfg['description']}"] if cfg.get("description") else []
    rows = trained_models(cfg)
    if rows:
        total = sum(r["hours"] for r in rows)
        cpu = sum(r["cpu_hours"] for r in rows if r["cpu_hours"] == r["cpu_hours"])
        lines += ["", f"Trainings taken from their published models (`{models_dir}`, format in its README): "
                      f"{cpu:.1f} CPU hours as recorded in its `training_cpu.csv` (how each was counted in the last "
                      f"column), {total:.1f} wall hours by each training's own clock (its model's sidecar, so a "
                      "training that was paused, resumed or shared its core counts those hours too):", "",
                  "| seed | training | updates | CPU hours | wall hours | wall ms an update | CPU counted |",
                  "|---|---|---|---|---|---|---|"]  # fmt: skip
        for r in rows:
            ms = f"{r['ms_per_update']:.1f}" if r["ms_per_update"] == r["ms_per_update"] else ""
            cpu_h = f"{r['cpu_hours']:.2f}" if r["cpu_hours"] == r["cpu_hours"] else "not recorded"
            lines.append(f"| {r['seed']} | {r['what']} | {r['updates']} | {cpu_h} | {r['hours']:.2f} | {ms} "
                         f"| {r['cpu_how']} |")  # fmt: skip
    return lines


__all__ = ["PREFIX", "is_evidence", "trained_models", "training_cpu", "run_md_lines"]
