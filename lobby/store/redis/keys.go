package redis

// The key schema: every key and channel the store uses, in one place.
// Braces are a cluster hash tag: one room's keys share a slot, and so do
// the profiles' and the records', so each script or optimistic transaction
// stays legal on Redis Cluster.
//
// Rooms (redis.go, presence.go):
//
//	smokestack:rooms            set of room codes, for List
//	smokestack:{CODE}:meta      hash: json (store.Meta), version, updated, over,
//	                            result, status (round and acting seats)
//	smokestack:{CODE}:moves     list of store.Record JSON, index = move number
//	smokestack:{CODE}:presence  hash: claim:ORIGIN "EXPIRY_MS:SEAT,SEAT…", one
//	                            field per instance holding seats; seen:SEAT when
//	                            the seat was last known held, in Unix ms
//
// Chat (chat.go):
//
//	smokestack:{CODE}:chat      list of store.ChatLine JSON, oldest first
//	smokestack:lobbychat        the lobby's chat, likewise
//
// Players (profiles.go, ratings.go):
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
// Abuse control (bans.go, misses.go):
//
//	smokestack:bans             hash: target -> store.Ban JSON
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
// Channels and operators (redis.go, operators.go):
//
//	smokestack:changes          channel: "ORIGIN CODE" for every committed
//	                            change and every change in the seats an
//	                            instance holds; "ORIGIN chat:CODE" for a
//	                            line said in a room, "ORIGIN chat:" in the
//	                            lobby
//	smokestack:operators        channel: operators' requests (operatorCall JSON)
//	smokestack:operators:reply:ID  list: the instances' answers to one
//	                            request, expiring in 30 s
const (
	redisPrefix    = "smokestack:"
	redisRoomIndex = redisPrefix + "rooms"
	redisChannel   = redisPrefix + "changes"

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

	redisOperators = redisPrefix + "operators"
	redisReplies   = redisPrefix + "operators:reply:"
)

func metaKey(code string) string     { return redisPrefix + "{" + code + "}:meta" }
func movesKey(code string) string    { return redisPrefix + "{" + code + "}:moves" }
func presenceKey(code string) string { return redisPrefix + "{" + code + "}:presence" }

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
