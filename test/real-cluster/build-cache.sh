# shellcheck shell=bash disable=SC2034
# What build.sh and build-upstream-vpa.sh share (sourced after versions.sh): which requested
# binaries are missing from the cache, the answer of --check, and the lock that keeps two builds of
# one kind apart. Sets `missing` (components not cached) and `go_bin` (the toolchain), or exits:
# 0 when everything is cached, 2 unknown component, 3 --check with something missing, 4 no Go,
# 5 another build of the same kind is running.
# Usage: build_cache_prepare <script name> <binary function> <known components> <lock name> <check_only> <component...>
build_cache_prepare() {
  local script="$1" binary_of="$2" known="$3" lock="$4" check_only="$5"
  shift 5
  local c path
  missing=()
  for c in "$@"; do
    path="$("$binary_of" "$c")" || { echo "$script: unknown component '$c' (known: $known)" >&2; exit 2; }
    [[ -x "$path" ]] || missing+=("$c")
  done
  if [[ $check_only -eq 1 ]]; then
    if [[ ${#missing[@]} -eq 0 ]]; then exit 0; fi
    echo "not cached: ${missing[*]} (under $LANE_CACHE)"
    exit 3
  fi
  if [[ ${#missing[@]} -eq 0 ]]; then echo "all cached under $LANE_CACHE"; exit 0; fi
  mkdir -p "$LANE_CACHE"
  exec 9> "$LANE_CACHE/$lock"
  flock -n 9 || { echo "$script: another build is running (lock $LANE_CACHE/$lock); wait for it and run again" >&2; exit 5; }
  go_bin="$(lane_go)" || { echo "$script: Go is needed to build ${missing[*]} and was not found (set GO=/path/to/go)" >&2; exit 4; }
}
