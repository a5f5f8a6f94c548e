#!/usr/bin/env bash
# Tailor vs upstream's VPA v1.8.1 on the real-cluster lane (docs/comparison-upstream-vpa.md): takes
# the lane's lock, brings the lane up with the audit log on, runs compare-upstream.ts (one
# autoscaler at a time), and always brings the lane down. Needs the binaries of
# build-upstream-vpa.sh (never built here) and Debian's prometheus. Usage: sudo compare-upstream.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [[ $EUID -ne 0 ]]; then echo "compare-upstream.sh: run as root (the lane needs it)" >&2; exit 1; fi
"$here/build-upstream-vpa.sh" --check || { echo "compare-upstream.sh: build them first: sudo $here/build-upstream-vpa.sh" >&2; exit 3; }
command -v prometheus >/dev/null || { echo "compare-upstream.sh: Debian's prometheus is needed (apt-get install prometheus)" >&2; exit 4; }
cd "$root"
exec flock -w "${TAILOR_LOCK_WAIT:-3600}" /run/tailor-lane.lock bash -c '
  trap "npm run -s cluster:down" EXIT
  TAILOR_CLUSTER_AUDIT=1 npm run -s cluster:up
  node --import tsx test/real-cluster/compare-upstream.ts
'
