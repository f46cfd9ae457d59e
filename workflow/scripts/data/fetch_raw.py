"""Fetch one raw file (mirror first, then public URLs) and verify its SHA-256."""

from bmrep.datasets.sources import RAW_FILES, fetch, resolve_mirror
from bmrep.pipeline.runtime import setup_job

log, _ = setup_job(snakemake)  # noqa: F821
raw = RAW_FILES[snakemake.wildcards.raw]  # noqa: F821
mirror = resolve_mirror(snakemake.params.mirror)  # noqa: F821
source = fetch(raw, snakemake.output[0], mirror, allow_download=snakemake.params.allow_download)  # noqa: F821
log.info("%s <- %s (sha256 %s verified)", raw.name, source, raw.sha256)
