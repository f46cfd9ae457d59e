#!/usr/bin/env bash
# A one-node SLURM cluster on this machine, for `make cluster-test` (issue 41).
#
#   ci/local_slurm.sh start   # as root: install Debian's Slurm (22.05) and munge if missing,
#                             # write slurm.conf, start munged, slurmctld, slurmd; wait for the node
#   ci/local_slurm.sh stop    # cancel its jobs, end exactly the daemons `start` started, remove slurm.conf
#   ci/local_slurm.sh status  # whether it runs (exit 0) or not (exit 1)
#
# slurm.conf is /etc/slurm/slurm.conf, where every SLURM command looks, the srun that the SLURM
# plugin's job step runs included (it drops SLURM_* variables, SLURM_CONF too). Everything else
# lives in $BMREP_SLURM_DIR (default /run/bmrep-slurm): the munge key and socket, the daemons'
# state, PIDs and logs. A slurm.conf left behind with no slurmctld makes every `snakemake` start
# about 10 s slower (the SLURM plugin asks `scontrol show config` with a 10 s timeout when it is
# loaded), hence `stop` removes it; `start` refuses to replace a slurm.conf it did not write (a
# machine with its own SLURM).
#
# No systemd: the daemons run in the foreground (-D) as background children of this script, their
# PIDs in $BMREP_SLURM_DIR/pids.
#
# Memory requests are enforced, so that a request too small for its job fails here before it fails
# on a cluster (issue 65). Where the machine has a writable cgroup v1 memory and freezer hierarchy
# (this VM has), jobs run in cgroups (proctrack/cgroup, task/cgroup, ConstrainRAMSpace: the kernel
# stops a job at its request, state OUT_OF_MEMORY; cgroup.conf beside slurm.conf). Where it has not
# (a container without cgroups), SLURM polls each job's processes every second
# (jobacct_gather/linux, the sum of their RSS) and kills a step above its request (OverMemoryKill):
# a spike shorter than a second can pass. The start line says which; BMREP_SLURM_MEMORY=poll forces
# the fallback.
# No accounting database either: use the plugin's squeue-based status command
# (--slurm-status-command squeue); MinJobAge keeps finished jobs visible to squeue for 10 minutes,
# longer than the plugin's longest poll interval (180 s).
#
# Exit status: 0 done; 1 failed (the reason on stderr); 3 cannot run here (not root, no package
# registry): one line says why, and `make cluster-test` reports the tests as SKIPPED.
set -uo pipefail

DIR="${BMREP_SLURM_DIR:-/run/bmrep-slurm}"
CONF=/etc/slurm/slurm.conf
CGROUP_CONF=/etc/slurm/cgroup.conf
MARK="# Written by ci/local_slurm.sh"
NODE=bmrepnode
PARTITION=debug
PART_MAXTIME=1-00:00:00          # 24 h, the slurm profile's runtime cap (runtime_cap_min)
PACKAGES=(slurmctld slurmd slurm-client munge)
SKIP=3

say() { echo "local_slurm: $*" >&2; }
skip() { say "SKIPPED: $*"; exit "$SKIP"; }
fail() { say "FAILED: $*"; exit 1; }

