/**
 * What each chaos workload's container runs: a POSIX sh loop (busybox in the lane's image) that
 * uses as much cpu and memory as one line of a file says, so the runner moves usage up and down by
 * writing a ConfigMap (mounted as that file) on its seeded schedule.
 * - The line is `<cpu millicores> <memory MiB>`; a missing or unreadable file, or a bad line, means `0 0`.
 * - Memory: a child awk holding that many strings of 1 MiB (its RSS; each made by concatenation,
 *   so none shares another's storage), replaced whenever the level changes; at its peak it holds
 *   the level and about 3 MiB more. A shell variable filled by command substitution was tried first:
 *   busybox's sh peaked at twice the level (VmHWM 124 MB for 60 MiB, in one string or in sixty),
 *   and 56 MiB under a 96Mi limit was OOM-killed: 35 of the 60 pods of the first chaos run.
 *   Above the limit the kernel kills the largest process, that child; the loop sees it gone and
 *   exits, so the container ends and the runtime, which saw the OOM event, reports it OOMKilled
 *   (with cgroup v2's memory.oom.group the whole container goes at once). On the lane (cgroup v1,
 *   busybox, limit 32Mi): `10` held 11 MiB in the container's cgroup; `40` gave OOMKilled, exit
 *   137, within 45 s of the ConfigMap's change, and the restarted container started and was killed
 *   again (with the shell holder). Memory in a process, not in a file of a memory-backed emptyDir: such a file outlives the container, stays
 *   charged to the pod and kept the restarted container from starting at all ("container init was
 *   OOM-killed", seen on the lane with cgroup v1).
 * - CPU: one busy-looping child, continued for cpu/1000 of each PERIOD_MS and stopped for the rest
 *   (SIGCONT / SIGSTOP): 300 means about 30% of a core when the node has it (at most 1000: one burner).
 */

/** The period of the cpu duty cycle (ms). */
export const PERIOD_MS = 200;

/** The script; $LEVELS is the level file. */
export const USAGE_SCRIPT = `
ms() { if [ "$1" -ge 1000 ]; then echo 1; else printf '0.%03d' "$1"; fi; }
current=-1
holder=
burner=
hold() {
  if [ -n "$holder" ]; then kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; holder=; fi
  if [ "$1" -gt 0 ]; then
    awk -v mib="$1" 'BEGIN { s = "x"; while (length(s) < 1048576) s = s s; for (i = 0; i < mib; i++) held[i] = s i; while (1) system("sleep 5") }' &
    holder=$!
  fi
}
while :; do
  cpu=0; mem=0
  if [ -r "$LEVELS" ]; then read -r cpu mem < "$LEVELS" || true; fi
  case "$cpu$mem" in *[!0-9]*|'') cpu=0; mem=0 ;; esac
  if [ "$mem" != "$current" ]; then hold "$mem"; current=$mem; fi
  if [ -n "$holder" ] && ! kill -0 "$holder" 2>/dev/null; then echo "memory holder killed at $mem MiB" >&2; exit 137; fi
  [ "$cpu" -gt 1000 ] && cpu=1000
  on=$((cpu * ${PERIOD_MS} / 1000))
  if [ "$on" -gt 0 ]; then
    if [ -z "$burner" ]; then (while :; do :; done) & burner=$!; fi
    kill -CONT "$burner"; sleep "$(ms "$on")"
    if [ "$on" -lt ${PERIOD_MS} ]; then kill -STOP "$burner"; sleep "$(ms $((${PERIOD_MS} - on)))"; fi
  else
    if [ -n "$burner" ]; then kill -CONT "$burner"; kill "$burner"; wait "$burner" 2>/dev/null; burner=; fi
    sleep "$(ms ${PERIOD_MS})"
  fi
done
`;

/** The level line for `cpu` millicores and `memory` MiB. */
export function levelLine(cpu: number, memory: number): string {
  return `${Math.max(0, Math.round(cpu))} ${Math.max(0, Math.round(memory))}\n`;
}
