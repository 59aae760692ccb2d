package redis

import (
	"hash/crc32"
	"strconv"
)

// The key schema: every key and channel the store uses, in one place.
//
// It runs unchanged on one Redis and on a Redis Cluster: every Lua script
// and every optimistic transaction (WATCH … MULTI/EXEC) touches keys of
// one hash slot only, named by the hash tag in braces, and publishes
// only on a sharded channel of that slot. What spans several slots is
// never one step: it is a write whose truth lives in one slot followed
// by an index or an announcement that may lag and is made idempotent.
// Redis 7 is needed (SPUBLISH, SSUBSCRIBE), on a single node too.
//
// Rooms (rooms.go, presence.go): the truth, one slot per room.
//
//	smokestack:{CODE}:meta      hash: json (store.Meta), version, updated, over,
//	                            result, status (round and acting seats)
//	smokestack:{CODE}:moves     list of store.Record JSON, index = move number
//	smokestack:{CODE}:presence  hash: claim:ORIGIN "AT_MS:SEAT,SEAT…", one
//	                            field per instance holding seats, written when
//	                            they change and counted while ORIGIN's
//	                            heartbeat is (smokestack:{uptime}:instances);
//	                            seen:SEAT when an instance last let the seat
//	                            go, in Unix ms
//	smokestack:{CODE}:changes   sharded channel: "ORIGIN CODE" for every
//	                            committed change, "ORIGIN seats:CODE" for
//	                            every change in the seats an instance holds,
//	                            "ORIGIN chat:CODE" for a line said; published
//	                            by the scripts
//	                            themselves, heard by the instances holding
//	                            the room (Follow)
//
// The room index: an index beside the truth.
//
//	smokestack:rooms            set of room codes, for List
//	smokestack:{index}:changes  sharded channel, heard by every instance:
//	                            "ORIGIN CODE" when a room is created, saved
//	                            (seats, start, visibility), finished or
//	                            deleted, "ORIGIN chat:" for the lobby's chat
//
// The set is written outside the room's script, before a create and after
// a delete (SADD and SREM repeat harmlessly), so a crash in between leaves
// a code List skips, never a room List cannot find. The index channel is
// published after the room's script, so its news may lag or be lost with
// a crashed instance; the lists are read again within seconds anyway.
// The moves of rooms an instance does not hold are not announced to it:
// its lobby screens learn a room's round at their next read.
//
// The room lists (lists.go, store.Lists): sorted sets of room codes,
// one key each so that they spread over a cluster's slots, scored in
// Unix ms. Each is a superset of the rooms that belong in it: writes
// list a room before and after its script and unlist it only after;
// readers check each entry against the room's metadata and take out
// what does not belong.
//
//	smokestack:list:open        public rooms not started with a free seat, by Updated
//	smokestack:list:play        public games in play, by StartedAt
//	smokestack:list:due         unfinished rooms, by Updated at their last
//	                            metadata write (moves write no list)
//	smokestack:list:player:ID   a player's unfinished rooms, by Created
//	smokestack:list:played:ID   a player's finished rooms, by when they ended
//	smokestack:list:host:ID     a host's unfinished rooms, by Created
//	smokestack:list:addr:ADDR   unfinished rooms made from ADDR, by Created
//	smokestack:list:madeby:ID   rooms a host created in the last two hours,
//	smokestack:list:madefrom:ADDR  and from an address: logs the quotas
//	                            count, trimmed and expiring as they grow
//	smokestack:lists:built      "1" once the lists hold every room
//	smokestack:lists:building   the instance building them from
//	                            smokestack:rooms, which stores made before
//	                            the lists have, while it does (10 min TTL)
//
// Chat (chat.go):
//
//	smokestack:{CODE}:chat      list of store.ChatLine JSON, oldest first
//	smokestack:lobbychat        the lobby's chat, likewise
//
// Players (profiles.go, names.go, links.go, profilelist.go, ratings.go,
// record.go, recordlocks.go, leaderboard.go, migrate.go): one slot per
// player, so new players and finished games spread over the cluster.
//
//	smokestack:player:{ID}      hash: profile (store.Profile JSON), name (its
//	                            store.NameKey), rating:GAME (store.Rating
//	                            JSON), solo:GAME\x00OPPONENT (store.SoloRecord
//	                            JSON), lock:GAME ("CODE TOKEN": a game being
//	                            recorded holds the player's rating in GAME)
//	smokestack:key:{KEY}        string: the profile ID key fingerprint KEY
//	                            plays as; a profile's ID is its first key, so
//	                            a new player's profile and key share a slot
//	smokestack:name:NAMEKEY     string: "ID MS", the profile holding the name
//	                            (store.NameKey) since Unix ms MS; it counts
//	                            while that profile's name field is NAMEKEY
//	smokestack:outcome:{CODE}   hash: a recorded room's state (pending,
//	                            committed; kept if migrated), token (the
//	                            attempt's), at (Unix ms), outcome
//	                            (store.Outcome JSON)
//	smokestack:{board:GAME:S}   sorted set: player IDs scored by minus their
//	                            rating's ordinal in GAME (best first, ties by
//	                            ID), shard S = crc32(ID) mod boardShards
//	smokestack:{profiles:S}     sorted set: profile IDs by Unix ms made,
//	                            shard S = crc32(ID) mod profileShards, for
//	                            Profiles and their count
//	smokestack:{profiles}:link:CODE  a link code's profile and expiry (link
//	                            JSON), expired by Redis
//	smokestack:players:layout   "2" once the store holds players this way
//	smokestack:players:migrating  held by the instance migrating (migrate.go)
//
// What spans players is never one step. A name is taken (SET if free)
// before the profile that holds it is written, and let go after it is
// renamed or dropped; a name whose holder's profile no longer holds it is
// free, at once for its holder and after a minute for others (a creation
// in flight). A finished game touches every seat's player and the room's
// outcome: record.go records it as a two-phase commit (each player's
// rating locked for the room, the outcome committed in the room's slot,
// each player's rating written and unlocked), so a crash at any point is
// finished or undone by the next try, and it counts once. A leaderboard
// is a copy of the ratings, written after them.
//
// Older versions kept players in one slot for each of two concerns
// (smokestack:{profiles}:byid, :bykey, :byname and smokestack:{records}:
// outcomes, :ratings, :solos): the first instance to open such a store
// copies them into the keys above (migrate.go) and leaves them be.
//
// Abuse control (bans.go, misses.go): one key per thing counted.
//
//	smokestack:bans             hash: target -> store.Ban JSON, read whole
//	                            by every instance now and then
//	smokestack:misses:NAME      failed room lookups by a key or an address,
//	                            and new profiles by an address (NAME
//	                            profiles:ADDR), expiring with their window
//	smokestack:missturn:NAME    when the last of NAME's slowed misses is
//	                            answered, expiring then
//
// Uptime (uptime.go):
//
//	smokestack:{uptime}:last    when an instance last said it was alive, Unix ms
//	smokestack:{uptime}:down    list of "FROM_MS:TO_MS", the service's
//	                            downtimes, oldest first
//	smokestack:{uptime}:instances  hash: ORIGIN -> the instance's last
//	                            heartbeat, Unix ms (presence.go); kept a
//	                            week after it stops, as its claims' end
//
// Leases (lease.go):
//
//	smokestack:lease:NAME       the origin of the instance holding lease
//	                            NAME ("expiry"), expiring ttl after its
//	                            last renewal
//
// Operators (operators.go):
//
//	smokestack:{operators}:requests  sharded channel: operators' requests
//	                            (operatorCall JSON), so SPUBLISH counts
//	                            every instance listening
//	smokestack:operators:reply:ID  list: the instances' answers to one
//	                            request, expiring in 30 s
//
// Older versions announced on one plain channel, smokestack:changes (and
// smokestack:operators), which every instance heard. The keys are the
// same, so a store written by them is read as it is, with no migration;
// but instances of both kinds do not hear each other, so upgrade them all
// at once.
const (
	redisPrefix    = "smokestack:"
	redisRoomIndex = redisPrefix + "rooms"
	indexChannel   = redisPrefix + "{index}:changes"

	redisLobbyChat = redisPrefix + "lobbychat"

	playersLayout    = redisPrefix + "players:layout"
	playersMigrating = redisPrefix + "players:migrating"

	redisBans = redisPrefix + "bans"

	redisAliveLast = redisPrefix + "{uptime}:last"
	redisAliveDown = redisPrefix + "{uptime}:down"
	redisInstances = redisPrefix + "{uptime}:instances"

	redisOperators = redisPrefix + "{operators}:requests"
	redisReplies   = redisPrefix + "operators:reply:"
)

