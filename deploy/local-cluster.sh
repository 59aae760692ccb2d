#!/usr/bin/env bash
# local-cluster.sh: a two-instance smokestack cluster on this machine,
# without Docker: redis-server, two `smokestack serve` on their own ports
# sharing one host key and one Redis, and HAProxy balancing players over
# them (apt install haproxy), sending each connection's PROXY header so the
# instances see players' own addresses -- or, where HAProxy is not installed,
# cmd/smokeproxy, a small Go balancer that needs no install.
#
#   deploy/local-cluster.sh start    # build, start everything, print how to connect
#   deploy/local-cluster.sh status
#   deploy/local-cluster.sh stop     # stop what start started (by pid)
#
# Needs Go and redis-server (apt install redis-server). Everything lives
# in $CLUSTER_DIR (default: $TMPDIR/smokestack-cluster). Ports and options
# come from the environment:
#   PROXY_PORT=2222 NODE1_PORT=2301 NODE2_PORT=2302 REDIS_PORT=6390
#   PROXY_PROTOCOL=1   (the default) the balancer sends PROXY v2, and the
#                      instances take it from 127.0.0.1 only
#                      (--proxy-protocol --proxy-trusted 127.0.0.1), so their
#                      per-address limits see each player's address; they
#                      then take no connection without the header
#   PROXY_PROTOCOL=0   no header: the instances see every player at the
#                      balancer's address, so their per-address limits are
#                      turned off (--max-conns-per-addr 0 --conn-rate 0);
#                      the instances can then be reached directly too
#   BALANCER=smokeproxy  use smokeproxy even where HAProxy is installed
#   PUBLIC_ADDR        where players reach the balancer, for the invites the
#                      instances print (default localhost:$PROXY_PORT)
#   SMOKESTACK_FLAGS   extra flags for both instances
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${CLUSTER_DIR:-${TMPDIR:-/tmp}/smokestack-cluster}
proxy_port=${PROXY_PORT:-2222}
node_ports=("${NODE1_PORT:-2301}" "${NODE2_PORT:-2302}")
redis_port=${REDIS_PORT:-6390}
redis_url="redis://127.0.0.1:$redis_port/0"
proxy_protocol=${PROXY_PROTOCOL:-1}

say() { printf '%s\n' "$*" >&2; }
die() { say "local-cluster: $*"; exit 1; }

