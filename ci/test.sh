#!/usr/bin/env bash
# make test: the suite in two pytest processes side by side. Run alone it keeps about one core busy
# (much of it waits on Snakemake runs), so on 2 cores its halves overlap:
#  - the tests marked `checkout`, which run Snakemake in the checkout itself: one process, one at a
#    time (they share its .snakemake and the session's smoke run; tests/conftest.py checks the marks);
#  - all the others: unit tests, and the workflow tests that work in copies of the checkout.
# The second half's report follows the first's; it fails if either half fails.
# Usage: ci/test.sh PYTHON [pytest options...]
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON="${1:-.venv/bin/python}"
shift || true
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$PYTHON" -m pytest -q -m "checkout and not cluster" "$@" >"$log" 2>&1 &
checkout_pid=$!
"$PYTHON" -m pytest -q -m "not checkout and not cluster" "$@"
rest=$?
wait "$checkout_pid"
checkout=$?
echo "== the tests that run Snakemake in the checkout itself (pytest -m checkout):"
cat "$log"
if [ "$rest" -eq 0 ] && [ "$checkout" -eq 0 ]; then
    echo "make test: passed (both halves)"
    exit 0
fi
echo "make test: FAILED (pytest exit status: others $rest, checkout $checkout)" >&2
exit 1