func metaKey(code string) string     { return redisPrefix + "{" + code + "}:meta" }
func movesKey(code string) string    { return redisPrefix + "{" + code + "}:moves" }
func presenceKey(code string) string { return redisPrefix + "{" + code + "}:presence" }
func roomChannel(code string) string { return redisPrefix + "{" + code + "}:changes" }

// chatKey is room code's chat, or the lobby's for "".
func chatKey(code string) string {
	if code == "" {
		return redisLobbyChat
	}
	return redisPrefix + "{" + code + "}:chat"
}

func redisLinkKey(code string) string { return redisPrefix + "{profiles}:link:" + code }

// boardShards and profileShards are how many sorted sets a game's
// leaderboard and the profiles' index are cut into, each in a slot of
// its own: every rated game writes its players' lines, and every new
// player their profile's, so one set would put them all on one primary.
const (
	boardShards   = 8
	profileShards = 8
)

func playerKey(id string) string    { return redisPrefix + "player:{" + id + "}" }
func keyKey(fp string) string       { return redisPrefix + "key:{" + fp + "}" }
func nameKey(name string) string    { return redisPrefix + "name:" + name }
func outcomeKey(code string) string { return redisPrefix + "outcome:{" + code + "}" }
func boardKey(game string, s int) string {
	return redisPrefix + "{board:" + game + ":" + strconv.Itoa(s) + "}"
}
func profilesKey(s int) string { return redisPrefix + "{profiles:" + strconv.Itoa(s) + "}" }

// shardOf is the shard of player id among n.
func shardOf(id string, n int) int { return int(crc32.ChecksumIEEE([]byte(id)) % uint32(n)) }

func redisMissKey(name string) string { return redisPrefix + "misses:" + name }
func redisTurnKey(name string) string { return redisPrefix + "missturn:" + name }

func leaseKey(name string) string { return redisPrefix + "lease:" + name }
