#!/usr/bin/env bash
# Upstream VPA v1.8.1 in the lane's cluster, as upstream installs it (its deploy/ manifests, in
# kube-system), for migration-in-cluster.lane.ts: the images the conformance lane's upstream mode
# makes (test/conformance/build-upstream.sh, from build-upstream-vpa.sh's binaries) and deploy/ of
# the module in the Go module cache (never copied into this repository).
# Usage: upstream-in-cluster.sh --check    exit 0 when all is cached, 3 and why otherwise; builds nothing
#        upstream-in-cluster.sh --import   imports the images into each node of the cluster that is up and
#                                          prints one line of JSON: {"deploy", "images", "metricsServer"}
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=lane-env.sh
source "$here/lane-env.sh"
# shellcheck source=../conformance/conformance-env.sh
source "$here/../conformance/conformance-env.sh"

case "${1:-}" in
  --check | --import) ;;
  *) lane_die "usage: upstream-in-cluster.sh --check | --import" ;;
esac
if ! why="$("$here/build-upstream-vpa.sh" --check)"; then echo "$why (run test/real-cluster/build-upstream-vpa.sh)"; exit 3; fi
if ! why="$("$here/../conformance/build-upstream.sh" --check)"; then echo "$why (run test/conformance/build-upstream.sh)"; exit 3; fi
if ! deploy="$(upstream_deploy_dir)"; then echo "$deploy"; exit 3; fi
[[ "$1" == --check ]] && exit 0

[[ -e "$LANE_STATE" ]] || lane_die "no lane cluster is up ($LANE_STATE)"
import_upstream_images
images="$(printf '"%s",' "${CONFORMANCE_UPSTREAM_IMAGES[@]}")"
printf '{"deploy":"%s","images":[%s],"metricsServer":"%s"}\n' "$deploy" "${images%,}" "$(upstream_binary metrics-server)"
