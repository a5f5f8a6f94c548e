#!/usr/bin/env bash
# Builds (once) what the conformance lane needs and caches it beside the real-cluster lane's
# binaries, keyed by content, so a second run builds nothing:
#   - upstream VPA's e2e suite as a test binary (`go test -c ./e2e/v1` in $TAILOR_VPA_E2E_SRC, the
#     suite's source, which stays where it is: it is upstream's code, never copied here), keyed by a
#     digest of its go.mod, go.sum and sources;
#   - the images the specs name, made without a registry (buildah from scratch, docker archives):
#     registry.k8s.io/e2e-test-images/agnhost (2.66.1 and 2.53: one image, agnhost built from
#     k8s.io/kubernetes v1.37.1's test/images/agnhost, two names; 2.40 from v1.25.16's, whose agnhost
#     is 2.40: build-agnhost-2.40/go.mod), resource-consumer:1.14 (consumer
#     and consume-cpu from the same module, Debian's `stress` with the libraries it links), busybox
#     1.37.0-2 (Debian's static busybox) and registry.k8s.io/pause:3.1 (Debian's catatonit -P).
# Usage: build.sh [--check]   (--check builds nothing: exit 0 when all is cached, 3 otherwise)
# Environment: TAILOR_VPA_E2E_SRC (required), TAILOR_CLUSTER_CACHE, GO, TAILOR_BUILD_PARALLEL.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../real-cluster/versions.sh
source "$here/../real-cluster/versions.sh"
# shellcheck source=conformance-env.sh
source "$here/conformance-env.sh"

check_only=0
[[ "${1:-}" == "--check" ]] && check_only=1
src="$(conformance_suite_src)" || exit 2
suite="$(conformance_suite_binary "$src")"
missing=()
[[ -x "$suite" ]] || missing+=("the e2e suite ($suite)")
for name in "${CONFORMANCE_IMAGES[@]}"; do
  [[ -s "$(conformance_image_tar "$name")" ]] || missing+=("image $name")
