# The two commands of the README, setup included:
#   make run CORES=16     # the main job: snakemake --cores N all (default profile)
#   make test             # the test suite
# make run PROFILE=smoke|paper runs another profile; TARGET=<rule or file> one part
# (e.g. TARGET=figures/saul1996/fig5.png); MEM_MB=N caps the memory of the jobs running at once (default: the
# machine's available memory); an interrupted run resumes with the same command.
# Extra targets: make setup (no root needed), make smoke, make smoke-hash, make paper-dryrun, make lint, make report,
# make publish, make costs, make timeline, make bench, make cluster-test, make paper-rehearsal, and
# make chromium (optional, as root: the browser for the report's screenshots and its rendering tests).

PYTHON ?= python3.11
VENV   := .venv
BIN    := $(VENV)/bin
CORES  ?= 2
STAMP  := $(VENV)/.installed
PYX    := $(shell find src -name '*.pyx' -o -name '*.pxd' -o -name '*.h')
SNAKE  := $(BIN)/snakemake

.PHONY: setup chromium run all smoke smoke-hash smoke-manifest test cluster-test paper-rehearsal paper-dryrun lint report publish costs timeline bench api-doc clean

# No root and no network beyond the package index: Chromium, which only the report's screenshots and
# rendering tests use, is the optional target `make chromium` (those tests skip without it, one line each).
$(STAMP): pyproject.toml setup.py $(PYX)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade "pip>=24"
	$(BIN)/python -m pip install --quiet "setuptools==84.2.1" wheel "cython==3.3.1" "numpy==2.4.6" "scipy==1.17.1"
	$(BIN)/python -m pip install --quiet --no-build-isolation -e ".[dev]"
	@touch $(STAMP)

setup: $(STAMP)

# Optional, needs root (or sudo) and Debian's package registry: headless Chromium, for the report's
# screenshots (make report, make publish) and the tests that render the HTML report (skipped without it).
chromium:
	@echo "installing Debian's chromium (the report's screenshots and rendering tests use it)"
	@SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
	  $$SUDO apt-get install -y -q chromium >/dev/null 2>&1 || \
	  { $$SUDO apt-get update -q >/dev/null && $$SUDO apt-get install -y -q chromium >/dev/null; }

# make run [PROFILE=smoke|paper] [TARGET=...]: bmrep-run is snakemake with the config checked first.
PROFILE ?= default
PROFILE_ARGS := $(if $(filter default,$(PROFILE)),,--configfile config/$(PROFILE).yaml)
PROFILE_RESULTS := results$(if $(filter default,$(PROFILE)),,/$(PROFILE))
PROFILE_FIGURES := figures$(if $(filter default,$(PROFILE)),,/$(PROFILE))
TARGET ?= all

# MEM_MB=N: the memory budget of the run's jobs together (default: the machine's available memory, less 1000 MB
# for Snakemake itself; every rule declares its mem_mb, bmrep.pipeline.memory).
MEM_MB ?=
run all: $(STAMP)
	$(BIN)/bmrep-run --cores $(CORES) $(TARGET) $(PROFILE_ARGS) $(if $(MEM_MB),--resources mem_mb=$(MEM_MB))

smoke: $(STAMP)
	$(SNAKE) --cores $(CORES) all --configfile config/smoke.yaml

# Refactoring guard: the smoke profile's results must hash to the committed
# manifest (numbers only: times, versions and rendered claims are left out).
SMOKE_MANIFEST := src/bmrep/ops/records/smoke_manifest.sha256
smoke-hash: smoke
	$(BIN)/python -m bmrep.ops.result_manifest check results/smoke $(SMOKE_MANIFEST)

# Only in a commit that changes numbers on purpose (and says why).
smoke-manifest: smoke
	$(BIN)/python -m bmrep.ops.result_manifest write results/smoke $(SMOKE_MANIFEST)

