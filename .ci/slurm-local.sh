#!/usr/bin/env bash
# Throwaway single-node Slurm (munged + slurmctld + slurmd on 127.0.0.1) for CI
# and for developers: tests/it/slurm.rs runs a grid of every environment through it.
# swftool's own copy of a workplace recipe.
# Debian 12 (bookworm), run as root, no systemd needed, no cgroups used.
# Measured here: Slurm 22.05.8 from Debian 12; about 21 s from nothing (install included), about 12 s when installed.
# Pitfalls: sbatch --wait polls at 2 s, 10 s, then every 32 s; keep MinJobAge at its default or a failed
# array task's exit code can be lost; daemons need no cgroups with the settings below.
#
#   bash slurm-local.sh          # install (if needed), start, wait until node is idle
#   bash slurm-local.sh smoke    # same, then run an `sbatch --array=0-3 --wait` smoke test
#   bash slurm-local.sh stop     # scontrol shutdown + stop the munged this script started
set -euo pipefail

SPOOL=/var/spool/slurm-ci          # all Slurm state lives here; wiped on every start
LOGS=/var/log/slurm-ci

# pid from a pid file, only if that process is still the named daemon (/run survives reboots here)
live_pid() { local p; p=$(cat "$1" 2>/dev/null) || return 1; [[ $(cat /proc/$p/comm 2>/dev/null) == "$2" ]] && echo "$p"; }
# running = exists and is not a zombie (PID 1 here reaps orphans only after a while)
running() { [[ -e /proc/$1 ]] && ! grep -q '^State:[[:space:]]*Z' /proc/$1/status 2>/dev/null; }

stop_slurm() {
  local p
  if live_pid /run/slurmctld.pid slurmctld >/dev/null || live_pid /run/slurmd.pid slurmd >/dev/null; then
    scontrol shutdown >/dev/null 2>&1 || true          # stops slurmctld and slurmd
    for d in slurmctld slurmd; do
      p=$(live_pid /run/$d.pid $d) || continue
      for _ in $(seq 50); do running "$p" || break; sleep 0.1; done
      ! running "$p" || kill "$p" 2>/dev/null || true   # still there after 5 s
    done
  fi
  if p=$(live_pid /run/munge/munged.pid munged); then
    kill "$p" 2>/dev/null || true
    for _ in $(seq 50); do running "$p" || break; sleep 0.1; done
  fi
  rm -f /run/slurmctld.pid /run/slurmd.pid /run/munge/munged.pid
}

if [[ ${1:-} == stop ]]; then stop_slurm; exit 0; fi

# 1. Packages (policy-rc.d / no init means postinst does not start any daemon).
if ! dpkg -s slurmctld slurmd slurm-client munge >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    slurmctld slurmd slurm-client munge >/dev/null
fi

# Leftovers from an earlier run on this machine.
stop_slurm

# 2. munge: key (postinst normally makes one) + daemon as user munge.
if [[ ! -s /etc/munge/munge.key ]]; then runuser -u munge -- mungekey --create; fi
install -d -o munge -g munge -m 0755 /run/munge
runuser -u munge -- /usr/sbin/munged          # forks into background, writes /run/munge/munged.pid
munge -n | unmunge >/dev/null                 # fails the script if munge does not work

# 3. slurm.conf: one node = this host, reached on 127.0.0.1, no cgroup plugins at all.
#    batch_sched_delay=0: start queued jobs/array tasks at once (default: up to 3 s per round).
#    Leave MinJobAge at its default (300): a small value makes "sbatch --wait" lose a failed
#    array task's exit code once that task's record is purged (seen here with MinJobAge=4).
NODE=$(hostname -s)
HW=$(slurmd -C | head -n1 | sed 's/^NodeName=[^ ]* //')   # CPUs=.. Boards=.. ... RealMemory=..
rm -rf "$SPOOL"; mkdir -p "$SPOOL/ctld" "$SPOOL/d" "$LOGS"
cat > /etc/slurm/slurm.conf <<EOF
ClusterName=ci
SlurmctldHost=${NODE}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=$SPOOL/ctld
SlurmdSpoolDir=$SPOOL/d
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=${NODE} NodeAddr=127.0.0.1 ${HW} State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF

# 4. Daemons (each forks into the background).
slurmctld
slurmd

# 5. Wait until the node is idle.
for _ in $(seq 60); do
  [[ $(sinfo -h -N -o %t 2>/dev/null) == idle ]] && break
  sleep 0.5
done
sinfo -N -l
[[ $(sinfo -h -N -o %t) == idle ]] || { tail -n 30 "$LOGS"/*.log; exit 1; }

# 6. Optional smoke test: a 4-task job array, waited for.
if [[ ${1:-} == smoke ]]; then
  T=$(mktemp -d /tmp/slurmtest.XXXXXX)
  sbatch --array=0-3 --wait --output="$T/out_%A_%a.log" \
    --wrap "echo \"\$SLURM_ARRAY_TASK_ID \$(hostname)\" > $T/task_\$SLURM_ARRAY_TASK_ID.txt"
  for i in 0 1 2 3; do grep -q "^$i " "$T/task_$i.txt"; done
  srun -n1 true
  echo "slurm smoke test OK: $(cat "$T"/task_*.txt | tr '\n' ';')"
  rm -rf "$T"
fi