done
if [[ $check_only -eq 1 ]]; then
  [[ ${#missing[@]} -eq 0 ]] && exit 0
  echo "not cached: ${missing[*]}"
  exit 3
fi
[[ ${#missing[@]} -eq 0 ]] && { echo "conformance: all cached under $LANE_CACHE"; exit 0; }

mkdir -p "$LANE_CACHE"
exec 9> "$LANE_CACHE/.conformance-build.lock"
flock -n 9 || { echo "conformance build: another build is running (lock $LANE_CACHE/.conformance-build.lock)" >&2; exit 5; }
go_bin="$(lane_go)" || { echo "conformance build: Go is needed and was not found (set GO=/path/to/go)" >&2; exit 4; }
par="${TAILOR_BUILD_PARALLEL:-2}"
export GOMAXPROCS="$par" GOTOOLCHAIN=local CGO_ENABLED=0

if [[ ! -x "$suite" ]]; then
  start=$(date +%s)
  echo "conformance: building upstream's e2e suite from $src -> $suite (nice -n 19; ~8 min cold on 2 cores)"
  mkdir -p "$(dirname "$suite")"
  # -mod=readonly: the source directory may be read-only (CI's copy of shared/ is).
  (cd "$src" && GOFLAGS=-mod=readonly nice -n 19 "$go_bin" test -c -p "$par" -trimpath -o "$suite.partial.$$" ./e2e/v1)
  mv -f "$suite.partial.$$" "$suite"
  echo "conformance: built the suite in $(( $(date +%s) - start )) s ($(du -h "$suite" | cut -f1))"
fi

images_missing=0
for name in "${CONFORMANCE_IMAGES[@]}"; do [[ -s "$(conformance_image_tar "$name")" ]] || images_missing=1; done
[[ $images_missing -eq 0 ]] && exit 0

for tool in buildah busybox catatonit; do
  command -v "$tool" >/dev/null || { echo "conformance build: $tool is needed (apt-get install buildah busybox-static catatonit)" >&2; exit 4; }
done
if ! command -v stress >/dev/null; then
  echo "conformance: installing Debian's stress (resource-consumer runs it to use memory)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q stress >/dev/null || { apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q stress >/dev/null; }
fi

work="$(mktemp -d /tmp/tailor-conformance-build.XXXXXX)"
bh() { buildah --root "$work/root" --runroot "$work/run" --storage-driver vfs "$@"; }
cleanup() { bh rm --all >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

# The Go programs, from the Kubernetes module at the suite's version (build-images/go.mod).
start=$(date +%s)
echo "conformance: building agnhost, consumer and consume-cpu from k8s.io/kubernetes $CONFORMANCE_KUBERNETES_MODULE"
(cd "$here/build-images" && GOFLAGS=-mod=readonly nice -n 19 "$go_bin" build -p "$par" -trimpath -ldflags "-s -w" -o "$work/agnhost" k8s.io/kubernetes/test/images/agnhost)
(cd "$here/build-images" && GOFLAGS=-mod=readonly nice -n 19 "$go_bin" build -p "$par" -trimpath -ldflags "-s -w" -o "$work/consumer" k8s.io/kubernetes/test/images/resource-consumer)
(cd "$here/build-images" && GOFLAGS=-mod=readonly nice -n 19 "$go_bin" build -p "$par" -trimpath -ldflags "-s -w" -o "$work/consume-cpu" k8s.io/kubernetes/test/images/resource-consumer/consume-cpu)
echo "conformance: building agnhost 2.40 from k8s.io/kubernetes $CONFORMANCE_AGNHOST_240_MODULE"
(cd "$here/build-agnhost-2.40" && GOFLAGS=-mod=readonly nice -n 19 "$go_bin" build -p "$par" -trimpath -ldflags "-s -w" -o "$work/agnhost-2.40" k8s.io/kubernetes/test/images/agnhost)
echo "conformance: built the programs in $(( $(date +%s) - start )) s"

# new_busybox_container: a container from scratch with Debian's static busybox as /bin; prints its id.
new_busybox_container() {
  local c mnt
  c="$(bh from scratch)"
  mnt="$(bh mount "$c")"
  mkdir -p "$mnt/bin" "$mnt/tmp" "$mnt/etc"
  chmod 1777 "$mnt/tmp"
  cp "$(command -v busybox)" "$mnt/bin/busybox"
  chroot "$mnt" /bin/busybox --install -s /bin
  printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/false\n' > "$mnt/etc/passwd"
  printf 'root:x:0:\nnogroup:x:65534:\n' > "$mnt/etc/group"
  bh umount "$c" >/dev/null
  echo "$c"
}
# save IMAGE-NAME CONTAINER: commit and write the docker archive under the cache.
save() {
  local name="$1" c="$2" tar
  tar="$(conformance_image_tar "$name")"
  mkdir -p "$(dirname "$tar")"
  bh commit -q "$c" "$name" >/dev/null
  bh push -q "$name" "docker-archive:$tar.partial:$name"
  mv "$tar.partial" "$tar"
  echo "conformance: image $name ($(du -h "$tar" | cut -f1))"
}

c="$(new_busybox_container)"
bh config --cmd '["/bin/sh"]' --env PATH=/bin "$c"
save "$CONFORMANCE_BUSYBOX" "$c"

c="$(bh from scratch)"
bh copy "$c" "$(command -v catatonit)" /catatonit >/dev/null
bh config --entrypoint '["/catatonit", "-P"]' --cmd '[]' "$c"
save "$CONFORMANCE_PAUSE" "$c"

for name in "$CONFORMANCE_AGNHOST" "${CONFORMANCE_AGNHOST_ALIASES[@]}" "$CONFORMANCE_AGNHOST_240"; do
  program="$work/agnhost"
  [[ "$name" == "$CONFORMANCE_AGNHOST_240" ]] && program="$work/agnhost-2.40"
  c="$(new_busybox_container)"
  bh copy --chmod 0755 "$c" "$program" /agnhost >/dev/null
  bh config --entrypoint '["/agnhost"]' --cmd '["pause"]' --env PATH=/bin:/ "$c"
  save "$name" "$c"
done

c="$(new_busybox_container)"
mnt="$(bh mount "$c")"
install -m 0755 "$work/consumer" "$mnt/consumer"
install -D -m 0755 "$work/consume-cpu" "$mnt/consume-cpu/consume-cpu"
install -D -m 0755 "$(command -v stress)" "$mnt/usr/bin/stress"
# stress is dynamically linked: its libraries (and the loader) at the same paths.
for lib in $(ldd "$(command -v stress)" | grep -oE '/[^ ]+'); do install -D -m 0755 "$lib" "$mnt$lib"; done
bh umount "$c" >/dev/null
bh config --entrypoint '["/consumer"]' --cmd '[]' --env PATH=/usr/bin:/bin --port 8080 "$c"
save "$CONFORMANCE_RESOURCE_CONSUMER" "$c"
