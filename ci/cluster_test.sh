#!/usr/bin/env bash
# make cluster-test: start a one-node SLURM cluster (ci/local_slurm.sh), run tests/house/test_cluster.py
# against it (marker `cluster`), stop the cluster whatever happened. Where no cluster can be started
# here (not root, no package registry) it says SKIPPED with the reason, and exits 0.
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON="${1:-.venv/bin/python}"
t0=$(date +%s)

env_line=$(ci/local_slurm.sh start)
rc=$?
if [ "$rc" -eq 3 ]; then
    echo "cluster-test: SKIPPED: no SLURM cluster can be started on this machine (the reason is above)"
    exit 0
fi
trap 'ci/local_slurm.sh stop' EXIT
trap 'exit 130' INT TERM
if [ "$rc" -ne 0 ]; then
    echo "cluster-test: FAILED: the local SLURM cluster did not start (see above)" >&2
    exit 1
fi
eval "$env_line"  # export SLURM_CONF=...
"$PYTHON" -m pytest -q -m cluster tests/house/test_cluster.py "${@:2}"
rc=$?
echo "cluster-test: $([ "$rc" -eq 0 ] && echo passed || echo FAILED) in $(($(date +%s) - t0)) s (cluster started and stopped included)"
exit "$rc"
