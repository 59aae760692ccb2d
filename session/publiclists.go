package session

import (
	"slices"
	"sync"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
)

// The lobby's public lists (open seats, games in play) are the same for
// every lobby screen that got the same read of the public rooms
// (lobby.PublicRooms shares its reads), so they are split and worded once
// for all of them: a screen keeps its own rows only for its own games,
// and for a public list where a room waits on its player's move.

// publicLists are the public lists of one read, worded for a player
// seated nowhere in one language. Shared: nothing changes them once made.
type publicLists struct {
	lobby  *lobby.Lobby
	lang   *lang.Printer
	read   []lobby.RoomInfo // the read they come from
	lists  [listMine][]lobby.RoomInfo
	cells  [listMine][]roomCells
	widest listWidths
}

// lastPublic is the newest public lists worded in each language: the
// lobby screens that read the same rooms share them.
var lastPublic struct {
	mu sync.Mutex
	p  map[*lang.Printer]*publicLists
}

// sharedPublic returns the public lists of rooms, a read of lb's public
// rooms in language lp, wording them if no screen has yet. One screen
// words them while the others that read the same rooms wait for it.
func sharedPublic(lb *lobby.Lobby, lp *lang.Printer, rooms []lobby.RoomInfo) *publicLists {
	lastPublic.mu.Lock()
	defer lastPublic.mu.Unlock()
	if p := lastPublic.p[lp]; p != nil && p.lobby == lb && sameRead(p.read, rooms) {
		return p
	}
	p := &publicLists{lobby: lb, lang: lp, read: rooms}
	p.lists[listOpen], p.lists[listPlay] = splitPublic(rooms)
	for i, list := range p.lists {
		p.cells[i] = make([]roomCells, 0, len(list))
		for _, r := range list {
			c := wordRoom(lb, lp, "", r, i)
			p.cells[i] = append(p.cells[i], c)
			p.widest.widen(c)
		}
	}
	if lastPublic.p == nil {
		lastPublic.p = map[*lang.Printer]*publicLists{}
	}
	lastPublic.p[lp] = p // a printer per language: the map stays small
	return p
}

// sameRead reports whether a and b are the same read's rooms: the same
// slice, which the cached lists keep from being reused.
func sameRead(a, b []lobby.RoomInfo) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// splitPublic sorts the public rooms into those with a seat to take and
// the games in play.
func splitPublic(rooms []lobby.RoomInfo) (open, play []lobby.RoomInfo) {
	for _, r := range rooms {
		if r.Started {
			play = append(play, r)
		} else if r.Open() {
			open = append(open, r)
		}
	}
	return open, play
}

// listed is the lists as a screen draws them: each room worded into its
// cells, and the widest cell of each column, once when the lists are
// read. A frame then draws only the rows it shows: a room's kind decodes
// its options, and a busy server lists hundreds of rooms.
type listed struct {
	cells  [listCount][]roomCells
	widest listWidths
}

// wordLists makes the lists of player me: the shared public lists, with
// the rooms waiting on me worded again in a copy of their list, and me's
// own games, in p's language.
func wordLists(lb *lobby.Lobby, p *lang.Printer, me string, pub *publicLists, mine []lobby.RoomInfo) ([listCount][]lobby.RoomInfo, listed) {
	var lists [listCount][]lobby.RoomInfo
	out := listed{widest: pub.widest}
	for i := range listMine {
		lists[i], out.cells[i] = pub.lists[i], pub.cells[i]
		own := false // out.cells[i] is this screen's copy
		for j, r := range lists[i] {
			if !r.YourMove(me) {
				continue
			}
			if !own {
				out.cells[i], own = slices.Clone(out.cells[i]), true
			}
			out.cells[i][j] = wordRoom(lb, p, me, r, i)
			out.widest.widen(out.cells[i][j])
		}
	}
	lists[listMine] = mine
	out.cells[listMine] = make([]roomCells, 0, len(mine))
	for _, r := range mine {
		c := wordRoom(lb, p, me, r, listMine)
		out.cells[listMine] = append(out.cells[listMine], c)
		out.widest.widen(c)
	}
	return lists, out
}