# Two pytest processes side by side (ci/test.sh): the tests that run Snakemake in the checkout, the rest.
# As root (CI) the tests first try to install the optional browser, so the report's rendering tests run there;
# without root or without the package registry they skip, one line each (setup itself never needs root).
test: $(STAMP)
	@command -v chromium >/dev/null || test "$$(id -u)" != 0 || $(MAKE) --no-print-directory chromium || \
	  echo "no chromium: the report's rendering tests will skip"
	ci/test.sh $(BIN)/python

# The SLURM path on a one-node cluster of this machine (as root; SKIPPED with the reason where it
# cannot start one): a part of the smoke profile through profiles/slurm, a training killed at its
# time limit and one cancelled with scancel, both resumed (ci/cluster_test.sh, tests/house/test_cluster.py).
cluster-test: $(STAMP)
	ci/cluster_test.sh $(BIN)/python

# Every rule of the paper profile at the papers' shapes, counts cut, through profiles/slurm on a one-node SLURM
# of this machine (as root), at two cuts; writes docs/paper-rehearsal.md (ci/paper_rehearsal.sh;
# not in CI: about 49 minutes on 2 cores, docs/paper-rehearsal.md). REHEARSAL_ARGS=--dry-run shows what it
# would submit.
paper-rehearsal: $(STAMP)
	ci/paper_rehearsal.sh $(BIN)/python $(REHEARSAL_ARGS)

paper-dryrun: $(STAMP)
	$(SNAKE) -n all --configfile config/paper.yaml

# Every check runs (the first failure does not hide the others); fix with
# `ruff format . && ruff check --fix . && snakefmt Snakefile workflow/rules`.
lint: $(STAMP)
	@status=0; \
	$(BIN)/ruff check . || status=1; \
	$(BIN)/ruff format --check . || status=1; \
	$(BIN)/snakefmt --check Snakefile workflow/rules || status=1; \
	$(SNAKE) --lint || status=1; \
	exit $$status

# make report [PROFILE=smoke|paper]: the HTML report of that profile's last run.
report: $(STAMP)
	@test -f config/$(PROFILE).yaml -o "$(PROFILE)" = default || { echo "make report: no profile '$(PROFILE)' (config/$(PROFILE).yaml); use default, smoke or paper"; exit 2; }
	$(SNAKE) --report $(PROFILE_RESULTS)/report.html $(TARGET) $(PROFILE_ARGS)
	$(BIN)/python -m bmrep.ops.browser $(PROFILE_RESULTS)/report.html $(PROFILE_FIGURES)/report

# make publish PROFILE=default|paper: the finished run's summary, figures (web-sized), the report's
# screenshots and RUN.md into docs/results/<profile>/, and the README's block of verdicts from them.
# Refuses (one line) a run with jobs left, made by other code, or a checkout with uncommitted changes.
publish: report
	$(BIN)/python -m bmrep.ops.publish $(PROFILE)

# The per-rule cost table (src/bmrep/pipeline/records/costs.csv: measured CPU and memory per job,
# paper-profile core-hours) and the SLURM profile's per-rule resources, from the job logs of the last default
# run (which it keeps, one row per job, in src/bmrep/ops/records/default_jobs.csv: after a change of
# src/bmrep/ops/records/cost_scaling.yaml, `make costs COSTS_FROM=src/bmrep/ops/records/default_jobs.csv`
# extrapolates again without a run).
COSTS_FROM ?= results/logs
costs: $(STAMP)
	$(BIN)/python -m bmrep.ops.costs $(COSTS_FROM)

timeline: $(STAMP)
	$(BIN)/python -m bmrep.ops.timeline $(PROFILE_RESULTS)/logs --cores $(CORES) all $(PROFILE_ARGS)

# Every benchmark, then one table of all of them (benchmarks/table.py; benchmarks/README.md).
bench: $(STAMP)
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done
	$(BIN)/python benchmarks/table.py

# docs/api.md: the science subpackages' public names, from their faces and docstrings (tests/house/test_api.py: current).
api-doc: $(STAMP)
	$(BIN)/python -m bmrep.ops.api_doc docs/api.md

clean:
	rm -rf build $(VENV) .snakemake
