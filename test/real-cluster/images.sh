#!/usr/bin/env bash
# Builds the lane's two images without a registry, with buildah from scratch, and caches them as
# docker archives: the sandbox ("pause") image is Debian's static catatonit run as `catatonit -P`;
# the test image is Debian's static busybox with its applets linked in /bin.
# Usage: images.sh   (prints nothing when both archives are cached already)
set -euo pipefail
# shellcheck source=lane-env.sh
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/lane-env.sh"
mkdir -p "$LANE_IMAGE_CACHE"
pause_tar="$LANE_IMAGE_CACHE/pause.tar"
busybox_tar="$LANE_IMAGE_CACHE/busybox.tar"
if [[ -s "$pause_tar" && -s "$busybox_tar" ]]; then exit 0; fi

# buildah keeps its storage in a scratch directory (vfs: no mounts left behind) removed at the end.
work="$(mktemp -d /tmp/tailor-lane-buildah.XXXXXX)"
bh() { buildah --root "$work/root" --runroot "$work/run" --storage-driver vfs "$@"; }
cleanup() { bh rm --all >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup EXIT

lane_log "building $LANE_PAUSE_IMAGE (catatonit -P)"
c="$(bh from scratch)"
bh copy "$c" "$(command -v catatonit)" /catatonit >/dev/null
bh config --entrypoint '["/catatonit", "-P"]' --cmd '[]' "$c"
bh commit -q "$c" "$LANE_PAUSE_IMAGE" >/dev/null
bh push -q "$LANE_PAUSE_IMAGE" "docker-archive:$pause_tar.partial:$LANE_PAUSE_IMAGE"
mv "$pause_tar.partial" "$pause_tar"

lane_log "building $LANE_BUSYBOX_IMAGE (busybox-static)"
c="$(bh from scratch)"
mnt="$(bh mount "$c")"
mkdir -p "$mnt/bin" "$mnt/tmp" "$mnt/etc"
cp "$(command -v busybox)" "$mnt/bin/busybox"
chroot "$mnt" /bin/busybox --install -s /bin
echo 'root:x:0:0:root:/root:/bin/sh' > "$mnt/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/false' >> "$mnt/etc/passwd"
bh umount "$c" >/dev/null
bh config --cmd '["/bin/sh"]' --env PATH=/bin "$c"
bh commit -q "$c" "$LANE_BUSYBOX_IMAGE" >/dev/null
bh push -q "$LANE_BUSYBOX_IMAGE" "docker-archive:$busybox_tar.partial:$LANE_BUSYBOX_IMAGE"
mv "$busybox_tar.partial" "$busybox_tar"
