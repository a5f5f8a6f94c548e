#!/usr/bin/env bash
# CI entry of the real-cluster lane: runs it only when this machine can (root, cgroups, the
# binaries already cached) and never builds (a cold build takes far longer than CI allows; run
# `test/real-cluster/build.sh` once on the machine instead). Says what it skipped and why, exits 0
# then; otherwise brings the cluster up, runs the lane's tests and always tears the cluster down.
# Exit status: the tests' (or up's) on a run, 0 on a skip.
set -uo pipefail
# shellcheck source=lane-env.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lane-env.sh"

skip() { echo "real-cluster lane ($KUBERNETES_VERSION): SKIPPED: $*"; exit 0; }
[[ $EUID -eq 0 ]] || skip "not root (the lane runs containerd and kubelets)"
[[ -d /sys/fs/cgroup/cpu || -f /sys/fs/cgroup/cgroup.controllers ]] || skip "no cgroups mounted under /sys/fs/cgroup"
if ! cached="$("$here/build.sh" --check)"; then
  skip "$cached; CI never builds them: run test/real-cluster/build.sh once on this machine (~20 min per binary cold)"
fi
[[ -e "$LANE_STATE" ]] && skip "$LANE_STATE exists: another lane cluster is up on this machine"

# Every lane test, but install.lane.ts, audit.lane.ts and test/helm/chart.lane.ts only when Tailor's
# image of this checkout is cached (CI never builds it: `sudo test/real-cluster/image.sh` does),
# install.lane.ts and audit.lane.ts only when kubectl is there to apply -k, chart.lane.ts only when
# Helm is cached (test/helm/build-helm.sh),
# ksm.lane.ts and audit.lane.ts only when the kube-state-metrics binary is cached, and
# goldilocks.lane.ts only when Goldilocks built from $TAILOR_GOLDILOCKS_SRC is cached, and
# migration-in-cluster.lane.ts only when upstream's images (upstream-in-cluster.sh --check) and
# Tailor's image are cached, and migration.lane.ts (the same switch with both autoscalers as host
# processes, ~7 min) only when upstream's VPA and metrics-server are and the in-cluster test cannot run:
# the in-cluster one checks all it checks, with the page's own commands.
# TAILOR_CI_LANE_SKIP (space-separated file names) leaves out tests another run of the lane has
# already covered (.ci/run: the version-independent migration test runs on the first version only).
tests=()
for f in "$here"/*.lane.ts "$here"/../helm/*.lane.ts; do
  name="$(basename "$f")"
  if [[ " ${TAILOR_CI_LANE_SKIP:-} " == *" $name "* ]]; then
    echo "real-cluster lane ($KUBERNETES_VERSION): $name SKIPPED because TAILOR_CI_LANE_SKIP names it (covered by an earlier run)"; continue
  fi
  if [[ "$name" == chart.lane.ts ]]; then
    if ! why="$("$here/image.sh" --check)"; then
      echo "real-cluster lane: $name SKIPPED because $why; CI never builds it: run test/real-cluster/image.sh once on this machine"; continue
    fi
    if ! why="$("$here/../helm/build-helm.sh" --check)"; then
      echo "real-cluster lane: $name SKIPPED because $why; CI never builds it"; continue
    fi
  fi
  if [[ "$name" == install.lane.ts || "$name" == audit.lane.ts ]]; then
    if ! why="$("$here/image.sh" --check)"; then
      echo "real-cluster lane: $name SKIPPED because $why; CI never builds it: run test/real-cluster/image.sh once on this machine"; continue
    fi
    if ! command -v kubectl >/dev/null; then
      echo "real-cluster lane: $name SKIPPED because kubectl is not on PATH (it applies the manifests with kubectl apply -k)"; continue
    fi
  fi
  if [[ "$name" == ksm.lane.ts || "$name" == audit.lane.ts ]] && ! why="$("$here/ksm.sh" --check)"; then
    echo "real-cluster lane: $name SKIPPED because $why; CI never builds it: run test/real-cluster/build.sh kube-state-metrics once on this machine"; continue
  fi
  # goldilocks.lane.ts: only with Goldilocks built from $TAILOR_GOLDILOCKS_SRC and cached.
  if [[ "$name" == goldilocks.lane.ts ]] && ! why="$("$here/build-goldilocks.sh" --check)"; then
    echo "real-cluster lane: $name SKIPPED because ${why#SKIPPED: }; CI never builds it: run TAILOR_GOLDILOCKS_SRC=<path> test/real-cluster/build-goldilocks.sh once on this machine"; continue
  fi
  if [[ "$name" == migration-in-cluster.lane.ts ]]; then
    if ! why="$("$here/upstream-in-cluster.sh" --check)" || ! why="$("$here/image.sh" --check)"; then
      echo "real-cluster lane: $name SKIPPED because $why; CI never builds it"; continue
    fi
  fi
  # migration.lane.ts: only with upstream's VPA v1.8.1 and metrics-server cached (build-upstream-vpa.sh).
  if [[ "$name" == migration.lane.ts ]] && ! why="$("$here/build-upstream-vpa.sh" --check)"; then
    echo "real-cluster lane: $name SKIPPED because $why; CI never builds it: run test/real-cluster/build-upstream-vpa.sh once on this machine"; continue
  fi
  if [[ "$name" == migration.lane.ts ]] && "$here/upstream-in-cluster.sh" --check >/dev/null && "$here/image.sh" --check >/dev/null; then
    echo "real-cluster lane: $name SKIPPED because migration-in-cluster.lane.ts runs (the same checks, in the cluster, with docs/migration.md's commands)"; continue
  fi
  tests+=("$name")
done

# shellcheck disable=SC2034 # start is read by the EXIT trap
start=$(date +%s)
trap '"$here/down.sh"; echo "real-cluster lane ($KUBERNETES_VERSION): finished in $(( $(date +%s) - start )) s (up, tests, down)"' EXIT
TAILOR_CLUSTER_NO_BUILD=1 "$here/up.sh" || exit $?
TAILOR_CLUSTER_NO_BUILD=1 "$here/lane.sh" "${tests[@]}"
