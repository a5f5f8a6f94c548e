#!/usr/bin/env bash
# Builds Tailor's image from the repository's Dockerfile with buildah, without a registry, and caches
# it as a docker archive under the lane's cache:
#   1. the base (the Dockerfile's NODE_IMAGE): a minimal Debian bookworm root made with mmdebstrap
#      from Debian's mirrors (libc, libstdc++, ca-certificates, a shell) plus this machine's Node 20
#      (the files of its installed `nodejs` package: node, npm, corepack). Cached, keyed by its inputs
#      (suite, packages, the nodejs package's version and the node binary's digest, this recipe).
#   2. Tailor's image: `buildah bud --build-arg NODE_IMAGE=<the base>` on the checkout. Cached, keyed
#      by the Dockerfile, .dockerignore and every file of the build context, plus the base's key.
# Usage: image.sh            build what is not cached; print the image reference
#        image.sh --check    build nothing; exit 0 when the image of this checkout is cached, 3 otherwise
#        image.sh --ref      print the image reference of this checkout (cached or not)
#        image.sh --import   import the cached image into each node's containerd of the lane that is up
set -euo pipefail
# shellcheck source=lane-env.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lane-env.sh"
repo="$(cd "$here/../.." && pwd)"

# ---- keys ---------------------------------------------------------------------------------------
BASE_SUITE=bookworm
BASE_MIRRORS=(
  "deb http://deb.debian.org/debian $BASE_SUITE main"
  "deb http://deb.debian.org/debian $BASE_SUITE-updates main"
  "deb http://deb.debian.org/debian-security $BASE_SUITE-security main"
)
BASE_PACKAGES=ca-certificates,libstdc++6,libjemalloc2
BASE_RECIPE=1  # bump when the recipe below changes in a way the other inputs do not show
sha() { sha256sum | cut -c1-16; }
node_pkg_version() { dpkg-query -W -f '${Version}' nodejs 2>/dev/null; }
base_key() {
  printf '%s\n' "$BASE_SUITE" "${BASE_MIRRORS[@]}" "$BASE_PACKAGES" "$BASE_RECIPE" \
    "nodejs=$(node_pkg_version)" "$(sha256sum < /usr/bin/node)" | sha
}
# The build context as buildah sees it: .dockerignore leaves out all but a few paths; hash every
# file under those (without node_modules), with its path, plus the Dockerfile and the base's key.
tree_key() {
  (cd "$repo" && {
    cat Dockerfile .dockerignore
    find package.json package-lock.json bin src scripts/build.mjs scripts/node-fetch-native-url.mjs scripts/axios-lazy-fetch-globals.mjs scripts/image-modules.mjs packages/*/package.json packages/*/bin packages/*/src -path '*/node_modules' -prune -o -type f -print 2>/dev/null \
      | LC_ALL=C sort | while read -r f; do printf '%s %s\n' "$(sha256sum < "$f" | cut -c1-64)" "$f"; done
    base_key
  }) | sha
}

if ! command -v dpkg-query >/dev/null || [[ -z "$(node_pkg_version)" || ! -x /usr/bin/node ]]; then
  why="image.sh makes the base image from this machine's Debian 'nodejs' package (Node 20, /usr/bin/node), which is not installed"
  [[ "${1:-}" == --check ]] && { echo "$why"; exit 3; }
  lane_die "$why"
fi
bkey="$(base_key)"
tkey="$(tree_key)"
base_ref="localhost/tailor-node-base:$bkey"
base_tar="$LANE_IMAGE_CACHE/node-base-$bkey.tar"
image_ref="localhost/tailor:lane-$tkey"
image_tar="$LANE_IMAGE_CACHE/tailor-$tkey.tar"

case "${1:-}" in
  --ref) echo "$image_ref"; exit 0 ;;
  --check)
    [[ -s "$image_tar" ]] && exit 0
    echo "Tailor's image of this checkout is not cached ($image_tar)"; exit 3 ;;
  --import)
    [[ -s "$image_tar" ]] || lane_die "Tailor's image of this checkout is not cached ($image_tar); build it: sudo test/real-cluster/image.sh"
    [[ -e "$LANE_STATE" ]] || lane_die "no lane cluster is up ($LANE_STATE does not exist)"
    for n in $(seq 1 "$LANE_NODES"); do
      ctr --address "$(node_containerd_sock "$n")" -n k8s.io images import "$image_tar" >/dev/null
    done
    echo "$image_ref"; exit 0 ;;
  "") ;;
  *) lane_die "image.sh: unknown argument '$1' (use --check, --ref or --import)" ;;
esac
if [[ -s "$image_tar" ]]; then echo "$image_ref"; exit 0; fi

