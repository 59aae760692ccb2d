package session

import (
	"errors"
	"strings"

	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/lobby"
	"github.com/smokestack/smokestack/session/kit"
)

// The generic screens' words that come from elsewhere: the games'
// registration (titles, options and their values, in catalogue area
// "games"), and what the lobby says (refusals, notices, why a game
// ended). The screens' own sentences are literal IDs at their call sites;
// a game registered without its words (the tests' tally) reads as it
// declares itself (lang.Printer.Or).

// gameTitle is game g's title in p's language (games.NAME.title).
func gameTitle(p *lang.Printer, g lobby.Game) string {
	return p.Or("games."+g.Name()+".title", g.Rules.Title())
}

// optionLabel is the label of game's option name (games.GAME.option.NAME).
func optionLabel(p *lang.Printer, game, name string) string {
	return p.Or("games."+game+".option."+name, name)
}

// optionAbout is the one line of help on game's option name
// (games.GAME.about.NAME).
func optionAbout(p *lang.Printer, game, name, english string) string {
	return p.Or("games."+game+".about."+name, english)
}

// optionValue is value of game's option name as a player reads it
// (games.GAME.choice.NAME.VALUE); a number reads as it is.
func optionValue(p *lang.Printer, game, name, value string) string {
	return p.Or("games."+game+".choice."+name+"."+value, value)
}

// errText words err for the player: a lobby's or an engine's refusal
// (engine.Refusal, or a lobby.LimitError with words) in the theme's
// language, any other error as it is. game names the cards a game's
// refusal may name ("" outside a room).
func errText(t kit.Theme, game string, err error) string {
	var lim *lobby.LimitError
	if errors.As(err, &lim) && lim.Words.ID != "" {
		return kit.Say(t, game, lim.Words)
	}
	return kit.Refusal(t, game, err)
}

// endedText words why a game ended before its end: the host's word, or
// an operator's, which is theirs and stays as they wrote it.
func endedText(p *lang.Printer, why string) string {
	if why == lobby.EndedByHost {
		return p.T("session.room.endedByHost")
	}
	return why
}

// noticeText words the room's notice (lobby.Update.Notice): trouble with
// the game service, or a bot that could not move and why.
func noticeText(p *lang.Printer, notice string) string {
	switch {
	case notice == lobby.NoticeReconnecting:
		return p.T("session.room.reconnecting")
	case strings.HasPrefix(notice, lobby.NoticeBotFailed):
		return p.T("session.room.botFailed", "Why", strings.TrimPrefix(notice, lobby.NoticeBotFailed))
	}
	return notice
}

// The words the line mode (session/line) shares with the screens: a
// refusal, a room's notice and why a game ended early, worded alike.

// ErrText words err for the player, in the words of game's rules.
func ErrText(t kit.Theme, game string, err error) string { return errText(t, game, err) }

// NoticeText words a room's notice (lobby.Update.Notice).
func NoticeText(p *lang.Printer, notice string) string { return noticeText(p, notice) }

// EndedText words why a game ended before its end.
func EndedText(p *lang.Printer, why string) string { return endedText(p, why) }

// OpponentName is the name a solo record keeps for game's own opponent
// ("The Machine (hard)", as lobby.Game.SoloOpponent names it), in p's
// language (games.GAME.opponent.NAME), or as kept.
func OpponentName(p *lang.Printer, game, opponent string) string {
	return p.Or("games."+game+".opponent."+opponent, opponent)
}

// OpponentOf names the game's own opponent of the solo game r in p's
// language, as l's game names it ("The Machine (hard)"), or in words
// that name no one where it cannot (l nil, or the game gone).
func OpponentOf(p *lang.Printer, l *lobby.Lobby, r lobby.RoomInfo) string {
	if l != nil {
		if name := l.SoloOpponent(r); name != "" {
			return OpponentName(p, r.Game, name)
		}
	}
	return p.T("session.opponent")
}

// GameTitle is game's title in p's language.
func GameTitle(p *lang.Printer, g lobby.Game) string { return gameTitle(p, g) }