alive() {  # alive PID NAME: the process PID exists and runs the program NAME (not a reused PID)
    [ -n "$1" ] && [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -q "$2"
}

install_packages() {
    local missing=()
    for exe in /usr/sbin/slurmctld /usr/sbin/slurmd /usr/bin/sbatch /usr/sbin/munged; do
        [ -x "$exe" ] || missing+=("$exe")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null || skip "no apt-get on this machine to install ${PACKAGES[*]}"
    say "installing ${PACKAGES[*]} (Debian's packages)"
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >"$DIR/apt.log" 2>&1; then
        apt-get update -q >>"$DIR/apt.log" 2>&1 || skip "no package registry reachable (apt-get update failed; $DIR/apt.log)"
        apt-get install -y -q --no-install-recommends "${PACKAGES[@]}" >>"$DIR/apt.log" 2>&1 ||
            fail "apt-get install ${PACKAGES[*]} failed (see $DIR/apt.log)"
    fi
}

memory_enforcement() {  # cgroup where a cgroup v1 memory and freezer hierarchy is writable, else poll
    # BMREP_SLURM_MEMORY=poll tries the fallback on a machine that has cgroups
    if [ -n "${BMREP_SLURM_MEMORY:-}" ]; then
        echo "$BMREP_SLURM_MEMORY"
    elif [ -w /sys/fs/cgroup/memory ] && [ -w /sys/fs/cgroup/freezer ] && [ ! -e /sys/fs/cgroup/cgroup.controllers ]; then
        echo cgroup
    else
        echo poll
    fi
}

write_conf() {
    local cpus mem host enforce
    cpus=$(nproc)
    # what slurmd will find, less 5% so that the node is never drained for "Low RealMemory"
    mem=$(free -m | awk '/^Mem:/ {print int($2 * 0.95)}')
    host=$(hostname -s)
    enforce=$(memory_enforcement)
    mkdir -p "$DIR/ctld" "$DIR/spool"
    mkdir -p "$(dirname "$CONF")"
    cat >"$CONF" <<EOF
$MARK: a one-node test cluster; removed by \`ci/local_slurm.sh stop\`.
ClusterName=bmrep
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$DIR/munge.socket
StateSaveLocation=$DIR/ctld
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/slurmctld.log
SlurmdLogFile=$DIR/slurmd.log
PlugStackConfig=$DIR/plugstack.conf
# memory requests enforced: $enforce (see the head of ci/local_slurm.sh)
$(if [ "$enforce" = cgroup ]; then
    printf '%s\n' ProctrackType=proctrack/cgroup TaskPlugin=task/cgroup JobAcctGatherType=jobacct_gather/cgroup \
        JobAcctGatherFrequency=task=1
else
    printf '%s\n' ProctrackType=proctrack/linuxproc TaskPlugin=task/none JobAcctGatherType=jobacct_gather/linux \
        JobAcctGatherFrequency=task=1 JobAcctGatherParams=OverMemoryKill
fi)
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
# squeue must still show a finished job at the plugin's next poll (every 40 s, growing to 180 s)
MinJobAge=600
# a job past its time limit gets SIGTERM, then SIGKILL 10 s later
KillWait=10
# a job asking more than the partition allows is refused at submission, not left pending forever
EnforcePartLimits=ALL
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=$PARTITION Nodes=$NODE Default=YES MaxTime=$PART_MAXTIME State=UP
EOF
    : >"$DIR/plugstack.conf"
    if [ "$enforce" = cgroup ]; then
        cat >"$CGROUP_CONF" <<EOF
$MARK: the memory limits of the test cluster's jobs; removed by \`ci/local_slurm.sh stop\`.
CgroupPlugin=cgroup/v1
CgroupMountpoint=/sys/fs/cgroup
ConstrainRAMSpace=yes
ConstrainSwapSpace=yes
AllowedSwapSpace=0
EOF
    fi
}

start_daemon() {  # start_daemon NAME COMMAND...: run it in the background, record its PID
    local name=$1
    shift
    setsid "$@" >>"$DIR/$name.out" 2>&1 </dev/null &
    echo $! >"$DIR/pids/$name"
}

status() {
    [ -d "$DIR/pids" ] || return 1
    local n=0
    for name in munged slurmctld slurmd; do
        alive "$(cat "$DIR/pids/$name" 2>/dev/null)" "$name" && n=$((n + 1))
    done
    [ "$n" -eq 3 ]
}

start() {
    [ "$(id -u)" = 0 ] || skip "not root: installing Slurm and starting its daemons needs root"
    if status; then
        say "already running (SLURM_CONF=$CONF)"
        echo "export SLURM_CONF=$CONF"
        return 0
    fi
    for conf in "$CONF" "$CGROUP_CONF"; do
        if [ -e "$conf" ] && ! head -n 1 "$conf" | grep -q "^$MARK"; then
            skip "$conf exists and was not written by this script: this machine has its own SLURM"
        fi
    done
    [ -d "$DIR/pids" ] && stop_daemons  # the remains of a start that did not finish
    mkdir -p "$DIR/pids"
    chmod 755 "$DIR"
    install_packages
    write_conf
    if [ ! -s "$DIR/munge.key" ]; then
        (umask 077 && head -c 1024 /dev/urandom >"$DIR/munge.key")
    fi
    start_daemon munged /usr/sbin/munged -F --force --socket="$DIR/munge.socket" \
        --key-file="$DIR/munge.key" --pid-file="$DIR/munged.pid" --log-file="$DIR/munged.log" \
        --seed-file="$DIR/munged.seed"
    for _ in $(seq 50); do [ -S "$DIR/munge.socket" ] && break; sleep 0.1; done
    [ -S "$DIR/munge.socket" ] || { cat "$DIR/munged.out" >&2; stop_daemons; fail "munged did not start"; }
    export SLURM_CONF="$CONF"
    start_daemon slurmctld /usr/sbin/slurmctld -D -c -f "$CONF"
    start_daemon slurmd /usr/sbin/slurmd -D -f "$CONF" -N "$NODE"
    local state=""
    for _ in $(seq 120); do
        state=$(sinfo -h -n "$NODE" -o %T 2>/dev/null)
        [ "$state" = idle ] && break
        status || break
        sleep 0.5
    done
    if [ "$state" != idle ]; then
        tail -n 20 "$DIR"/slurmctld.log "$DIR"/slurmd.log "$DIR"/*.out >&2 2>/dev/null
        stop_daemons
        fail "node $NODE not idle after 60 s (state '${state:-none}'; logs above)"
    fi
    say "one-node cluster up: $NODE, $(nproc) CPUs, partition $PARTITION (MaxTime $PART_MAXTIME), memory requests enforced by $(memory_enforcement)"
    echo "export SLURM_CONF=$CONF"
}

stop_daemons() {
    export SLURM_CONF="$CONF"
    # jobs first: a job's slurmstepd outlives slurmd, so cancel and wait for them while slurmd runs
    if [ -f "$CONF" ] && alive "$(cat "$DIR/pids/slurmctld" 2>/dev/null)" slurmctld; then
        scancel --full --quiet --user=root 2>/dev/null
        for _ in $(seq 60); do
            [ -z "$(squeue -h -t running,completing,pending -o %i 2>/dev/null)" ] && break
            sleep 0.5
        done
    fi
    for name in slurmd slurmctld munged; do
        local pid
        pid=$(cat "$DIR/pids/$name" 2>/dev/null) || continue
        if alive "$pid" "$name"; then
            kill -TERM "$pid"
            for _ in $(seq 50); do alive "$pid" "$name" || break; sleep 0.2; done
            alive "$pid" "$name" && kill -KILL "$pid"
        fi
        rm -f "$DIR/pids/$name"
    done
    for conf in "$CONF" "$CGROUP_CONF"; do
        if [ -f "$conf" ] && head -n 1 "$conf" | grep -q "^$MARK"; then rm -f "$conf"; fi
    done
    rm -f "$DIR/plugstack.conf" "$DIR/munge.key"
    rm -rf "$DIR/pids" "$DIR/ctld" "$DIR/spool"
}

case "${1:-}" in
    start) start ;;
    stop)
        [ -d "$DIR" ] || { say "not running"; exit 0; }
        stop_daemons
        say "stopped; logs kept in $DIR"
        ;;
    status)
        if status; then echo "running (SLURM_CONF=$CONF)"; else echo "not running"; exit 1; fi
        ;;
    *)
        echo "usage: $0 start|stop|status" >&2
        exit 2
        ;;
esac
