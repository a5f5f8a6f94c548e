# shellcheck shell=bash disable=SC2034
# What the conformance lane's scripts share (sourced after ../real-cluster/versions.sh): where
# upstream's e2e suite is, where its build and the images are cached, and the images' names.

# The Kubernetes module the images' programs come from: the one upstream's suite requires.
CONFORMANCE_KUBERNETES_MODULE=v1.37.1
# agnhost 2.40, named by actuation's sidecar spec, from the Kubernetes module whose agnhost is 2.40
# (build-agnhost-2.40/go.mod): the spec passes klog's --alsologtostderr, which later agnhosts refuse.
CONFORMANCE_AGNHOST_240_MODULE=v1.25.16
# Image names as the specs write them (busybox, agnhost 2.53 and 2.40 in the specs; agnhost 2.66.1,
# resource-consumer 1.14 and pause through the framework's image list of k8s.io/kubernetes v1.37.1).
# agnhost 2.53 (the specs run its `stress --mem-total --mem-alloc-size`, unchanged since) is 2.66.1 by
# another name.
CONFORMANCE_BUSYBOX=registry.k8s.io/e2e-test-images/busybox:1.37.0-2
CONFORMANCE_PAUSE=registry.k8s.io/pause:3.1
CONFORMANCE_AGNHOST=registry.k8s.io/e2e-test-images/agnhost:2.66.1
CONFORMANCE_AGNHOST_ALIASES=(registry.k8s.io/e2e-test-images/agnhost:2.53)
CONFORMANCE_AGNHOST_240=registry.k8s.io/e2e-test-images/agnhost:2.40
CONFORMANCE_RESOURCE_CONSUMER=registry.k8s.io/e2e-test-images/resource-consumer:1.14
CONFORMANCE_IMAGES=("$CONFORMANCE_BUSYBOX" "$CONFORMANCE_PAUSE" "$CONFORMANCE_AGNHOST" "${CONFORMANCE_AGNHOST_ALIASES[@]}" "$CONFORMANCE_AGNHOST_240" "$CONFORMANCE_RESOURCE_CONSUMER")
# Recipe number of the images: bump it when build.sh makes them differently.
CONFORMANCE_IMAGE_RECIPE=2

# conformance_suite_src: the suite's source directory ($TAILOR_VPA_E2E_SRC), or a message and status 1.
conformance_suite_src() {
  local src="${TAILOR_VPA_E2E_SRC:-}"
  if [[ -z "$src" ]]; then
    echo "TAILOR_VPA_E2E_SRC is not set (the path of upstream VPA's e2e suite: a directory with go.mod and e2e/v1)" >&2
    return 1
  fi
  if [[ ! -f "$src/go.mod" || ! -d "$src/e2e/v1" ]]; then
    echo "TAILOR_VPA_E2E_SRC=$src has no go.mod and e2e/v1 (upstream VPA's e2e suite)" >&2
    return 1
  fi
  (cd "$src" && pwd)
}

# conformance_suite_binary SRC: the cached test binary of the suite at SRC, keyed by its content.
conformance_suite_binary() {
  local key
  key="$(cd "$1" && find go.mod go.sum e2e -type f -name '*.go' -o -type f -name 'go.*' | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)"
  echo "$LANE_CACHE/vpa-e2e-$key/e2e.test"
}

# conformance_image_tar NAME: the cached docker archive of an image.
conformance_image_tar() {
  local file="${1//[\/:]/_}"
  echo "$LANE_CACHE/conformance-images-r$CONFORMANCE_IMAGE_RECIPE-$CONFORMANCE_KUBERNETES_MODULE/$file.tar"
}

# ---- upstream mode (TAILOR_CONFORMANCE_AUTOSCALER=upstream): upstream VPA itself on the same cluster
# Its images, made from the binaries build-upstream-vpa.sh caches (upstream_binary in versions.sh),
# under the names its deploy/ manifests give them, plus the name the suite's NewVPADeployment gives a
# recommender it deploys itself (localhost:5001/vpa-recommender, untagged: :latest, entrypoint
# /recommender). Entrypoints as upstream's Dockerfiles set them (/recommender, /updater,
# /admission-controller).
CONFORMANCE_UPSTREAM_TAG="${UPSTREAM_VPA_VERSION#v}"
CONFORMANCE_UPSTREAM_RECOMMENDER=registry.k8s.io/autoscaling/vpa-recommender:$CONFORMANCE_UPSTREAM_TAG
CONFORMANCE_UPSTREAM_UPDATER=registry.k8s.io/autoscaling/vpa-updater:$CONFORMANCE_UPSTREAM_TAG
CONFORMANCE_UPSTREAM_ADMISSION=registry.k8s.io/autoscaling/vpa-admission-controller:$CONFORMANCE_UPSTREAM_TAG
CONFORMANCE_UPSTREAM_E2E_RECOMMENDER=localhost:5001/vpa-recommender:latest
CONFORMANCE_UPSTREAM_IMAGES=("$CONFORMANCE_UPSTREAM_RECOMMENDER" "$CONFORMANCE_UPSTREAM_UPDATER" "$CONFORMANCE_UPSTREAM_ADMISSION" "$CONFORMANCE_UPSTREAM_E2E_RECOMMENDER")
# Recipe number of the upstream images: bump it when build-upstream.sh makes them differently.
CONFORMANCE_UPSTREAM_RECIPE=1
# The CA bundle copied into the images (as distroless/static has one).
CONFORMANCE_UPSTREAM_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt

# conformance_upstream_key: a digest of what the upstream images are made of (the three binaries,
# the CA bundle, the recipe), so new binaries make new images.
conformance_upstream_key() {
  local c
  {
    for c in vpa-recommender vpa-updater vpa-admission-controller; do sha256sum < "$(upstream_binary "$c")"; done
    sha256sum < "$CONFORMANCE_UPSTREAM_CA_BUNDLE"
    echo "$CONFORMANCE_UPSTREAM_RECIPE"
  } | sha256sum | cut -c1-16
}

# conformance_upstream_image_tar KEY NAME: the cached docker archive of an upstream image.
conformance_upstream_image_tar() {
  local file="${2//[\/:]/_}"
  echo "$LANE_CACHE/conformance-upstream-images-$UPSTREAM_VPA_VERSION-$1/$file.tar"
}

# upstream_deploy_dir: deploy/ of upstream VPA's module as the Go module proxy serves it (read in the
# module cache, never copied into this repository), or a message and status 1.
upstream_deploy_dir() {
  local go_bin dir module="k8s.io/autoscaler/vertical-pod-autoscaler@$UPSTREAM_VPA_VERSION"
  go_bin="$(lane_go)" || { echo "Go is needed to find upstream VPA's module (set GO=/path/to/go)"; return 1; }
  dir="$(cd / && GOFLAGS= "$go_bin" mod download -json "$module" 2>&1 | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -f "$dir/deploy/vpa-v1-crd-gen.yaml" ]] || { echo "go mod download $module gave no deploy/ (${dir:-no directory})"; return 1; }
  echo "$dir/deploy"
}

# import_upstream_images: upstream's images (build-upstream.sh's, cached) into each lane node's containerd.
import_upstream_images() {
  local n name key
  key="$(conformance_upstream_key)"
  for n in $(seq 1 "$LANE_NODES"); do
    for name in "${CONFORMANCE_UPSTREAM_IMAGES[@]}"; do
      ctr --address "$(node_containerd_sock "$n")" -n k8s.io images import "$(conformance_upstream_image_tar "$key" "$name")" >/dev/null
    done
  done
}
