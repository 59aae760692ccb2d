#!/usr/bin/env bash
# local-cluster.sh: a smokestack cluster on this machine, without Docker:
# Redis (one server, a Sentinel-managed primary, or a Redis Cluster), two
# or more `smokestack serve` on their own ports sharing one host key and
# that Redis, and HAProxy balancing players over them (apt install
# haproxy), sending each connection's PROXY header so the instances see
# players' own addresses -- or, where HAProxy is not installed,
# cmd/smokeproxy, a small Go balancer that needs no install.
#
#   deploy/local-cluster.sh start    # build, start everything, print how to connect
#   deploy/local-cluster.sh status
#   deploy/local-cluster.sh stop     # stop what start started (by pid)
#   deploy/local-cluster.sh revive NAME   # start a killed process again (redis, node1…)
#   deploy/local-cluster.sh targets|pids|redis-nodes
#                                    # the instances' addresses, their pids, the
#                                    # Redis servers' URLs, comma-separated
#                                    # (smokeload --target, --pids, --redis-info)
#
#   REDIS_MODE=single    (the default) one redis-server
#   REDIS_MODE=sentinel  a primary, a replica and three sentinels watching
#                        them; the instances get the failover URL (--redis
#                        'redis://127.0.0.1:S1?master_name=smokestack&addr=…')
#                        and follow a promotion
#   REDIS_MODE=cluster   a Redis Cluster of three primaries, each with a
#                        replica; the instances get --redis-cluster
#                        'redis://127.0.0.1:N1?addr=127.0.0.1:N2&addr=…'
#
# Needs Go and redis-server (apt install redis-server; redis-cli too for
# the cluster). Everything lives in $CLUSTER_DIR (default:
# $TMPDIR/smokestack-cluster). Ports and options come from the environment:
#   PROXY_PORT=2222 NODE1_PORT=2301 NODE2_PORT=2302 REDIS_PORT=6390
#   NODES=2            how many instances; instance N listens on NODEN_PORT,
#                      by default NODE1_PORT+N-1
#   REDIS_PORT         the single server's port; under Sentinel the primary's
#                      (the replica's is +1, the sentinels' +10000, +10001,
#                      +10002); under Cluster the first node's of six in a row
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
#   SMOKESTACK_FLAGS   extra flags for every instance
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${CLUSTER_DIR:-${TMPDIR:-/tmp}/smokestack-cluster}
# What start was told, so that stop, status and the lists find what it
# started without being told again.
if [[ ${1:-} != start && -f "$dir/cluster.env" ]]; then
	# shellcheck source=/dev/null
	source "$dir/cluster.env"
fi
proxy_port=${PROXY_PORT:-2222}
nodes=${NODES:-2}
redis_port=${REDIS_PORT:-6390}
redis_mode=${REDIS_MODE:-single}
proxy_protocol=${PROXY_PROTOCOL:-1}
sentinel_name=smokestack

say() { printf '%s\n' "$*" >&2; }
die() { say "local-cluster: $*"; exit 1; }

[[ $nodes =~ ^[1-9][0-9]*$ ]] || die "NODES=$nodes: want a number, 1 or more"
node_ports=()
for ((i = 1; i <= nodes; i++)); do
	v="NODE${i}_PORT"
	node_ports+=("${!v:-$((${NODE1_PORT:-2301} + i - 1))}")
done

# Redis's processes in each mode, by name (NAME.pid, NAME.log) and port.
redis_names=()
redis_ports=()
case $redis_mode in
single)
	redis_names=(redis)
	redis_ports=("$redis_port")
	;;
sentinel)
	redis_names=(redis replica sentinel1 sentinel2 sentinel3)
	redis_ports=("$redis_port" $((redis_port + 1)) $((redis_port + 10000)) $((redis_port + 10001)) $((redis_port + 10002)))
	;;
cluster)
	for i in 0 1 2 3 4 5; do
		redis_names+=("redis$((i + 1))")
		redis_ports+=($((redis_port + i)))
	done
	;;
*) die "REDIS_MODE=$redis_mode: want single, sentinel or cluster" ;;
esac

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
	local name=$1
	shift
	alive "$name" && die "$name is already running (pid $(cat "$dir/$name.pid")); run stop first"
	printf '%q ' "$@" >"$dir/$name.cmd" # for revive
	nohup "$@" >>"$dir/$name.log" 2>&1 &
	echo $! >"$dir/$name.pid"
}

# revive NAME: start NAME again as start first started it, after a
# failover drill killed it (a Redis primary comes back as a replica).
revive() {
	local name=${1:-}
	[[ -n $name && -f "$dir/$name.cmd" ]] || die "revive what? one of: $(every | tr '\n' ' ')"
	alive "$name" && die "$name is running (pid $(cat "$dir/$name.pid"))"
	local cmd
	cmd=$(cat "$dir/$name.cmd")
	eval "launch $(printf '%q' "$name") $cmd"
	say "revived $name (pid $(cat "$dir/$name.pid"))"
}

