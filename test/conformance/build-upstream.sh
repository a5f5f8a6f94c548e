#!/usr/bin/env bash
# Builds (once) the images of the conformance lane's upstream mode (TAILOR_CONFORMANCE_AUTOSCALER=
# upstream): upstream VPA v1.8.1's recommender, updater and admission controller, from the binaries
# test/real-cluster/build-upstream-vpa.sh caches (built from the Go module proxy), made without a
# registry as build.sh makes the specs' images (buildah from scratch, docker archives under the
# lane's cache, keyed by the binaries' digests). Each image is what upstream's Dockerfile makes on
# gcr.io/distroless/static:nonroot: the static binary at /<component> as the entrypoint, user 65532,
# /etc/passwd and /etc/group with root, nobody and nonroot, a CA bundle and a writable /tmp.
# Names: upstream's deploy/ manifests' (registry.k8s.io/autoscaling/vpa-<component>:1.8.1), and the
# recommender also as localhost:5001/vpa-recommender:latest, the image the suite's NewVPADeployment
# runs (command /recommender).
# Usage: build-upstream.sh [--check]   (--check builds nothing: exit 0 when all is cached, 3 otherwise)
# Environment: TAILOR_CLUSTER_CACHE.
set -euo pipefail
conformance_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../real-cluster/versions.sh
source "$conformance_dir/../real-cluster/versions.sh"
# shellcheck source=conformance-env.sh
source "$conformance_dir/conformance-env.sh"

check_only=0
[[ "${1:-}" == "--check" ]] && check_only=1
for c in vpa-recommender vpa-updater vpa-admission-controller; do
  if [[ ! -x "$(upstream_binary "$c")" ]]; then
    echo "not cached: upstream's $c ($(upstream_binary "$c")): run test/real-cluster/build-upstream-vpa.sh"
    exit 3
  fi
done
[[ -s "$CONFORMANCE_UPSTREAM_CA_BUNDLE" ]] || { echo "no CA bundle at $CONFORMANCE_UPSTREAM_CA_BUNDLE (apt-get install ca-certificates)"; exit 4; }
key="$(conformance_upstream_key)"
missing=()
for name in "${CONFORMANCE_UPSTREAM_IMAGES[@]}"; do
  [[ -s "$(conformance_upstream_image_tar "$key" "$name")" ]] || missing+=("$name")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  [[ $check_only -eq 1 ]] || echo "conformance: upstream's images all cached under $(dirname "$(conformance_upstream_image_tar "$key" x)")"
  exit 0
fi
if [[ $check_only -eq 1 ]]; then echo "not cached: upstream image(s) ${missing[*]}"; exit 3; fi
command -v buildah >/dev/null || { echo "build-upstream.sh: buildah is needed (apt-get install buildah)" >&2; exit 4; }

mkdir -p "$LANE_CACHE"
exec 9> "$LANE_CACHE/.conformance-upstream-build.lock"
flock -n 9 || { echo "build-upstream.sh: another build is running (lock $LANE_CACHE/.conformance-upstream-build.lock)" >&2; exit 5; }
work="$(mktemp -d /tmp/tailor-conformance-upstream.XXXXXX)"
bh() { buildah --root "$work/root" --runroot "$work/run" --storage-driver vfs "$@"; }
cleanup() { bh rm --all >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

# image COMPONENT ENTRYPOINT NAME...: one image of an upstream binary, saved under each NAME.
image() {
  local component="$1" entrypoint="$2" c mnt name tar
  shift 2
  c="$(bh from scratch)"
  mnt="$(bh mount "$c")"
  install -D -m 0755 "$(upstream_binary "$component")" "$mnt$entrypoint"
  install -D -m 0644 "$CONFORMANCE_UPSTREAM_CA_BUNDLE" "$mnt/etc/ssl/certs/ca-certificates.crt"
  mkdir -p "$mnt/tmp" "$mnt/home/nonroot"
  chmod 1777 "$mnt/tmp"
  chown 65532:65532 "$mnt/home/nonroot"
  printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$mnt/etc/passwd"
  printf 'root:x:0:\nnobody:x:65534:\nnonroot:x:65532:\n' > "$mnt/etc/group"
  bh umount "$c" >/dev/null
  bh config --entrypoint "[\"$entrypoint\"]" --cmd '[]' --user 65532:65532 --workingdir /home/nonroot "$c"
  bh commit -q "$c" "$1" >/dev/null
  for name in "$@"; do
    [[ "$name" == "$1" ]] || bh tag "$1" "$name"
    tar="$(conformance_upstream_image_tar "$key" "$name")"
    mkdir -p "$(dirname "$tar")"
    bh push -q "$name" "docker-archive:$tar.partial:$name"
    mv "$tar.partial" "$tar"
    echo "conformance: image $name ($(du -h "$tar" | cut -f1))"
  done
}

image vpa-recommender /recommender "$CONFORMANCE_UPSTREAM_RECOMMENDER" "$CONFORMANCE_UPSTREAM_E2E_RECOMMENDER"
image vpa-updater /updater "$CONFORMANCE_UPSTREAM_UPDATER"
image vpa-admission-controller /admission-controller "$CONFORMANCE_UPSTREAM_ADMISSION"