[[ $EUID -eq 0 ]] || lane_die "image.sh must run as root (mmdebstrap and buildah build the root file systems)"
need_pkgs=()
command -v buildah >/dev/null || need_pkgs+=(buildah)
command -v mmdebstrap >/dev/null || need_pkgs+=(mmdebstrap)
if [[ ${#need_pkgs[@]} -gt 0 ]]; then
  lane_log "installing Debian packages: ${need_pkgs[*]}"
  apt-get install -y -qq --no-install-recommends "${need_pkgs[@]}" >/dev/null ||
    lane_die "could not install ${need_pkgs[*]} with apt-get"
fi
mkdir -p "$LANE_IMAGE_CACHE"
exec 8> "$LANE_IMAGE_CACHE/.image.lock"
flock -w 1800 8 || lane_die "another image build holds $LANE_IMAGE_CACHE/.image.lock"

# buildah keeps its storage in a scratch directory (vfs: no mounts left behind) removed at the end.
work="$(mktemp -d /var/tmp/tailor-image.XXXXXX)"
bh() { buildah --root "$work/root" --runroot "$work/run" --storage-driver vfs "$@"; }
cleanup() { bh rm --all >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

if [[ ! -s "$base_tar" ]]; then
  started=$(date +%s)
  lane_log "making the base $base_ref: Debian $BASE_SUITE (mmdebstrap) + Node $(node --version) (nodejs $(node_pkg_version))"
  # The files of the installed nodejs package that run: node, npm and corepack (not headers or docs).
  node_files=(/usr/bin/node /usr/lib/node_modules/npm /usr/lib/node_modules/corepack)
  for f in "${node_files[@]}"; do dpkg -S "$f" 2>/dev/null | grep -q '^nodejs:' || lane_die "$f is not from the nodejs package"; done
  # `essential`: Debian's Essential packages (a shell, coreutils, dpkg) without apt; docs, man pages
  # and locales left out, as in Debian's slim images.
  # shellcheck disable=SC2016 # "$1" in the hooks is mmdebstrap's argument (the new root), not ours
  nice -n 10 mmdebstrap --variant=essential --include="$BASE_PACKAGES" --quiet \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
    --dpkgopt='path-include=/usr/share/doc/*/copyright' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook='mkdir -p "$1/usr/lib/node_modules"' \
    --customize-hook='copy-in /usr/bin/node /usr/bin' \
    --customize-hook='copy-in /usr/lib/node_modules/npm /usr/lib/node_modules/corepack /usr/lib/node_modules' \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/bin/npm"' \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/bin/npx"' \
    --customize-hook='ln -s ../lib/node_modules/corepack/dist/corepack.js "$1/usr/bin/corepack"' \
    --customize-hook='chroot "$1" node --version' \
    --customize-hook='rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/* "$1"/var/log/*' \
    "$BASE_SUITE" "$work/base.tar" "${BASE_MIRRORS[@]}" < /dev/null
  c="$(bh from scratch)"
  bh add "$c" "$work/base.tar" / >/dev/null
  bh config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd '["node"]' "$c"
  bh commit -q "$c" "$base_ref" >/dev/null
  bh push -q "$base_ref" "docker-archive:$base_tar.partial:$base_ref"
  mv "$base_tar.partial" "$base_tar"
  rm -f "$work/base.tar"
  lane_log "base made in $(( $(date +%s) - started )) s: $(du -h "$base_tar" | cut -f1) ($base_tar)"
else
  bh pull -q "docker-archive:$base_tar" >/dev/null
fi

started=$(date +%s)
lane_log "building $image_ref from the Dockerfile (NODE_IMAGE=$base_ref)"
[[ -n "$(bh images -q "$base_ref" 2>/dev/null)" ]] || bh pull -q "docker-archive:$base_tar" >/dev/null
# npm in the build uses this machine's npm registry and, when its npm trusts an extra CA file (a
# TLS-inspecting proxy), that file too: both through a ~/.npmrc mounted for the RUN steps only
# (bind mounts are not part of the image; the Dockerfile stays as it is).
npm_mounts=()
registry="$(npm config get registry 2>/dev/null || echo https://registry.npmjs.org/)"
cafile="$(npm config get cafile 2>/dev/null || true)"
printf 'registry=%s\n' "$registry" > "$work/npmrc"
if [[ -n "$cafile" && "$cafile" != null && -f "$cafile" ]]; then
  echo "cafile=/root/.npm-host-ca.crt" >> "$work/npmrc"
  npm_mounts+=(--volume "$cafile:/root/.npm-host-ca.crt:ro")
fi
npm_mounts+=(--volume "$work/npmrc:/root/.npmrc:ro")
# chroot isolation and the host's network: npm ci reaches the npm registry; no runc (this VM lacks
# CAP_SYS_RESOURCE) and no network namespace to set up.
nice -n 10 buildah --root "$work/root" --runroot "$work/run" --storage-driver vfs bud --quiet \
  --isolation chroot --network host --pull=never "${npm_mounts[@]}" \
  --build-arg "NODE_IMAGE=$base_ref" -t "$image_ref" -f "$repo/Dockerfile" "$repo" >/dev/null
bh push -q "$image_ref" "docker-archive:$image_tar.partial:$image_ref"
mv "$image_tar.partial" "$image_tar"
size="$(bh images --format '{{.Size}}' "$image_ref")"
lane_log "built $image_ref in $(( $(date +%s) - started )) s: $size ($(du -h "$image_tar" | cut -f1) archive, $image_tar)"
echo "$image_ref"
