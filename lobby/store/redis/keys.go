package redis

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
//	smokestack:{CODE}:presence  hash: claim:ORIGIN "EXPIRY_MS:SEAT,SEAT…", one
//	                            field per instance holding seats; seen:SEAT when
//	                            the seat was last known held, in Unix ms
//	smokestack:{CODE}:changes   sharded channel: "ORIGIN CODE" for every
//	                            committed change and every change in the
//	                            seats an instance holds, "ORIGIN chat:CODE"
//	                            for a line said; published by the scripts
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
// Players (profiles.go, ratings.go): one slot for each of two concerns.
//
//	smokestack:{profiles}:byid     hash: profile ID -> store.Profile JSON
//	smokestack:{profiles}:bykey    hash: key fingerprint -> profile ID
//	smokestack:{profiles}:byname   hash: store.NameKey -> profile ID
//	smokestack:{profiles}:link:CODE  a link code's profile and expiry (link
//	                               JSON), expired by Redis
//	smokestack:{records}:outcomes  hash: room code -> store.Outcome JSON
//	smokestack:{records}:ratings   hash: store.RatingKey -> store.Rating JSON
//	smokestack:{records}:solos     hash: store.SoloKey -> store.SoloRecord JSON
//
// These stay in one slot each on purpose. A name is unique among all
// profiles and a key plays as one profile, so creating, renaming and
// linking must check and change several players' entries as one step; a
// finished game changes every seat's rating and the room's outcome as one
// step, once per room code. Split per player, each would need an index
// with its own reservations and a repair for half-done changes. Their
// writes come once per new player, rename or finished game, not per
// move, and each read is one HGET or HMGET, so one slot's node (some
// 100,000 such commands a second) is far from their ceiling; the moves,
// presence and chat that grow with play are spread over every room's slot.
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

	redisProfiles     = redisPrefix + "{profiles}:byid"
	redisProfileKeys  = redisPrefix + "{profiles}:bykey"
	redisProfileNames = redisPrefix + "{profiles}:byname"

	redisOutcomes = redisPrefix + "{records}:outcomes"
	redisRatings  = redisPrefix + "{records}:ratings"
	redisSolos    = redisPrefix + "{records}:solos"

	redisBans = redisPrefix + "bans"

	redisAliveLast = redisPrefix + "{uptime}:last"
	redisAliveDown = redisPrefix + "{uptime}:down"

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

func redisMissKey(name string) string { return redisPrefix + "misses:" + name }
func redisTurnKey(name string) string { return redisPrefix + "missturn:" + name }

func leaseKey(name string) string { return redisPrefix + "lease:" + name }
