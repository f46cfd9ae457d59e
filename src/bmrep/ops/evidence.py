"""Evidence runs as publications: ``make publish EVIDENCE=<name>`` (``config/evidence/<name>.yaml``).

An evidence run (``config/evidence/``) reruns one part of the pipeline bigger; published like a profile under
``docs/results/evidence/<name>/`` (``REPLICATION.md``, ``replication_summary.csv``, figures, ``RUN.md``) with
one line in the README's block. Where its config adopts published models (``salakhutdinov2010.adopt_dir``:
the schedule run, whose trainings span sessions), ``RUN.md`` also lists each training's time from its model's
sidecar, since the run that publishes took them instead of training them.
"""

from __future__ import annotations

import json
from pathlib import Path

PREFIX = "evidence/"


def is_evidence(profile: str) -> bool:
    """Whether ``profile`` names an evidence run (``evidence/<name>``) rather than a profile."""
    return profile.startswith(PREFIX)


def trained_models(cfg: dict) -> list[dict]:
    """The trainings an evidence run adopted, from their published sidecars (none without ``adopt_dir``).

    One row per published model: seed index, algorithm, updates, training hours (the training loop's time on
    one core, the job's CPU) and milliseconds per update.
    """
    adopt = (cfg.get("salakhutdinov2010") or {}).get("adopt_dir")
    if not adopt or not Path(adopt).is_dir():
        return []
    rows = []
    for sidecar in sorted(Path(adopt).glob("seed*/*.npz.json")):
        meta = json.loads(sidecar.read_text())
        name = sidecar.name.removesuffix(".npz.json")
        rows.append(
            {
                "seed": int(meta.get("repeat", sidecar.parent.name.removeprefix("seed"))),
                "what": "pretraining" if name == "pretrained" else name,
                "updates": meta.get("final_update", meta.get("n_updates", "")),
                "hours": float(meta.get("seconds", float("nan"))) / 3600,
                "ms_per_update": 1e3 * float(meta.get("seconds_per_update", float("nan"))),
            }
        )
    return rows


def run_md_lines(cfg: dict, models_dir: str) -> list[str]:
    """RUN.md's lines on an evidence run: what it settles, and the trainings it adopted."""
    lines = [f"- what it settles: {cfg['description']}"] if cfg.get("description") else []
    rows = trained_models(cfg)
    if rows:
        total = sum(r["hours"] for r in rows)
        lines += ["", f"Trainings taken from their published models (`{models_dir}`, format in its README), "
                      f"{total:.1f} hours in all by each training's own clock (its model's sidecar: wall time, "
                      "so a training that was paused, resumed or shared its core counts those hours too; the CPU "
                      "time of each is in the models' README):", "",
                  "| seed | training | updates | wall hours | wall ms an update |",
                  "|---|---|---|---|---|"]  # fmt: skip
        for r in rows:
            ms = f"{r['ms_per_update']:.1f}" if r["ms_per_update"] == r["ms_per_update"] else ""
            lines.append(f"| {r['seed']} | {r['what']} | {r['updates']} | {r['hours']:.2f} | {ms} |")
    return lines


__all__ = ["PREFIX", "is_evidence", "trained_models", "run_md_lines"]
