#!/usr/bin/env bash
# CI entry of the conformance lane: runs upstream's e2e suite against Tailor only when this machine
# can, and never builds (the suite, its images, the lane's binaries and Tailor's image must be cached
# by an earlier `npm run test:conformance` or test/conformance/build.sh). Runs the suites named in
# TAILOR_CONFORMANCE_CI_SUITES (default: admission-controller, 24 default specs in about 5 minutes with the
# cluster's start; the other four take 35-110 minutes each, more than CI's time) and their
# non-[Slow] specs (TAILOR_CONFORMANCE_SLOW=1 for all). Says what it skipped and why, exits 0 then.
set -uo pipefail
conformance_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lane="$conformance_dir/../real-cluster"
# shellcheck source=../real-cluster/lane-env.sh
source "$lane/lane-env.sh"
# shellcheck source=conformance-env.sh
source "$conformance_dir/conformance-env.sh"

skip() { echo "conformance lane: SKIPPED: $*"; exit 0; }
src="$(conformance_suite_src 2>&1)" || skip "$src"
export TAILOR_VPA_E2E_SRC="$src"
[[ $EUID -eq 0 ]] || skip "not root (the lane runs containerd and kubelets)"
[[ -d /sys/fs/cgroup/cpu || -f /sys/fs/cgroup/cgroup.controllers ]] || skip "no cgroups mounted under /sys/fs/cgroup"
command -v kubectl >/dev/null || skip "kubectl is not on PATH (Tailor is installed with kubectl apply -k)"
why="$("$lane/build.sh" --check)" || skip "$why; CI never builds them: run test/real-cluster/build.sh once on this machine"
why="$("$conformance_dir/build.sh" --check)" || skip "$why; CI never builds them: run test/conformance/build.sh once on this machine"
why="$("$lane/image.sh" --check)" || skip "$why; CI never builds it: run test/real-cluster/image.sh once on this machine"
[[ -e "$LANE_STATE" ]] && skip "$LANE_STATE exists: another lane cluster is up on this machine"

all_suites=(recommender updater admission-controller actuation full-vpa)
read -r -a suites <<< "${TAILOR_CONFORMANCE_CI_SUITES:-admission-controller}"
for suite in "${suites[@]}"; do
  [[ " ${all_suites[*]} " == *" $suite "* ]] || lane_die "TAILOR_CONFORMANCE_CI_SUITES: no suite '$suite' (the suites: ${all_suites[*]})"
done
left=()
for suite in "${all_suites[@]}"; do [[ " ${suites[*]} " == *" $suite "* ]] || left+=("$suite"); done
(( ${#left[@]} == 0 )) || echo "conformance lane: SKIPPED in CI: suites ${left[*]} (35-110 min each; npm run test:conformance runs them, docs/conformance.md has their last table)"

start=$(date +%s)
TAILOR_CONFORMANCE_SLOW="${TAILOR_CONFORMANCE_SLOW:-0}" TAILOR_CLUSTER_NO_BUILD=1 "$conformance_dir/run.sh" "${suites[@]}"
status=$?
echo "conformance lane: finished in $(( $(date +%s) - start )) s"
exit $status