start() {
	command -v go >/dev/null || die "go not found"
	command -v redis-server >/dev/null || die "redis-server not found: apt install redis-server"
	[[ $redis_mode != cluster ]] || command -v redis-cli >/dev/null || die "redis-cli not found: apt install redis-tools"
	[[ $proxy_protocol == 0 || $proxy_protocol == 1 ]] || die "PROXY_PROTOCOL=$proxy_protocol: want 1 (the default) or 0"
	for p in "$proxy_port" "${node_ports[@]}" "${redis_ports[@]}"; do
		port_open "$p" && die "port $p is in use; pick others with PROXY_PORT, NODE1_PORT, REDIS_PORT"
	done
	mkdir -p "$dir/bin"
	{
		echo "NODES=$nodes REDIS_MODE=$redis_mode REDIS_PORT=$redis_port PROXY_PORT=$proxy_port"
		for ((i = 0; i < nodes; i++)); do echo "NODE$((i + 1))_PORT=${node_ports[$i]}"; done
	} >"$dir/cluster.env"
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

	start_redis || { stop; exit 1; }

	local extra=() backends=() store
	if [[ $proxy_protocol == 1 ]]; then
		extra+=(--proxy-protocol --proxy-trusted 127.0.0.1)
	else
		# Every player comes from the balancer's address: per-address
		# limits would make them share one allowance.
		extra+=(--max-conns-per-addr 0 --conn-rate 0)
	fi
	# shellcheck disable=SC2206 # word splitting of extra flags is intended
	extra+=(${SMOKESTACK_FLAGS:-})
	read -r -a store <<<"$(store_flags)"
	for ((i = 0; i < nodes; i++)); do
		local n=$((i + 1)) port=${node_ports[$i]}
		mkdir -p "$dir/node$n"
		launch "node$n" "$dir/bin/smokestack" serve --listen "127.0.0.1:$port" --data-dir "$dir/node$n" \
			--host-key "$dir/ssh_host_ed25519_key" "${store[@]}" \
			--public-addr "${PUBLIC_ADDR:-localhost:$proxy_port}" "${extra[@]}"
		backends+=("127.0.0.1:$port")
	done
	for ((i = 0; i < nodes; i++)); do wait_port "${node_ports[$i]}" "node$((i + 1))" || { stop; exit 1; }; done

	if [[ $balancer == haproxy ]]; then
		haproxy_cfg "${backends[@]}" >"$dir/haproxy.cfg"
		haproxy -c -q -f "$dir/haproxy.cfg" || { stop; die "haproxy refused $dir/haproxy.cfg"; }
		# -db: stay in the foreground, so the pid is HAProxy's own.
		launch proxy haproxy -db -f "$dir/haproxy.cfg"
	else
		local send=()
		[[ $proxy_protocol == 1 ]] && send=(--send-proxy v2)
		launch proxy "$dir/bin/smokeproxy" --listen "127.0.0.1:$proxy_port" \
			--backends "$(joined "${backends[@]}")" "${send[@]}"
	fi
	wait_port "$proxy_port" proxy || { stop; exit 1; }

	say "cluster up:"
	say "  players:   ssh -p $proxy_port 127.0.0.1        (balanced by $balancer over $nodes instances)"
	if [[ $proxy_protocol == 1 ]]; then
		say "  instances: $(targets), PROXY protocol only (reach them through the balancer;"
		say "             start with PROXY_PROTOCOL=0 to reach them directly, per-address limits off)"
	else
		say "  instances: $(targets)   (no PROXY protocol: per-address limits off)"
	fi
	say "  redis ($redis_mode): $(store_flags)"
	say "  logs and pids: $dir"
	say "  kill one instance to watch failover: kill \$(cat $dir/node1.pid)"
	case $redis_mode in
	sentinel) say "  kill the primary to watch Sentinel promote the replica: kill -9 \$(cat $dir/redis.pid); then $0 revive redis" ;;
	cluster) say "  kill a primary to watch its replica take over: kill -9 \$(cat $dir/redis1.pid); then $0 revive redis1" ;;
	esac
}

# redis_node NAME PORT ARGS...: start redis-server NAME on PORT with its
# data in $dir/NAME, every acknowledged write fsynced first.
redis_node() {
	local name=$1 port=$2
	shift 2
	mkdir -p "$dir/$name"
	launch "$name" redis-server --port "$port" --bind 127.0.0.1 --dir "$dir/$name" \
		--appendonly yes --appendfsync always --save '' "$@"
	wait_port "$port" "$name"
}

