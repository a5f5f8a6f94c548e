# shellcheck shell=bash
# How the lane chooses its loopback ports (sourced by lane-env.sh). The defaults in lane-env.sh lie
# below Linux's ephemeral range (32768-60999, /proc/sys/net/ipv4/ip_local_port_range), where a
# program that binds port 0 — every test server here does — is given its port: a default can then
# only be held by something that asked for it. When one is held anyway, the lane names the process
# (ss -ltnp), waits up to TAILOR_CLUSTER_PORT_WAIT seconds (default 20) for it to let go, and then
# takes the next free port above it and says so. The ports chosen are written to
# $LANE_STATE/ports.env, which lane-env.sh reads while the cluster is up (down.sh, ksm.sh, ci-lane.sh).

# lane_port_busy PORT: true when something listens on 127.0.0.1:PORT (or on every address).
lane_port_busy() {
  if command -v ss >/dev/null 2>&1; then
    [[ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]]
  else
    (: < "/dev/tcp/127.0.0.1/$1") 2>/dev/null
  fi
}

# lane_port_holder PORT: "pid 123 (name)" of the listener when ss can tell, else "an unknown process".
lane_port_holder() {
  local line
  line="$(ss -Hltnp "sport = :$1" 2>/dev/null | grep -o 'users:(([^)]*))' | head -n 1)"
  if [[ "$line" =~ \"([^\"]+)\",pid=([0-9]+) ]]; then
    echo "pid ${BASH_REMATCH[2]} (${BASH_REMATCH[1]})"
  else
    echo "an unknown process"
  fi
}

# lane_pick_port VAR [TAKEN...]: keeps $VAR when it is free; otherwise waits, then moves it to the
# next port that is free and not among TAKEN (ports already chosen for other components).
lane_pick_port() {
  local var="$1" port wait="${TAILOR_CLUSTER_PORT_WAIT:-20}" waited=0 p
  shift
  port="${!var}"
  [[ "$wait" =~ ^[0-9]+$ ]] || lane_die "TAILOR_CLUSTER_PORT_WAIT must be a whole number of seconds, got '$wait'"
  if lane_port_busy "$port"; then
    lane_log "port 127.0.0.1:$port ($var) is held by $(lane_port_holder "$port"); waiting up to ${wait}s for it"
    while lane_port_busy "$port" && (( waited < wait )); do sleep 1; waited=$((waited + 1)); done
  fi
  if lane_port_busy "$port" || [[ " $* " == *" $port "* ]]; then
    p="$port"
    while lane_port_busy "$p" || [[ " $* " == *" $p "* ]]; do
      p=$((p + 1))
      (( p < port + 200 )) || lane_die "no free port in 127.0.0.1:$port-$((port + 199)) for $var"
    done
    lane_log "port $port ($var) is still in use; using $p"
    printf -v "$var" '%s' "$p"
  fi
}

# lane_pick_ports VAR...: picks each in turn, never giving two components the same port.
lane_pick_ports() {
  local var taken=()
  for var in "$@"; do
    lane_pick_port "$var" "${taken[@]}"
    taken+=("${!var}")
  done
}

# lane_write_ports VAR...: records the chosen ports in $LANE_STATE/ports.env (merged with what is
# there, so ksm.sh can add its own to those of up.sh).
lane_write_ports() {
  local file="$LANE_STATE/ports.env" var
  mkdir -p "$LANE_STATE"
  for var in "$@"; do
    if [[ -f "$file" ]]; then sed -i "/^$var=/d" "$file"; fi
    echo "$var=${!var}" >> "$file"
  done
}
