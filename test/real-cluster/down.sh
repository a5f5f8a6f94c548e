#!/usr/bin/env bash
# Tears the real-cluster lane down: stops its processes (kubelets first, then the control plane),
# kills the pods' containers through each node's containerd, removes their network namespaces,
# unmounts what is mounted under the lane's state, deletes the bridges and the kubelets' cgroups,
# restores the sysctls saved by up.sh and removes the state. Safe to run twice; the cache stays.
# Usage: down.sh
set -uo pipefail
# shellcheck source=lane-env.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lane-env.sh"
[[ $EUID -eq 0 ]] || lane_die "cluster:down must run as root (as cluster:up did)"

nodes=()
for d in "$LANE_STATE"/node*/; do [[ -d "$d" ]] && nodes+=("$(basename "$d" | sed 's/^node//')"); done
for n in 1 2 3 4 5 6 7 8 9; do
  if ip link show "$(node_bridge "$n")" >/dev/null 2>&1 && [[ " ${nodes[*]} " != *" $n "* ]]; then nodes+=("$n"); fi
done
if [[ ! -e "$LANE_STATE" && ${#nodes[@]} -eq 0 ]]; then lane_log "nothing to tear down"; exit 0; fi

# stop NAME...: SIGTERM each process in pids/NAME.pid at once, SIGKILL what is left after 20 s.
stop() {
  local name pid p pids=() left=()
  for name in "$@"; do
    [[ -f "$LANE_PIDS/$name.pid" ]] || continue
    pid="$(cat "$LANE_PIDS/$name.pid")"
    kill -TERM "$pid" 2>/dev/null && pids+=("$pid:$name")
    rm -f "$LANE_PIDS/$name.pid"
  done
  for _ in $(seq 1 40); do
    left=()
    for p in "${pids[@]}"; do kill -0 "${p%%:*}" 2>/dev/null && left+=("$p"); done
    [[ ${#left[@]} -eq 0 ]] && return 0
    sleep 0.5
  done
  for p in "${left[@]}"; do kill -KILL "${p%%:*}" 2>/dev/null && lane_log "${p#*:} did not stop on SIGTERM; killed"; done
  return 0
}

kubelets=(); for n in "${nodes[@]}"; do kubelets+=("kubelet-$n"); done
lane_log "stopping ${kubelets[*]}"
stop "${kubelets[@]}"
lane_log "stopping the control plane"
stop kube-state-metrics kube-scheduler kube-controller-manager kube-apiserver service-forward
stop etcd
lane_log "removing the pods' containers"

# The pods' containers: kill every task of each node's containerd and remember their netns.
netns=()
for n in "${nodes[@]}"; do
  sock="$(node_containerd_sock "$n")"
  if [[ ! -S "$sock" ]] || ! ctr --address "$sock" version >/dev/null 2>&1; then continue; fi
  c=(ctr --address "$sock" -n k8s.io)
  for id in $("${c[@]}" containers ls -q 2>/dev/null); do
    ns="$("${c[@]}" containers info "$id" 2>/dev/null | node -e '
      let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
        try {
          const n = (JSON.parse(s).Spec?.linux?.namespaces ?? []).find((x) => x.type === "network" && x.path);
          if (n) console.log(n.path);
        } catch {}
      });')"
    [[ -n "$ns" ]] && netns+=("$ns")
    "${c[@]}" tasks kill -a -s SIGKILL "$id" >/dev/null 2>&1
  done
  for id in $("${c[@]}" containers ls -q 2>/dev/null); do
    for _ in $(seq 1 20); do
      "${c[@]}" tasks delete -f "$id" >/dev/null 2>&1 && break
      "${c[@]}" tasks ls -q 2>/dev/null | grep -qx "$id" || break
      sleep 0.5
    done
    "${c[@]}" containers delete "$id" >/dev/null 2>&1
  done
  stop "containerd-$n"
done
for ns in $(printf '%s\n' "${netns[@]}" | sort -u); do
  umount "$ns" 2>/dev/null; rm -f "$ns"
done

# Anything still running from the lane's state (a shim, a process whose pid file was lost): one grep
# over every command line (arguments are NUL-separated; -a reads them as text).
mapfile -t found < <(grep -laF -- "$LANE_STATE/" /proc/[0-9]*/cmdline 2>/dev/null)
for f in "${found[@]}"; do
  pid="${f#/proc/}"; pid="${pid%/cmdline}"
  [[ "$pid" == "$$" ]] && continue
  # Read again: the grep itself (exited by now: an empty command line) and a reused pid do not match.
  grep -qaF -- "$LANE_STATE/" "$f" 2>/dev/null || continue
  lane_log "killing leftover process $pid: $({ tr '\0' ' ' < "$f"; } 2>/dev/null | cut -c1-100)"
  kill -KILL "$pid" 2>/dev/null
done
sleep 0.5

lane_log "unmounting, removing bridges, cgroups and state"
# Mounts under the state (overlay root filesystems, pods' volumes, netns), deepest first.
if [[ -e "$LANE_STATE" ]]; then
  awk -v s="$LANE_STATE/" 'index($2, s) == 1 { print $2 }' /proc/self/mounts | sort -r | while read -r m; do
    umount "$m" 2>/dev/null || umount -l "$m"
  done
fi

for n in "${nodes[@]}"; do
  ip link del "$(node_bridge "$n")" 2>/dev/null
  # The kubelet's cgroups: /kubepods under node 1's root "/", the whole /tailor-node-N otherwise.
  cg="$(node_cgroup_root "$n")"; [[ "$cg" == / ]] && cg=/kubepods
  for h in /sys/fs/cgroup/*/ /sys/fs/cgroup/; do
    [[ -d "$h${cg#/}" ]] && find "$h${cg#/}" -depth -type d -exec rmdir {} + 2>/dev/null
  done
done

# containerd 1.6 puts its shims' sockets in /run/containerd/s whatever its state directory; remove
# what it created there if it is empty now (a containerd of the machine's keeps its own files there).
for d in /run/containerd/s /run/containerd/fifo /run/containerd/runc/k8s.io /run/containerd/runc /run/containerd; do
  rmdir "$d" 2>/dev/null
done

if [[ -f "$LANE_STATE/sysctls.saved" ]]; then
  while IFS= read -r kv; do sysctl -q -w "$kv" >/dev/null || lane_log "could not restore $kv"; done < "$LANE_STATE/sysctls.saved"
fi
rm -rf "$LANE_STATE"

# Report anything left, so a leak is seen at once rather than by the next run.
left=()
for n in "${nodes[@]}"; do ip link show "$(node_bridge "$n")" >/dev/null 2>&1 && left+=("bridge $(node_bridge "$n")"); done
for n in "${nodes[@]}"; do
  cg="$(node_cgroup_root "$n")"; [[ "$cg" == / ]] && cg=/kubepods
  [[ -d "/sys/fs/cgroup/cpu${cg}" ]] && left+=("cgroup /sys/fs/cgroup/cpu${cg}")
done
[[ -e "$LANE_STATE" ]] && left+=("$LANE_STATE")
if [[ ${#left[@]} -gt 0 ]]; then lane_die "cluster:down left: ${left[*]}"; fi
lane_log "cluster down: no lane process, bridge, mount, cgroup or state left; sysctls restored"
