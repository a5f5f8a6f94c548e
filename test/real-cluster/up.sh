#!/usr/bin/env bash
# Brings up the real-cluster lane: etcd, kube-apiserver (RBAC, loopback only), controller-manager,
# scheduler, and per node a containerd and a kubelet on a bridge of its own; waits until every node
# is Ready. Builds the binaries once (build.sh) and installs missing Debian packages.
# Usage: up.sh   Environment: TAILOR_CLUSTER_NODES (default 1), TAILOR_CLUSTER_STATE,
# TAILOR_CLUSTER_CACHE, TAILOR_CLUSTER_NO_BUILD=1 (fail instead of building missing binaries),
# TAILOR_CLUSTER_KEEP_ON_FAILURE=1 (leave a failed cluster for inspection instead of tearing down).
set -euo pipefail
# shellcheck source=lane-env.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lane-env.sh"
started=$(date +%s)

# ---- preflight: every reason the lane cannot run, reported before anything is changed ----------
[[ $EUID -eq 0 ]] || lane_die "the real-cluster lane must run as root (it starts containerd and kubelets, makes bridges and cgroups); run it with sudo"
[[ -d /sys/fs/cgroup/cpu || -f /sys/fs/cgroup/cgroup.controllers ]] || lane_die "no cgroups: neither cgroup v1 (/sys/fs/cgroup/cpu) nor v2 (/sys/fs/cgroup/cgroup.controllers) is mounted"
[[ "$LANE_NODES" =~ ^[1-9]$ ]] || lane_die "TAILOR_CLUSTER_NODES must be a number from 1 to 9, got '$LANE_NODES'"
if [[ -e "$LANE_STATE" ]]; then
  lane_die "$LANE_STATE exists: a lane cluster is up (or a failed one left state); run 'npm run cluster:down' first"
fi

