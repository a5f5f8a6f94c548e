# shellcheck shell=bash disable=SC2034
# Layout, addresses and ports of the real-cluster lane (sourced by up.sh, down.sh and ci-lane.sh).
# Everything the lane creates lives under LANE_STATE and the bridges below; down.sh removes it all.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.sh
source "$here/versions.sh"

LANE_STATE="${TAILOR_CLUSTER_STATE:-/var/lib/tailor-real-cluster}"
LANE_LOGS="$LANE_STATE/logs"
LANE_PIDS="$LANE_STATE/pids"
LANE_PKI="$LANE_STATE/pki"
LANE_KUBECONFIG="$LANE_STATE/admin.kubeconfig"
LANE_NODES="${TAILOR_CLUSTER_NODES:-2}"

# Loopback ports of the control plane and of kube-state-metrics (ksm.sh): defaults below the
# kernel's ephemeral range, so a test server on port 0 is never given one; ports.sh moves a port that
# is held anyway, and the ports a running cluster uses are read back from $LANE_STATE/ports.env.
LANE_ETCD_CLIENT_PORT=22379
LANE_ETCD_PEER_PORT=22380
LANE_APISERVER_PORT=26443
LANE_CONTROLLER_MANAGER_PORT=20257
LANE_SCHEDULER_PORT=20259
LANE_KSM_PORT=28080
LANE_KSM_TELEMETRY_PORT=28081
LANE_CONTROL_PLANE_PORTS=(LANE_ETCD_CLIENT_PORT LANE_ETCD_PEER_PORT LANE_APISERVER_PORT LANE_CONTROLLER_MANAGER_PORT LANE_SCHEDULER_PORT)
# shellcheck source=ports.sh
source "$here/ports.sh"
# shellcheck source=/dev/null
if [[ -f "$LANE_STATE/ports.env" ]]; then source "$LANE_STATE/ports.env"; fi

# Pods: node N (1-based) gets bridge tailorN-br with 10.213.N.1/24 and pods in 10.213.N.0/24;
# the node (kubelet) address is the bridge's own address, so traffic never leaves this machine.
LANE_SERVICE_CIDR=10.214.0.0/24
LANE_SERVICE_IP=10.214.0.1
node_name() { echo "tailor-node-$1"; }
node_bridge() { echo "tailor$1-br"; }
node_ip() { echo "10.213.$1.1"; }
node_subnet() { echo "10.213.$1.0/24"; }
# The bridge's own MAC address, set once (locally administered, 02:00 + its IP 10.213.N.1). A Linux
# bridge whose address was never set takes the lowest MAC of its ports and changes it as veths come
# and go; a pod that had resolved its gateway to the MAC of a veth since deleted then drops the
# replies to the host until its ARP entry is probed again (3-6 s): the API server's webhook calls
# timed out ("context deadline exceeded", failing open) and kubelet probes failed during the
# conformance suites, whose specs create and delete pods every few seconds.
node_bridge_mac() { printf '02:00:0a:d5:%02x:01' "$1"; }
node_dir() { echo "$LANE_STATE/node$1"; }
node_containerd_sock() { echo "$(node_dir "$1")/containerd/containerd.sock"; }
node_kubelet_port() { echo $((10250 + 10 * ($1 - 1))); }
node_kubelet_healthz_port() { echo $((10248 + 10 * ($1 - 1))); }
node_cgroup_root() { if [[ "$1" == 1 ]]; then echo /; else echo "/tailor-node-$1"; fi; }

# The sysctls the kubelet sets on start (pkg/kubelet/cm: setupKernelTunables) and the bridge CNI plugin
# sets (ip_forward, for its gateway): saved by up.sh, restored by down.sh.
LANE_SYSCTLS=(vm.overcommit_memory vm.panic_on_oom kernel.panic kernel.panic_on_oops kernel.keys.root_maxkeys kernel.keys.root_maxbytes net.ipv4.ip_forward)

# Images made locally (no registry): the sandbox (pause) image and a busybox test image.
LANE_PAUSE_IMAGE=localhost/tailor-pause:lane
LANE_BUSYBOX_IMAGE=localhost/tailor-busybox:lane
LANE_IMAGE_CACHE="$LANE_CACHE/images"

lane_log() { printf '[lane %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
lane_die() { printf 'lane: %s\n' "$*" >&2; exit 1; }
