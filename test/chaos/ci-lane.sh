#!/usr/bin/env bash
# The chaos lane's short run meant for CI (issue 31 item 7; not yet in .ci/run: docs/reliability.md), `npm run test:chaos -- --seed 1
# --minutes 6` (about 9 minutes with the lane's start and teardown), only when this machine can:
# root, cgroups, the lane's binaries and Tailor's image of this checkout cached (CI never builds
# them: test/warm-caches.sh does), kubectl on PATH, no other lane cluster up. Says what it skipped
# and why, exits 0 then; otherwise exits with the run's status (1: violations, 2: the run could not
# be made). TAILOR_CI_CHAOS_SEED / TAILOR_CI_CHAOS_MINUTES pick another seed or length.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/../.."
lane="test/real-cluster"

skip() { echo "chaos lane: SKIPPED: $*"; exit 0; }
[[ $EUID -eq 0 ]] || skip "not root (the lane runs containerd and kubelets and kills processes)"
[[ -d /sys/fs/cgroup/cpu || -f /sys/fs/cgroup/cgroup.controllers ]] || skip "no cgroups mounted under /sys/fs/cgroup"
if ! why="$(bash "$lane/build.sh" --check)"; then
  skip "$why; CI never builds them: run test/warm-caches.sh (or test/real-cluster/build.sh) once on this machine"
fi
if ! why="$(bash "$lane/image.sh" --check)"; then
  skip "$why; CI never builds it: run test/real-cluster/image.sh once on this machine"
fi
command -v kubectl >/dev/null || skip "kubectl is not on PATH (Tailor is installed with kubectl apply -k)"
state="${TAILOR_CLUSTER_STATE:-/var/lib/tailor-real-cluster}"
[[ -e "$state" ]] && skip "$state exists: another lane cluster is up on this machine"

seed="${TAILOR_CI_CHAOS_SEED:-1}"
minutes="${TAILOR_CI_CHAOS_MINUTES:-6}"
start=$(date +%s)
npm run --silent test:chaos -- --seed "$seed" --minutes "$minutes"
rc=$?
echo "chaos lane: exit $rc after $(($(date +%s) - start)) s"
exit "$rc"