need_pkgs=()
need() { command -v "$1" >/dev/null 2>&1 || need_pkgs+=("$2"); }
need containerd containerd; need ctr containerd; need runc runc; need buildah buildah
need catatonit catatonit; need busybox busybox-static; need openssl openssl; need ip iproute2
need curl curl; need sysctl procps; need socat socat
[[ -x /usr/lib/cni/bridge && -x /usr/lib/cni/host-local && -x /usr/lib/cni/loopback ]] || need_pkgs+=(containernetworking-plugins)
if [[ ${#need_pkgs[@]} -gt 0 ]]; then
  command -v apt-get >/dev/null || lane_die "missing commands from Debian packages ${need_pkgs[*]} and no apt-get to install them"
  lane_log "installing Debian packages: ${need_pkgs[*]}"
  if ! { apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}"; }; }; then
    lane_die "could not install ${need_pkgs[*]} with apt-get"
  fi
fi

if ! "$here/build.sh" --check >/dev/null; then
  if [[ "${TAILOR_CLUSTER_NO_BUILD:-}" == 1 ]]; then
    lane_die "binaries are not cached under $LANE_CACHE ($("$here/build.sh" --check || true)) and TAILOR_CLUSTER_NO_BUILD=1"
  fi
  lane_go >/dev/null || lane_die "binaries are not cached under $LANE_CACHE and Go is not installed to build them (set GO=/path/to/go, Go >= 1.25)"
  lane_log "building the missing binaries once (cold: ~20 min each on a busy 2-core machine)"
  "$here/build.sh" || lane_die "building the binaries failed (see the output above)"
fi

lane_pick_ports "${LANE_CONTROL_PLANE_PORTS[@]}"
for n in $(seq 1 "$LANE_NODES"); do
  if ip link show "$(node_bridge "$n")" >/dev/null 2>&1; then lane_die "bridge $(node_bridge "$n") exists already; run 'npm run cluster:down' first"; fi
done

# ---- from here on a failure tears down what was started (unless asked to keep it) --------------
mkdir -p "$LANE_LOGS" "$LANE_PIDS"
lane_write_ports "${LANE_CONTROL_PLANE_PORTS[@]}"
up_ok=0
on_exit() {
  local rc=$?
  [[ $up_ok == 1 ]] && return
  echo "lane: cluster:up failed (exit $rc). Last lines of each log:" >&2
  for f in "$LANE_LOGS"/*.log; do [[ -f "$f" ]] && { echo "--- $f" >&2; tail -n 8 "$f" >&2; }; done
  if [[ "${TAILOR_CLUSTER_KEEP_ON_FAILURE:-}" == 1 ]]; then
    echo "lane: left as it is (TAILOR_CLUSTER_KEEP_ON_FAILURE=1); 'npm run cluster:down' removes it" >&2
  else
    "$here/down.sh" >&2 || true
  fi
  exit "$rc"
}
trap on_exit EXIT

for s in "${LANE_SYSCTLS[@]}"; do echo "$s=$(sysctl -n "$s")"; done > "$LANE_STATE/sysctls.saved"

# start NAME CMD...: runs CMD in its own session, logging to logs/NAME.log, pid in pids/NAME.pid.
start() {
  local name="$1"; shift
  setsid "$@" > "$LANE_LOGS/$name.log" 2>&1 < /dev/null &
  echo $! > "$LANE_PIDS/$name.pid"
}
# wait_for WHAT SECONDS PROCESS CMD...: polls CMD every second; fails early if PROCESS has exited.
wait_for() {
  local what="$1" secs="$2" proc="$3"; shift 3
  local deadline=$(( $(date +%s) + secs ))
  until "$@" >/dev/null 2>&1; do
    if [[ -n "$proc" ]] && ! kill -0 "$(cat "$LANE_PIDS/$proc.pid")" 2>/dev/null; then
      echo "lane: $proc exited while waiting for $what (see $LANE_LOGS/$proc.log)" >&2; return 1
    fi
    if (( $(date +%s) > deadline )); then echo "lane: timed out after ${secs}s waiting for $what" >&2; return 1; fi
    sleep 1
  done
}

lane_log "certificates"
"$here/pki.sh"
"$here/images.sh"
pki="$LANE_PKI"
api="https://127.0.0.1:$LANE_APISERVER_PORT"
kcurl() { curl -sf --cacert "$pki/ca.crt" --cert "$pki/admin.crt" --key "$pki/admin.key" "$@"; }

# ---- nodes' networks and containerds -----------------------------------------------------------
for n in $(seq 1 "$LANE_NODES"); do
  dir="$(node_dir "$n")"; br="$(node_bridge "$n")"
  mkdir -p "$dir/containerd" "$dir/cni/net.d" "$dir/kubelet" "$dir/pod-logs"
  ip link add "$br" address "$(node_bridge_mac "$n")" type bridge
  ip addr add "$(node_ip "$n")/24" dev "$br"
  ip link set "$br" up
  cat > "$dir/cni/net.d/10-tailor-lane.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "tailor-lane-$n",
  "plugins": [{
    "type": "bridge", "bridge": "$br", "isGateway": true, "ipMasq": false, "hairpinMode": true,
    "ipam": {
      "type": "host-local", "dataDir": "$dir/cni/ipam",
      "ranges": [[{ "subnet": "$(node_subnet "$n")", "gateway": "$(node_ip "$n")" }]],
      "routes": [{ "dst": "10.213.0.0/16" }, { "dst": "$LANE_SERVICE_CIDR" }]
    }
  }]
}
EOF
  cat > "$dir/containerd/config.toml" <<EOF
version = 2
root = "$dir/containerd/root"
state = "$dir/containerd/state"
[grpc]
  address = "$(node_containerd_sock "$n")"
[ttrpc]
  address = "$dir/containerd/containerd.sock.ttrpc"
[debug]
  address = "$dir/containerd/debug.sock"
[plugins."io.containerd.internal.v1.opt"]
  path = "$dir/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$LANE_PAUSE_IMAGE"
  # This VM lacks CAP_SYS_RESOURCE: without this runc fails "can't get final child's PID from pipe".
  restrict_oom_score_adj = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = "$dir/containerd/runc"
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$dir/cni/net.d"
EOF
  start "containerd-$n" containerd --config "$dir/containerd/config.toml"
done
for n in $(seq 1 "$LANE_NODES"); do
  sock="$(node_containerd_sock "$n")"
  wait_for "containerd $n" 60 "containerd-$n" ctr --address "$sock" version
  for tar in "$LANE_IMAGE_CACHE/pause.tar" "$LANE_IMAGE_CACHE/busybox.tar"; do
    ctr --address "$sock" -n k8s.io images import "$tar" >/dev/null
  done
done
lane_log "containerd up on $LANE_NODES node(s), images imported"

# ---- control plane ------------------------------------------------------------------------------
start etcd "$(lane_binary etcd)" --name tailor-lane --data-dir "$LANE_STATE/etcd" \
  --listen-client-urls "http://127.0.0.1:$LANE_ETCD_CLIENT_PORT" --advertise-client-urls "http://127.0.0.1:$LANE_ETCD_CLIENT_PORT" \
  --listen-peer-urls "http://127.0.0.1:$LANE_ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$LANE_ETCD_PEER_PORT" \
  --initial-cluster "tailor-lane=http://127.0.0.1:$LANE_ETCD_PEER_PORT" \
  --quota-backend-bytes 1073741824
wait_for etcd 60 etcd curl -sf "http://127.0.0.1:$LANE_ETCD_CLIENT_PORT/health"

# Aggregation (metrics-server as an APIService) and webhooks reach their Service's endpoints directly
# (--enable-aggregator-routing: there is no kube-proxy). TAILOR_CLUSTER_AUDIT=1: an audit log of
# every request's metadata (user, user agent, verb, resource) in $LANE_STATE/audit.log, and the body
# of each pod resize and eviction (what the chaos checker reads: test/chaos/audit-actions.ts).
audit_args=()
if [[ "${TAILOR_CLUSTER_AUDIT:-}" == 1 ]]; then
  printf 'apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [RequestReceived]\nrules:\n- level: Request\n  resources: [{group: "", resources: [pods/resize, pods/eviction]}]\n- level: Metadata\n' > "$LANE_STATE/audit-policy.yaml"
  audit_args=(--audit-policy-file "$LANE_STATE/audit-policy.yaml" --audit-log-path "$LANE_STATE/audit.log" --audit-log-format json)
fi
start kube-apiserver "$(lane_binary kube-apiserver)" \
  --etcd-servers "http://127.0.0.1:$LANE_ETCD_CLIENT_PORT" \
  --bind-address 127.0.0.1 --secure-port "$LANE_APISERVER_PORT" --advertise-address "$(node_ip 1)" \
  --authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction --allow-privileged=true \
  --client-ca-file "$pki/ca.crt" --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
  --kubelet-client-certificate "$pki/apiserver-kubelet-client.crt" --kubelet-client-key "$pki/apiserver-kubelet-client.key" \
  --kubelet-certificate-authority "$pki/ca.crt" --kubelet-preferred-address-types InternalIP \
  --service-account-issuer https://kubernetes.default.svc.cluster.local \
  --service-account-key-file "$pki/sa.pub" --service-account-signing-key-file "$pki/sa.key" \
  --service-cluster-ip-range "$LANE_SERVICE_CIDR" --profiling=false --v=1 \
  --enable-aggregator-routing=true --proxy-client-cert-file "$pki/front-proxy-client.crt" --proxy-client-key-file "$pki/front-proxy-client.key" \
  --requestheader-client-ca-file "$pki/ca.crt" --requestheader-allowed-names front-proxy-client \
  --requestheader-username-headers X-Remote-User --requestheader-group-headers X-Remote-Group --requestheader-extra-headers-prefix X-Remote-Extra- \
  "${audit_args[@]}"
wait_for "kube-apiserver /readyz" 180 kube-apiserver kcurl "$api/readyz"
lane_log "kube-apiserver ready on $api"
# The lane has no kube-proxy: Service IPs lead nowhere. Pods find the apiserver at the `kubernetes`
# Service's IP (KUBERNETES_SERVICE_HOST), so that one address is made real: it is added to node 1's
# bridge (pods route the service range to their bridge's gateway, i.e. to this machine, which then
# owns the address) and a forwarder passes its port 443 to the apiserver on loopback. Webhooks'
# Services are resolved by the apiserver itself to their endpoints (--enable-aggregator-routing,
# docs/real-cluster.md). Deleting the bridge (down.sh) removes the address.
ip addr add "$LANE_SERVICE_IP/32" dev "$(node_bridge 1)"
# -L: a lock file under the state, so that down.sh's sweep of leftover processes finds its forked children too.
start service-forward socat -L "$LANE_STATE/service-forward.lock" "TCP-LISTEN:443,bind=$LANE_SERVICE_IP,fork,reuseaddr" "TCP:127.0.0.1:$LANE_APISERVER_PORT"

start kube-controller-manager "$(lane_binary kube-controller-manager)" \
  --kubeconfig "$pki/controller-manager.kubeconfig" \
  --authentication-kubeconfig "$pki/controller-manager.kubeconfig" --authorization-kubeconfig "$pki/controller-manager.kubeconfig" \
  --bind-address 127.0.0.1 --secure-port "$LANE_CONTROLLER_MANAGER_PORT" --leader-elect=false \
  --use-service-account-credentials=true --root-ca-file "$pki/ca.crt" \
  --service-account-private-key-file "$pki/sa.key" \
  --cluster-signing-cert-file "$pki/ca.crt" --cluster-signing-key-file "$pki/ca.key" \
  --service-cluster-ip-range "$LANE_SERVICE_CIDR" --profiling=false --v=1
start kube-scheduler "$(lane_binary kube-scheduler)" \
  --kubeconfig "$pki/scheduler.kubeconfig" \
  --authentication-kubeconfig "$pki/scheduler.kubeconfig" --authorization-kubeconfig "$pki/scheduler.kubeconfig" \
  --bind-address 127.0.0.1 --secure-port "$LANE_SCHEDULER_PORT" --leader-elect=false --profiling=false --v=1

# ---- kubelets -----------------------------------------------------------------------------------
node_ready() {
  kcurl "$api/api/v1/nodes/$1" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const c = (JSON.parse(s).status?.conditions ?? []).find((x) => x.type === "Ready");
      process.exit(c?.status === "True" ? 0 : 1);
    });'
}
for n in $(seq 1 "$LANE_NODES"); do
  dir="$(node_dir "$n")"; cgroot="$(node_cgroup_root "$n")"
  if [[ "$cgroot" != / ]]; then
    # The kubelet wants its cgroup root to exist in every hierarchy (cgroup v1).
    for h in /sys/fs/cgroup/*/; do
      [[ -d "$h" ]] || continue
      mkdir -p "$h${cgroot#/}"
      if [[ -f "$h/cpuset.cpus" ]]; then
        cat "$h/cpuset.cpus" > "$h${cgroot#/}/cpuset.cpus"; cat "$h/cpuset.mems" > "$h${cgroot#/}/cpuset.mems"
      fi
    done
  fi
  cat > "$dir/kubelet-config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $(node_ip "$n")
port: $(node_kubelet_port "$n")
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
healthzPort: $(node_kubelet_healthz_port "$n")
authentication:
  anonymous: { enabled: false }
  webhook: { enabled: true }
  x509: { clientCAFile: $pki/ca.crt }
authorization: { mode: Webhook }
tlsCertFile: $pki/kubelet-$n-serving.crt
tlsPrivateKeyFile: $pki/kubelet-$n-serving.key
containerRuntimeEndpoint: unix://$(node_containerd_sock "$n")
cgroupDriver: cgroupfs
cgroupRoot: $cgroot
failSwapOn: false
failCgroupV1: false
podLogsDir: $dir/pod-logs
clusterDomain: cluster.local
resolvConf: ""
registerNode: true
rotateCertificates: false
serverTLSBootstrap: false
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard: { memory.available: 100Mi, nodefs.available: 2%, imagefs.available: 2% }
EOF
  # The kubelet's cAdvisor asks containerd (default /run/containerd/containerd.sock) for each
  # container's labels; without the node's own socket /metrics/cadvisor has every container's series
  # with container="", pod="" and namespace="" (only the pod cgroups are labelled). Up to 1.36 the
  # kubelet's --containerd flag names the socket. 1.37's kubelet no longer takes that flag (it passes
  # on only cAdvisor's housekeeping interval), so the kubelet runs in a mount namespace of its own
  # where a tmpfs over /run/containerd holds a link to the node's socket; the kubelet's root dir is
  # made a shared mount first, so the volumes it mounts there are seen by containerd outside.
  cadvisor_socket=(--containerd "$(node_containerd_sock "$n")")
  in_own_mounts=()
  if (( KUBERNETES_VERSION_MINOR >= 37 )); then
    cadvisor_socket=()
    mkdir -p "$dir/kubelet" /run/containerd
    mountpoint -q "$dir/kubelet" || mount --bind "$dir/kubelet" "$dir/kubelet"
    mount --make-rshared "$dir/kubelet"
    # shellcheck disable=SC2016 # expanded by the inner shell
    in_own_mounts=(unshare --mount --propagation unchanged -- sh -c \
      'mount -t tmpfs -o size=1m,mode=0755 tailor-cadvisor /run/containerd && ln -s "$0" /run/containerd/containerd.sock && exec "$@"' \
      "$(node_containerd_sock "$n")")
  fi
  # Every kubelet binds the same device-plugin socket (/var/lib/kubelet/device-plugins/kubelet.sock,
  # whatever --root-dir says), removing a stale one first: two starting together can both remove it
  # and then one bind fails, "address already in use", and that kubelet exits (seen once, after a
  # teardown). So each starts once the one before is Ready.
  if (( n > 1 )); then wait_for "node $(node_name $((n - 1))) Ready" 180 "kubelet-$((n - 1))" node_ready "$(node_name $((n - 1)))"; fi
  start "kubelet-$n" "${in_own_mounts[@]}" "$(lane_binary kubelet)" --config "$dir/kubelet-config.yaml" \
    "${cadvisor_socket[@]}" \
    --kubeconfig "$pki/kubelet-$n.kubeconfig" --root-dir "$dir/kubelet" \
    --hostname-override "$(node_name "$n")" --node-ip "$(node_ip "$n")" --v=1
done

for n in $(seq 1 "$LANE_NODES"); do
  wait_for "node $(node_name "$n") Ready" 180 "kubelet-$n" node_ready "$(node_name "$n")"
done
# Pods need the namespace's default service account, which the controller-manager creates.
wait_for "the default service account" 60 kube-controller-manager kcurl "$api/api/v1/namespaces/default/serviceaccounts/default"
up_ok=1
lane_log "cluster up in $(( $(date +%s) - started )) s: $LANE_NODES node(s) Ready; KUBECONFIG=$LANE_KUBECONFIG"
