#!/usr/bin/env bash
# A private one-node Slurm cluster on 127.0.0.1 for the scale-out tests (run as root).
#   slurm-local.sh start DIR   prints `export SLURM_CONF=DIR/slurm.conf` once the node is idle
#   slurm-local.sh stop DIR    ends this cluster's processes, and only them
# Everything (conf, munge key and socket, state, spool, logs, pid files) lives in DIR and the
# ports are picked free at start, so several clusters can run at once (parallel tests).
set -euo pipefail

cmd=${1:-}; dir=${2:-}
[[ ($cmd == start || $cmd == stop) && -n $dir ]] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }
if [[ $cmd == stop && ! -d $dir ]]; then exit 0; fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd -P)
conf=$dir/slurm.conf
marker="# Written by scripts/slurm-local.sh"

# whether process $1 exists and is not a zombie
alive() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    [[ ${stat##*) } != Z* ]]
}

# pid of a daemon from its pid file, if that process is alive and still that daemon
live_pid() {
    local pid
    pid=$(cat "$dir/run/$1.pid" 2>/dev/null) || return 1
    [[ $pid =~ ^[0-9]+$ && $(cat "/proc/$pid/comm" 2>/dev/null) == "$1" ]] && alive "$pid" && echo "$pid"
}

# This cluster's processes: the daemons from their pid files, the slurmstepds (no pid file; they
# run in the log directory, where slurmd chdirs), and all their descendants (the jobs).
own_pids() {
    local name p d stat ppid roots=" "
    for name in slurmctld slurmd munged; do p=$(live_pid $name) && roots+="$p "; done
    for d in /proc/[0-9]*; do
        [[ $(cat "$d/comm" 2>/dev/null) == slurmstepd && $(readlink "$d/cwd" 2>/dev/null) == "$dir/log" ]] &&
            roots+="${d#/proc/} "
    done
    # children by parent (field 4 of /proc/PID/stat, after the command name in parentheses)
    declare -A kids=()
    for d in /proc/[0-9]*; do
        stat=$(cat "$d/stat" 2>/dev/null) || continue
        ppid=${stat##*) }; ppid=${ppid#* }; ppid=${ppid%% *}
        kids[$ppid]+="${d#/proc/} "
    done
    local todo=$roots all=""
    while [[ -n ${todo// /} ]]; do
        set -- $todo; todo=""
        for p; do all+="$p "; todo+="${kids[$p]:-}"; done
    done
    echo $all
}

# TERM, then KILL what is left after 5 s (slurmstepd ignores TERM); waits up to 5 s more.
stop() {
    local pids sig
    pids=$(own_pids)
    for sig in TERM KILL; do
        [[ -n $pids ]] || return 0
        kill -$sig $pids 2>/dev/null || true
        for _ in $(seq 25); do
            pids=$(for p in $pids; do if alive "$p"; then echo "$p"; fi; done)
            [[ -n $pids ]] || return 0
            sleep 0.2
        done
    done
    echo "slurm-local: still running after SIGKILL: $pids" >&2
    return 1
}

show_logs() {
    local f
    for f in "$dir"/log/*.log; do if [[ -f $f ]]; then echo "== $f"; tail -n 40 "$f"; fi; done >&2
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

write_conf() {
    cat > "$conf" <<EOF
$marker: a private one-node cluster on 127.0.0.1.
ClusterName=mglocal
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$1
SlurmdPort=$2
# bind to the address the host name resolves to, not to every interface
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
PlugStackConfig=$dir/plugstack.conf
# no cgroups in a container, no accounting daemon
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
# finished jobs stay in scontrol's view for an hour (there is no accounting to ask)
MinJobAge=3600
ReturnToService=2
# schedule a batch job when it is submitted or its dependency ends, not up to 3 s later
SchedulerParameters=batch_sched_delay=0
# CPUs (not whole nodes) are allocated, and the node claims 8 whatever the machine has, so an
# array's tasks run side by side
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
NodeName=$host NodeAddr=127.0.0.1 NodeHostname=$host CPUs=8 State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

if [[ $cmd == stop ]]; then stop; exit; fi

if live_pid slurmctld >/dev/null || live_pid slurmd >/dev/null || live_pid munged >/dev/null; then
    echo "slurm-local: a cluster is already running in $dir" >&2; exit 1
fi
# DIR is the cluster's alone: refuse one that holds anything but an earlier cluster's files
if [[ -n $(ls -A "$dir") ]] && ! head -n 1 "$conf" 2>/dev/null | grep -q "^$marker"; then
    echo "slurm-local: $dir is not empty and holds no cluster of this script" >&2; exit 1
fi
# The daemons must not keep the caller's descriptors: a caller reading our output to its end
# (or, like Foundation's Process, watching a socket for our exit) would wait for them forever.
# (255 is bash's own, close-on-exec; no redirection on the loop, whose saved stderr it would close)
for fd in $(ls /proc/$$/fd); do
    case $fd in 0|1|2|255) ;; *) eval "exec $fd>&-" 2>/dev/null || true ;; esac
done
exec </dev/null
rm -rf "$dir"/{munge,state,spool,log,run}
echo "$marker: being started" > "$conf"
mkdir -p "$dir"/{munge,state,spool,log,run}
# munged wants a socket directory everyone can enter and a key only its owner can read
chmod 755 "$dir" "$dir/munge"
mungekey --create --keyfile="$dir/munge/munge.key" --force
chmod 600 "$dir/munge/munge.key"
: > "$dir/plugstack.conf"   # so the system's /etc/slurm/plugstack.conf is not read
export SLURM_CONF=$conf
munged --socket="$dir/munge/munge.socket" --key-file="$dir/munge/munge.key" \
       --pid-file="$dir/run/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" \
       >>"$dir/log/daemons.log" 2>&1 ||
    { show_logs; stop; exit 1; }

host=$(hostname -s)
# Free ports are picked, then bound by the daemons a moment later: another process may take one
# in between, so daemons that die at once get a second and third try on new ports.
for attempt in 1 2 3; do
    ctld_port=$(free_port)
    slurmd_port=$(free_port)
    while [[ $slurmd_port == "$ctld_port" ]]; do slurmd_port=$(free_port); done
    write_conf "$ctld_port" "$slurmd_port"
    { slurmctld -f "$conf" && slurmd -f "$conf" -N "$host"; } >>"$dir/log/daemons.log" 2>&1 || { show_logs; stop; exit 1; }
    for _ in $(seq 150); do   # 30 s
        if [[ $(sinfo -h -N -o %T 2>/dev/null) == idle ]]; then
            echo "export SLURM_CONF=$conf"
            exit 0
        fi
        { live_pid slurmctld && live_pid slurmd; } >/dev/null || break
        sleep 0.2
    done
    { live_pid slurmctld && live_pid slurmd; } >/dev/null && break   # up but not idle: no retry
    echo "slurm-local: a daemon exited (try $attempt)" >&2
    show_logs
    for p in $(live_pid slurmctld) $(live_pid slurmd); do kill -TERM "$p"; done
    sleep 1
done
echo "slurm-local: the node did not become idle" >&2
sinfo -N >&2 || true
show_logs
stop
exit 1
