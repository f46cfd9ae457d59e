#!/usr/bin/env bash
# make paper-rehearsal (issue 52; spec "Rehearsal of the paper profile"): every rule of the paper profile at the
# papers' shapes with its iteration and repeat counts cut (config/rehearsal.yaml), through profiles/slurm on a
# one-node SLURM of this machine (ci/local_slurm.sh, started and stopped here); then the rules above 1 paper
# core-hour and those whose memory grows with a cut count again at a second cut (config/rehearsal_cut2.yaml);
# then docs/paper-rehearsal.md from both runs' job records (bmrep.ops.rehearsal).
# Starts from scratch: results/rehearsal and results/rehearsal_cut2 are removed first (a job skipped as done
# would have no record of this run).
#
#   ci/paper_rehearsal.sh [PYTHON]             # the rehearsal (root, 2 cores: about 49 minutes, docs/paper-rehearsal.md)
#   ci/paper_rehearsal.sh [PYTHON] --dry-run   # what it would submit, both cuts (no cluster, nothing removed)
set -uo pipefail
cd "$(dirname "$0")/.."
PYTHON="${1:-.venv/bin/python}"
SNAKE="$(dirname "$PYTHON")/snakemake"
DRY=()
[ "${2:-}" = "--dry-run" ] && DRY=(-n --forceall --quiet rules)   # from scratch, as the rehearsal runs
SLURM=(--workflow-profile profiles/slurm --slurm-status-command squeue --slurm-init-seconds-before-status-checks 5)
# The first cut's rules of many jobs: GROUP_SIZE to a submission, one after another (--cores 1: a group asks for
# one CPU, the rule's memory and the sum of its jobs' runtimes); bmrep.ops.rehearsal.group_args says why
# and which. The second cut runs few jobs of each rule, the costliest: one each. (Not GROUPS: bash keeps that
# name for the user's groups and ignores an assignment.)
read -r -a GROUPING <<<"$("$PYTHON" -m bmrep.ops.rehearsal group-args)" || exit 1
CUT1=("${GROUPING[@]}" --cores 1 --configfile config/paper.yaml config/rehearsal.yaml)
CUT2=(--configfile config/paper.yaml config/rehearsal.yaml config/rehearsal_cut2.yaml)
t0=$(date +%s)

if [ ${#DRY[@]} -eq 0 ]; then
    env_line=$(ci/local_slurm.sh start)
    rc=$?
    [ "$rc" -eq 3 ] && { echo "paper-rehearsal: no SLURM cluster can be started on this machine (the reason is above)" >&2; exit 1; }
    trap 'ci/local_slurm.sh stop' EXIT
    trap 'exit 130' INT TERM
    [ "$rc" -ne 0 ] && { echo "paper-rehearsal: FAILED: the local SLURM cluster did not start" >&2; exit 1; }
    eval "$env_line"
    rm -rf results/rehearsal results/rehearsal_cut2 figures/rehearsal figures/rehearsal_cut2
    # every SLURM job's memory as the node sees it (its Snakemake processes and script together)
    "$PYTHON" -m bmrep.ops.job_memory results/rehearsal/job_memory.csv &
    sampler=$!
    trap 'kill -TERM $sampler 2>/dev/null; wait $sampler; ci/local_slurm.sh stop' EXIT
fi
echo "paper-rehearsal: first cut, every rule" >&2
"$SNAKE" "${DRY[@]}" "${SLURM[@]}" all "${CUT1[@]}" || { echo "paper-rehearsal: FAILED in the first cut" >&2; exit 1; }
rules=$("$PYTHON" -m bmrep.ops.rehearsal second-cut-rules) || exit 1
echo "paper-rehearsal: second cut: $rules" >&2
if [ ${#DRY[@]} -gt 0 ]; then
    second=(all --until $rules)  # no first cut to choose jobs from: every job of those rules
else
    # the outputs of each rule's costliest first-cut jobs (bmrep.ops.rehearsal.second_cut_targets)
    read -r -a second <<<"$("$PYTHON" -m bmrep.ops.rehearsal second-cut-targets)" || exit 1
fi
"$SNAKE" "${DRY[@]}" "${SLURM[@]}" "${second[@]}" "${CUT2[@]}" ||
    { echo "paper-rehearsal: FAILED in the second cut" >&2; exit 1; }
[ ${#DRY[@]} -gt 0 ] && exit 0
kill -TERM "$sampler" && wait "$sampler"
"$PYTHON" -m bmrep.ops.rehearsal report $(($(date +%s) - t0)) || exit 1
echo "paper-rehearsal: done in $(($(date +%s) - t0)) s; wrote docs/paper-rehearsal.md"