# start_redis starts REDIS_MODE's processes and waits until they serve.
start_redis() {
	case $redis_mode in
	single) redis_node redis "$redis_port" ;;
	sentinel) start_sentinel ;;
	cluster) start_redis_cluster ;;
	esac
}

start_sentinel() {
	redis_node redis "$redis_port" || return 1
	redis_node replica "${redis_ports[1]}" --replicaof 127.0.0.1 "$redis_port" || return 1
	local i port
	for i in 1 2 3; do
		port=${redis_ports[$((i + 1))]}
		mkdir -p "$dir/sentinel$i"
		# Sentinel rewrites its file as it learns: each has its own.
		cat >"$dir/sentinel$i/sentinel.conf" <<EOF
port $port
bind 127.0.0.1
dir $dir/sentinel$i
sentinel monitor $sentinel_name 127.0.0.1 $redis_port 2
sentinel down-after-milliseconds $sentinel_name 2000
sentinel failover-timeout $sentinel_name 10000
sentinel parallel-syncs $sentinel_name 1
EOF
		launch "sentinel$i" redis-server "$dir/sentinel$i/sentinel.conf" --sentinel
		wait_port "$port" "sentinel$i" || return 1
	done
}

start_redis_cluster() {
	local i ok addrs=()
	for i in 0 1 2 3 4 5; do
		redis_node "${redis_names[$i]}" "${redis_ports[$i]}" --cluster-enabled yes \
			--cluster-config-file nodes.conf --cluster-node-timeout 2000 || return 1
		addrs+=("127.0.0.1:${redis_ports[$i]}")
	done
	# The first three become primaries, the others one replica each.
	redis-cli --cluster create "${addrs[@]}" --cluster-replicas 1 --cluster-yes >"$dir/cluster-create.log" 2>&1 ||
		{ say "redis-cli --cluster create failed:"; tail -n 20 "$dir/cluster-create.log" >&2; return 1; }
	for _ in $(seq 1 100); do
		ok=0
		for i in 0 1 2 3 4 5; do
			redis-cli -p "${redis_ports[$i]}" cluster info 2>/dev/null | grep -q '^cluster_state:ok' && ok=$((ok + 1))
		done
		[[ $ok == 6 ]] && return 0
		sleep 0.1
	done
	say "the Redis Cluster is not cluster_state:ok after 10s; see $dir/cluster-create.log"
	return 1
}

# store_flags: the instances' flags naming REDIS_MODE's Redis.
store_flags() {
	local p=("${redis_ports[@]}")
	case $redis_mode in
	single) echo "--redis redis://127.0.0.1:$redis_port/0" ;;
	sentinel) echo "--redis redis://127.0.0.1:${p[2]}?master_name=$sentinel_name&addr=127.0.0.1:${p[3]}&addr=127.0.0.1:${p[4]}" ;;
	cluster) echo "--redis-cluster redis://127.0.0.1:${p[0]}?addr=127.0.0.1:${p[1]}&addr=127.0.0.1:${p[2]}" ;;
	esac
}

joined() {
	local IFS=,
	echo "$*"
}

# targets: the instances, host:port, comma-separated.
targets() {
	local out=() p
	for p in "${node_ports[@]}"; do out+=("127.0.0.1:$p"); done
	joined "${out[@]}"
}

# pids: the instances' process IDs, comma-separated, in targets' order.
pids() {
	local out=() i
	for ((i = 1; i <= nodes; i++)); do
		alive "node$i" || die "node$i is not running"
		out+=("$(cat "$dir/node$i.pid")")
	done
	joined "${out[@]}"
}

# redis_nodes: the Redis servers' URLs (the sentinels' not), for smokeload
# --redis-info, which counts the primaries among them.
redis_nodes() {
	local out=() i
	for i in "${!redis_names[@]}"; do
		[[ ${redis_names[$i]} == sentinel* ]] || out+=("redis://127.0.0.1:${redis_ports[$i]}/0")
	done
	joined "${out[@]}"
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

# every: the names of everything start starts, the balancer first, then
# the instances, then Redis.
every() {
	local i
	echo proxy
	for ((i = 1; i <= nodes; i++)); do echo "node$i"; done
	printf '%s\n' "${redis_names[@]}"
}

stop() {
	local name pid
	for name in $(every); do
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
	for name in $(every); do
		if alive "$name"; then say "$name: running (pid $(cat "$dir/$name.pid"))"; else say "$name: stopped"; fi
	done
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) status ;;
targets) targets ;;
pids) pids ;;
redis-nodes) redis_nodes ;;
revive) revive "${2:-}" ;;
*)
	say "usage: $0 start|stop|status|revive NAME|targets|pids|redis-nodes"
	exit 2
	;;
esac
