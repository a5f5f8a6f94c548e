#!/usr/bin/env bash
# Makes the lane's certificates with openssl: one CA; the apiserver's serving certificate; client
# certificates for the admin, the controller-manager, the scheduler, the apiserver (to call the
# kubelets), Prometheus (to scrape the kubelets; user tailor-lane-prometheus) and each kubelet
# (system:node:<name>); each kubelet's serving certificate; the service
# account signing key pair; and a kubeconfig per client. Usage: pki.sh (reads lane-env.sh).
set -euo pipefail
# shellcheck source=lane-env.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lane-env.sh"
mkdir -p "$LANE_PKI"
cd "$LANE_PKI"
days=30

# ECDSA P-256 throughout: key generation takes milliseconds (RSA 2048 took ~3 s per key on a busy
# machine, 13 keys); Kubernetes accepts it for every certificate and for service-account tokens (ES256).
ec=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1)
openssl req -x509 "${ec[@]}" -nodes -keyout ca.key -out ca.crt -days "$days" \
  -subj "/CN=tailor-real-cluster-ca" -addext "basicConstraints=critical,CA:TRUE" \
  -addext "keyUsage=critical,keyCertSign,cRLSign,digitalSignature" 2>/dev/null

# issue NAME SUBJECT EXTKEYUSAGE [SAN]: NAME.key and NAME.crt signed by the CA.
issue() {
  local name="$1" subj="$2" eku="$3" san="${4:-}"
  local ext
  ext="$(mktemp)"
  {
    echo "basicConstraints=critical,CA:FALSE"
    echo "keyUsage=critical,digitalSignature"
    echo "extendedKeyUsage=$eku"
    if [[ -n "$san" ]]; then echo "subjectAltName=$san"; fi
  } > "$ext"
  openssl req "${ec[@]}" -nodes -keyout "$name.key" -out "$name.csr" -subj "$subj" 2>/dev/null
  openssl x509 -req -in "$name.csr" -CA ca.crt -CAkey ca.key -CAcreateserial -out "$name.crt" \
    -days "$days" -extfile "$ext" 2>/dev/null
  rm -f "$name.csr" "$ext"
}

apiserver_san="IP:127.0.0.1,IP:$LANE_SERVICE_IP,IP:$(node_ip 1),DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
issue apiserver "/CN=kube-apiserver" serverAuth "$apiserver_san"
issue apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" clientAuth
issue admin "/O=system:masters/CN=tailor-lane-admin" clientAuth
issue controller-manager "/CN=system:kube-controller-manager" clientAuth
issue scheduler "/CN=system:kube-scheduler" clientAuth
issue prometheus "/CN=tailor-lane-prometheus" clientAuth
# The aggregator's client (front proxy) to extension API servers such as metrics-server, and a
# second cluster-admin identity for autoscalers under comparison (their API requests are counted
# apart from the test's own in the audit log).
issue front-proxy-client "/CN=front-proxy-client" clientAuth
issue autoscaler "/O=system:masters/CN=tailor-lane-autoscaler" clientAuth
for n in $(seq 1 "$LANE_NODES"); do
  issue "kubelet-$n-client" "/O=system:nodes/CN=system:node:$(node_name "$n")" clientAuth
  issue "kubelet-$n-serving" "/CN=$(node_name "$n")" serverAuth "IP:$(node_ip "$n"),DNS:$(node_name "$n")"
done
openssl ecparam -name prime256v1 -genkey -noout -out sa.key 2>/dev/null
openssl ec -in sa.key -pubout -out sa.pub 2>/dev/null
chmod 600 ./*.key

# kubeconfig FILE CERTNAME: a kubeconfig that talks to the lane's apiserver as CERTNAME.
kubeconfig() {
  local file="$1" cert="$2"
  cat > "$file" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: tailor-lane
  cluster:
    server: https://127.0.0.1:$LANE_APISERVER_PORT
    certificate-authority-data: $(base64 -w0 ca.crt)
users:
- name: $cert
  user:
    client-certificate-data: $(base64 -w0 "$cert.crt")
    client-key-data: $(base64 -w0 "$cert.key")
contexts:
- name: tailor-lane
  context: {cluster: tailor-lane, user: $cert}
current-context: tailor-lane
EOF
  chmod 600 "$file"
}
kubeconfig "$LANE_KUBECONFIG" admin
kubeconfig controller-manager.kubeconfig controller-manager
kubeconfig scheduler.kubeconfig scheduler
kubeconfig autoscaler.kubeconfig autoscaler
for n in $(seq 1 "$LANE_NODES"); do kubeconfig "kubelet-$n.kubeconfig" "kubelet-$n-client"; done
