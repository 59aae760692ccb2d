// Package room is one game being played on this server: its table, its
// log, its clock, who sits and watches, the votes to hand seats to bots,
// and the sessions (Conn) it pushes each seat's view to. A room stores
// every accepted move before anyone sees its result.
//
// A room is made with what it needs as one value (Env): the store, the
// clocks, the log and fault reporting, and the few things it tells the
// world around it. It knows nothing of the lobby that holds it, which
// finds rooms, lists them and knows players; the layering table
// (internal/layers) keeps it that way. Its two locks are held only as
// the types of roomlocks.go, which TestRoomLocksLiveInTypes holds the
// package to.
package room
