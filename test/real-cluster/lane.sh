#!/usr/bin/env bash
# Runs the real-cluster lane's tests (test/real-cluster/*.lane.ts and test/helm/chart.lane.ts, which
# `npm test` does not pick up: it runs *.test.ts only). With a cluster already up (`npm run cluster:up`) the tests run against it
# and it stays up; otherwise this brings one up, runs the tests and tears it down whatever happens.
# Usage: lane.sh [name fragment...]   (only the lane files whose name contains a fragment)
set -euo pipefail
# shellcheck source=lane-env.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lane-env.sh"
[[ $EUID -eq 0 ]] || lane_die "the real-cluster lane must run as root (it reads the pods' cgroups and runs the cluster)"

files=()
for f in "$here"/*.lane.ts "$here"/../helm/*.lane.ts; do
  if [[ $# -eq 0 ]]; then files+=("$f"); continue; fi
  for frag in "$@"; do [[ "$(basename "$f")" == *"$frag"* ]] && { files+=("$f"); break; }; done
done
[[ ${#files[@]} -gt 0 ]] || lane_die "no lane test matches: $*"

# install.lane.ts, audit.lane.ts, chart.lane.ts and migration-in-cluster.lane.ts need Tailor's image of this checkout (image.sh), ksm.lane.ts and audit.lane.ts the kube-state-metrics
# binary: built here, before the cluster is up, unless TAILOR_CLUSTER_NO_BUILD=1 (then they must be cached).
if [[ " ${files[*]} " == *"/install.lane.ts "* || " ${files[*]} " == *"/audit.lane.ts "* || " ${files[*]} " == *"/chart.lane.ts "* || " ${files[*]} " == *"/migration-in-cluster.lane.ts "* ]] && ! "$here/image.sh" --check >/dev/null; then
  [[ "${TAILOR_CLUSTER_NO_BUILD:-}" == 1 ]] && lane_die "$("$here/image.sh" --check) and TAILOR_CLUSTER_NO_BUILD=1"
  "$here/image.sh" >/dev/null || lane_die "building Tailor's image failed (see the output above)"
fi
if [[ " ${files[*]} " == *"/ksm.lane.ts "* || " ${files[*]} " == *"/audit.lane.ts "* ]] && ! "$here/ksm.sh" --check >/dev/null; then
  [[ "${TAILOR_CLUSTER_NO_BUILD:-}" == 1 ]] && lane_die "$("$here/ksm.sh" --check) and TAILOR_CLUSTER_NO_BUILD=1"
  "$here/build.sh" kube-state-metrics || lane_die "building kube-state-metrics failed (see the output above)"
fi
# goldilocks.lane.ts needs Goldilocks built from $TAILOR_GOLDILOCKS_SRC: built here too (unless
# TAILOR_CLUSTER_NO_BUILD=1). Without that source the test says SKIPPED and why.
if [[ " ${files[*]} " == *"/goldilocks.lane.ts "* ]]; then
  if why="$("$here/build-goldilocks.sh" --check)"; then :
  elif [[ $? -eq 2 ]]; then lane_log "goldilocks.lane.ts will skip: ${why#SKIPPED: }"
  elif [[ "${TAILOR_CLUSTER_NO_BUILD:-}" == 1 ]]; then lane_die "$why and TAILOR_CLUSTER_NO_BUILD=1"
  else "$here/build-goldilocks.sh" >/dev/null || lane_die "building Goldilocks failed (see the output above)"
  fi
fi
# chart.lane.ts (test/helm) needs Helm, built from the Go module proxy (test/helm/build-helm.sh): built
# here too (unless TAILOR_CLUSTER_NO_BUILD=1).
if [[ " ${files[*]} " == *"/chart.lane.ts "* ]] && ! why="$("$here/../helm/build-helm.sh" --check)"; then
  [[ "${TAILOR_CLUSTER_NO_BUILD:-}" == 1 ]] && lane_die "$why and TAILOR_CLUSTER_NO_BUILD=1"
  "$here/../helm/build-helm.sh" >/dev/null || lane_die "building Helm failed (see the output above)"
fi

if [[ -e "$LANE_STATE" ]]; then
  lane_log "using the cluster that is up ($LANE_STATE); it stays up"
else
  trap '"$here/down.sh"' EXIT
  "$here/up.sh"
fi
start=$(date +%s)
cd "$here/../.."
TAILOR_CLUSTER_KUBECONFIG="$LANE_KUBECONFIG" node --import tsx --test --test-concurrency=1 \
  --test-timeout=1800000 "${files[@]}"
lane_log "lane tests passed in $(( $(date +%s) - start )) s"
