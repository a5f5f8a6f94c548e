#!/usr/bin/env bash
# Runs kube-state-metrics on this machine against the lane's apiserver (the cluster must be up), with
# the VPA custom-resource-state config Tailor ships (manifests/monitoring/kube-state-metrics-vpa.yaml).
# The binary is built once and cached (`test/real-cluster/build.sh kube-state-metrics`); cluster:down
# stops it. Metrics: http://127.0.0.1:$LANE_KSM_PORT/metrics (28080 unless held: ports.sh), its own:
# $LANE_KSM_TELEMETRY_PORT (28081).
# Usage: ksm.sh start   start it (once) and wait until it serves; prints the metrics URL
#        ksm.sh stop    stop it
#        ksm.sh --check exit 0 when the binary is cached, 3 otherwise (says why)
set -euo pipefail
# shellcheck source=lane-env.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lane-env.sh"
repo="$(cd "$here/../.." && pwd)"
bin="$(lane_binary kube-state-metrics)"
pidfile="$LANE_PIDS/kube-state-metrics.pid"

case "${1:-}" in
  --check)
    [[ -x "$bin" ]] && exit 0
    echo "kube-state-metrics $KSM_VERSION is not cached ($bin)"; exit 3 ;;
  stop)
    # SIGTERM, then SIGKILL after 10 s (it does not always stop on SIGTERM while its stores run).
    if [[ -f "$pidfile" ]]; then
      pid="$(cat "$pidfile")"
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -KILL "$pid" 2>/dev/null || true
      rm -f "$pidfile"
    fi
    exit 0 ;;
  start) ;;
  *) lane_die "usage: ksm.sh start|stop|--check" ;;
esac

[[ -x "$bin" ]] || lane_die "kube-state-metrics $KSM_VERSION is not cached ($bin); build it once: sudo test/real-cluster/build.sh kube-state-metrics (~10 min cold)"
[[ -f "$LANE_KUBECONFIG" ]] || lane_die "no lane cluster is up ($LANE_KUBECONFIG does not exist); run 'npm run cluster:up' first"
if [[ -f "$pidfile" ]] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then echo "http://127.0.0.1:$LANE_KSM_PORT/metrics"; exit 0; fi
lane_pick_ports LANE_KSM_PORT LANE_KSM_TELEMETRY_PORT
lane_write_ports LANE_KSM_PORT LANE_KSM_TELEMETRY_PORT
url="http://127.0.0.1:$LANE_KSM_PORT/metrics"
setsid "$bin" --kubeconfig "$LANE_KUBECONFIG" \
  --host 127.0.0.1 --port "$LANE_KSM_PORT" --telemetry-host 127.0.0.1 --telemetry-port "$LANE_KSM_TELEMETRY_PORT" \
  --custom-resource-state-config-file "$repo/manifests/monitoring/kube-state-metrics-vpa.yaml" \
  > "$LANE_LOGS/kube-state-metrics.log" 2>&1 < /dev/null &
echo $! > "$pidfile"
deadline=$(( $(date +%s) + 60 ))
until curl -sf "http://127.0.0.1:$LANE_KSM_PORT/healthz" >/dev/null 2>&1; do
  kill -0 "$(cat "$pidfile")" 2>/dev/null || { tail -n 20 "$LANE_LOGS/kube-state-metrics.log" >&2; lane_die "kube-state-metrics exited (log: $LANE_LOGS/kube-state-metrics.log)"; }
  (( $(date +%s) < deadline )) || lane_die "kube-state-metrics did not answer /healthz within 60 s (log: $LANE_LOGS/kube-state-metrics.log)"
  sleep 1
done
echo "$url"