# alive NAME: whether the process recorded in NAME.pid is running.
alive() { [[ -f "$dir/$1.pid" ]] && kill -0 "$(cat "$dir/$1.pid")" 2>/dev/null; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_port PORT NAME: until something listens on PORT, or NAME died.
wait_port() {
	for _ in $(seq 1 100); do
		port_open "$1" && return 0
		alive "$2" || { say "$2 exited; last lines of $dir/$2.log:"; tail -n 20 "$dir/$2.log" >&2; return 1; }
		sleep 0.1
	done
	say "$2 is not listening on port $1 after 10s; see $dir/$2.log"
	return 1
}

# launch NAME CMD...: start CMD in the background, logging to NAME.log.
launch() {
	local name=$1; shift
	alive "$name" && die "$name is already running (pid $(cat "$dir/$name.pid")); run stop first"
	nohup "$@" >"$dir/$name.log" 2>&1 &
	echo $! >"$dir/$name.pid"
}

start() {
	command -v go >/dev/null || die "go not found"
	command -v redis-server >/dev/null || die "redis-server not found: apt install redis-server"
	[[ $proxy_protocol == 0 || $proxy_protocol == 1 ]] || die "PROXY_PROTOCOL=$proxy_protocol: want 1 (the default) or 0"
	for p in "$proxy_port" "${node_ports[@]}" "$redis_port"; do
		port_open "$p" && die "port $p is in use; pick others with PROXY_PORT, NODE1_PORT, NODE2_PORT, REDIS_PORT"
	done
	mkdir -p "$dir/bin" "$dir/redis"
	say "building into $dir/bin"
	local balancer=haproxy
	if [[ "${BALANCER:-}" == smokeproxy ]] || ! command -v haproxy >/dev/null; then
		balancer=smokeproxy
	fi
	if [[ $balancer == haproxy ]]; then
		(cd "$repo" && go build -o "$dir/bin/" ./cmd/smokestack)
	else
		(cd "$repo" && go build -o "$dir/bin/" ./cmd/smokestack ./cmd/smokeproxy)
	fi

	# One host key for every instance, so players' known_hosts accept
	# whichever instance the balancer picks.
	if [[ ! -f "$dir/ssh_host_ed25519_key" ]]; then
		ssh-keygen -q -t ed25519 -N '' -C smokestack-cluster -f "$dir/ssh_host_ed25519_key"
	fi
	chmod 600 "$dir/ssh_host_ed25519_key"

	launch redis redis-server --port "$redis_port" --bind 127.0.0.1 --dir "$dir/redis" \
		--appendonly yes --appendfsync always --save ''
	wait_port "$redis_port" redis || { stop; exit 1; }

	local extra=() backends=()
	if [[ $proxy_protocol == 1 ]]; then
		extra+=(--proxy-protocol --proxy-trusted 127.0.0.1)
	else
		# Every player comes from the balancer's address: per-address
		# limits would make them share one allowance.
		extra+=(--max-conns-per-addr 0 --conn-rate 0)
	fi
	# shellcheck disable=SC2206 # word splitting of extra flags is intended
	extra+=(${SMOKESTACK_FLAGS:-})
	for i in 0 1; do
		local n=$((i + 1)) port=${node_ports[$i]}
		mkdir -p "$dir/node$n"
		launch "node$n" "$dir/bin/smokestack" serve --listen "127.0.0.1:$port" --data-dir "$dir/node$n" \
			--host-key "$dir/ssh_host_ed25519_key" --redis "$redis_url" \
			--public-addr "${PUBLIC_ADDR:-localhost:$proxy_port}" "${extra[@]}"
		backends+=("127.0.0.1:$port")
	done
	for i in 0 1; do wait_port "${node_ports[$i]}" "node$((i + 1))" || { stop; exit 1; }; done

	if [[ $balancer == haproxy ]]; then
		haproxy_cfg "${backends[@]}" >"$dir/haproxy.cfg"
		haproxy -c -q -f "$dir/haproxy.cfg" || { stop; die "haproxy refused $dir/haproxy.cfg"; }
		# -db: stay in the foreground, so the pid is HAProxy's own.
		launch proxy haproxy -db -f "$dir/haproxy.cfg"
	else
		local send=()
		[[ $proxy_protocol == 1 ]] && send=(--send-proxy v2)
		launch proxy "$dir/bin/smokeproxy" --listen "127.0.0.1:$proxy_port" \
			--backends "$(IFS=,; echo "${backends[*]}")" "${send[@]}"
	fi
	wait_port "$proxy_port" proxy || { stop; exit 1; }

	say "cluster up:"
	say "  players:   ssh -p $proxy_port 127.0.0.1        (balanced by $balancer over both instances)"
	if [[ $proxy_protocol == 1 ]]; then
		say "  instances: 127.0.0.1:${node_ports[0]} and :${node_ports[1]}, PROXY protocol only (reach them through the balancer;"
		say "             start with PROXY_PROTOCOL=0 to reach them directly, per-address limits off)"
	else
		say "  instances: ssh -p ${node_ports[0]} 127.0.0.1 / ssh -p ${node_ports[1]} 127.0.0.1   (no PROXY protocol: per-address limits off)"
	fi
	say "  redis:     $redis_url   logs and pids: $dir"
	say "  kill one instance to watch failover: kill \$(cat $dir/node1.pid)"
}

# haproxy_cfg BACKEND...: deploy/haproxy.cfg's shape for this machine: TCP,
# leastconn, a health check expecting the SSH banner, and PROXY v2 to the
# instances unless PROXY_PROTOCOL=0.
haproxy_cfg() {
	local send="" check=""
	if [[ $proxy_protocol == 1 ]]; then
		send=" send-proxy-v2"
		check=" check-send-proxy"
	fi
	cat <<EOF
global
    log stdout format raw local0
    maxconn 4000

defaults
    mode tcp
    log global
    option tcplog
    timeout connect 5s
    timeout client 2h
    timeout server 2h
    timeout client-fin 30s
    timeout server-fin 30s

frontend ssh
    bind 127.0.0.1:$proxy_port
    default_backend smokestack

backend smokestack
    balance leastconn
    option tcp-check
    tcp-check expect rstring ^SSH-2\\.0-
    default-server check$check$send inter 2s fall 2 rise 2
EOF
	local i=1 b
	for b in "$@"; do
		echo "    server node$i $b"
		i=$((i + 1))
	done
}

stop() {
	local name pid
	for name in proxy node1 node2 redis; do
		[[ -f "$dir/$name.pid" ]] || continue
		pid=$(cat "$dir/$name.pid")
		if kill -0 "$pid" 2>/dev/null; then
			kill "$pid"
			for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
			kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
			say "stopped $name (pid $pid)"
		fi
		rm -f "$dir/$name.pid"
	done
}

status() {
	local name
	for name in redis node1 node2 proxy; do
		if alive "$name"; then say "$name: running (pid $(cat "$dir/$name.pid"))"; else say "$name: stopped"; fi
	done
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) status ;;
*) say "usage: $0 start|stop|status"; exit 2 ;;
esac
