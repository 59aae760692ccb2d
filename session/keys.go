package session

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/smokestack/smokestack/session/kit"
)

// This file is the one place that says which key does what. Screens match
// against these bindings; the help bar and the ? overlay are drawn from
// them, so a key can never work without being listed or be listed without
// working.

// gameKeys are the game screen's keys. Moves are played only through the
// move menu: group picks the card or action, move picks among its legal
// moves, play sends it.
type gameKeys struct {
	NextGroup, PrevGroup key.Binding
	Up, Down             key.Binding
	First, Last          key.Binding
	PageUp, PageDown     key.Binding
	Play                 key.Binding
	Undo                 key.Binding
	Hint                 key.Binding
	Filter               key.Binding
	Card, Yours          key.Binding
	Log                  key.Binding
	AddBot, End          key.Binding
	Chat, Rematch        key.Binding
	Rules                key.Binding
	Bell                 key.Binding
	Help                 key.Binding
	Leave                key.Binding
}

var gameKeyMap = gameKeys{
	NextGroup: key.NewBinding(key.WithKeys("right", "tab", "l"), key.WithHelp("→/l/tab", "session.key.nextCard")),
	PrevGroup: key.NewBinding(key.WithKeys("left", "shift+tab"), key.WithHelp("←/S-tab", "session.key.prevCard")),
	Up:        key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "session.key.prevMove")),
	Down:      key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "session.key.nextMove")),
	First:     key.NewBinding(key.WithKeys("home"), key.WithHelp("home/end", "session.key.firstLast")),
	Last:      key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "session.key.firstLast")),
	PageUp:    key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/pgdn", "session.key.pageMoves")),
	PageDown:  key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "session.key.pageMoves")),
	Play:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "session.key.playMove")),
	Undo:      key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "session.key.takeBack")),
	// h was ← as in vi (l stays →): a hint is worth its own key.
	Hint:   key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "session.key.hint")),
	Filter: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "session.key.searchMoves")),
	Card:   key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "session.key.cardInfo")),
	Yours:  key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "session.key.yourCards")),
	Log:    key.NewBinding(key.WithKeys("L", "g"), key.WithHelp("g", "session.key.gameLog")),
	AddBot: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "session.key.addBot")),
	End:    key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "session.key.endGame")),
	Chat:   key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "session.key.chat")),
	// r is the rematch once the game is over, the rules while it runs;
	// R is the rules everywhere, as in the lobby.
	Rematch: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "session.key.rematch")),
	Rules:   key.NewBinding(key.WithKeys("R", "r"), key.WithHelp("R", "session.key.rulesGame")),
	Bell:    key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "session.key.bell")),
	Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "session.key.allKeys")),
	Leave:   key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "session.key.leaveRoom")),
}

// escKey and ctrlCKey mean the same on every screen (input.go): esc
// closes what is on top and never leaves a table or the lobby; Ctrl-C
// leaves the program. Every ? page lists them; route and Model.Update do
// the work.
var (
	escKey   = key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "session.key.escClose"))
	ctrlCKey = key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "session.key.ctrlC"))
)

// Pairs of keys the help bar shows as one, to keep it short. Screens
// match the bindings above, which do the work; these only name them.
var (
	moveKeysHelp  = key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "session.key.move"))
	groupKeysHelp = key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "session.key.card"))
)

// ShortHelp implements help.KeyMap: most needed first, as the bar gives
// way from the end (keeping ? and q).
func (k gameKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Play, moveKeysHelp, groupKeysHelp, k.Card, k.Log, k.Chat, k.Help, k.Leave}
}

// FullHelp implements help.KeyMap.
func (k gameKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.NextGroup, k.PrevGroup, k.Up, k.Down, k.First, k.PageUp, k.Play, k.Undo, k.Hint, k.Filter},
		{k.Card, k.Yours, k.Log, k.Chat, k.Rules, k.Help, k.Leave, escKey, ctrlCKey},
		{k.AddBot, k.End, k.Bell},
	}
}

// undoKeys are the game screen's keys while the seat may take a move
// back: u joins the help bar, right after enter.
type undoKeys struct{ gameKeys }

// ShortHelp implements help.KeyMap.
func (k undoKeys) ShortHelp() []key.Binding {
	return append([]key.Binding{k.Play, k.Undo}, k.gameKeys.ShortHelp()[1:]...)
}

// hintless is a seat's keys in a game without hints (Furnace): the keys
// page does not list h, which could only refuse there.
type hintless struct{ help.KeyMap }

// FullHelp implements help.KeyMap.
func (k hintless) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, col := range k.KeyMap.FullHelp() {
		out = append(out, slices.DeleteFunc(slices.Clone(col), func(b key.Binding) bool {
			return b.Help() == gameKeyMap.Hint.Help()
		}))
	}
	return out
}

// watchKeys are the keys a spectator (or a finished game) has: no moves.
type watchKeys struct{ gameKeys }

// ShortHelp implements help.KeyMap.
func (k watchKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Card, k.Log, k.Chat, k.Help, k.Leave}
}

// FullHelp implements help.KeyMap.
func (k watchKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Card, k.Log, k.Chat, k.Rules, k.Help, k.Leave, escKey, ctrlCKey}, {k.AddBot, k.End, k.Bell}}
}

// waitingKeys are the waiting room's keys: no cards or moves before the
// game starts.
type waitingKeys struct{ gameKeys }

// ShortHelp implements help.KeyMap.
func (k waitingKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Chat, k.Rules, k.Log, k.Help, k.Leave}
}

// FullHelp implements help.KeyMap.
func (k waitingKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Chat, k.Rules, k.Log, k.Help, k.Leave, escKey, ctrlCKey}, {k.AddBot, k.End, k.Bell}}
}

// overKeys are a player's keys once the game is over: r is the rematch.
type overKeys struct{ gameKeys }

// ShortHelp implements help.KeyMap.
func (k overKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Rematch, k.Chat, k.Card, k.Log, k.Help, k.Leave}
}

// FullHelp implements help.KeyMap.
func (k overKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Rematch, k.Chat, k.Card, k.Log}, {k.Rules, k.Help, k.Leave, escKey, ctrlCKey}}
}

// chatKeys are the keys while typing in a chat: every other key is text.
type chatKeys struct {
	Send, Stop, Older, Newer, Spectators key.Binding
}

var chatKeyMap = chatKeys{
	Send:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "session.key.send")),
	Stop:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "session.key.stopTyping")),
	Older:      key.NewBinding(key.WithKeys("up", "pgup"), key.WithHelp("↑", "session.key.older")),
	Newer:      key.NewBinding(key.WithKeys("down", "pgdown"), key.WithHelp("↓", "session.key.newer")),
	Spectators: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "session.key.spectators")),
}

// ShortHelp implements help.KeyMap.
func (k chatKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Older, k.Newer, k.Spectators, k.Send, k.Stop}
}

// FullHelp implements help.KeyMap.
func (k chatKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// lobbyChatKeys are chatKeys without the spectators' channel.
type lobbyChatKeys struct{ chatKeys }

// ShortHelp implements help.KeyMap.
func (k lobbyChatKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Older, k.Newer, k.Send, k.Stop}
}

// FullHelp implements help.KeyMap.
func (k lobbyChatKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// overlayKeys move through an overlay list (card reference, log, bot
// picker) and close it.
type overlayKeys struct {
	Up, Down, Choose, Close key.Binding
}

var overlayKeyMap = overlayKeys{
	Up:     key.NewBinding(key.WithKeys("up", "k", "left", "pgup"), key.WithHelp("↑", "session.key.previous")),
	Down:   key.NewBinding(key.WithKeys("down", "j", "right", "pgdown"), key.WithHelp("↓", "session.key.next")),
	Choose: key.NewBinding(key.WithKeys("enter", "y"), key.WithHelp("enter", "session.key.choose")),
	Close:  key.NewBinding(key.WithKeys("esc", "q", "i", "?", "g", "L", "n"), key.WithHelp("esc", "session.key.close")),
}

// ShortHelp implements help.KeyMap.
func (k overlayKeys) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Down, k.Choose, k.Close} }

// FullHelp implements help.KeyMap.
func (k overlayKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// logKeys scroll the whole game log; enter closes it too, as it closes
// the other overlays.
type logKeys struct {
	Scroll, Page, Ends, Close key.Binding
}

var logKeyMap = logKeys{
	Scroll: key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓", "session.key.scroll")),
	Page:   key.NewBinding(key.WithKeys("pgup", "pgdown"), key.WithHelp("pgup/pgdn", "session.key.page")),
	Ends:   key.NewBinding(key.WithKeys("home", "end"), key.WithHelp("home/end", "session.key.firstLastLine")),
	Close:  overlayKeyMap.Close,
}

// ShortHelp implements help.KeyMap.
func (k logKeys) ShortHelp() []key.Binding { return []key.Binding{k.Scroll, k.Page, k.Ends, k.Close} }

// FullHelp implements help.KeyMap.
func (k logKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// helpScrollKeys scroll a keys page cut by its body; any other key
// closes it, as it closes one that fits.
type helpScrollKeys struct {
	Up, Down key.Binding
}

var helpScrollKeyMap = helpScrollKeys{
	Up:   key.NewBinding(key.WithKeys("up", "k", "pgup"), key.WithHelp("↑/↓", "session.key.scroll")),
	Down: key.NewBinding(key.WithKeys("down", "j", "pgdown")),
}

// ShortHelp implements help.KeyMap.
func (k helpScrollKeys) ShortHelp() []key.Binding { return []key.Binding{k.Up, anyKeyBinding} }

// FullHelp implements help.KeyMap.
func (k helpScrollKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// rulesKeys page through the rules.
type rulesKeys struct {
	Next, Prev, Up, Down, Close key.Binding
}

var rulesKeyMap = rulesKeys{
	Next:  key.NewBinding(key.WithKeys("right", "l", "n", " ", "tab"), key.WithHelp("→", "session.key.nextPage")),
	Prev:  key.NewBinding(key.WithKeys("left", "h", "p", "shift+tab"), key.WithHelp("←", "session.key.previousPage")),
	Up:    key.NewBinding(key.WithKeys("up", "k", "pgup"), key.WithHelp("↑", "session.key.scrollUp")),
	Down:  key.NewBinding(key.WithKeys("down", "j", "pgdown"), key.WithHelp("↓", "session.key.scrollDown")),
	Close: key.NewBinding(key.WithKeys("esc", "q", "r", "R", "?"), key.WithHelp("esc", "session.key.close")),
}

// ShortHelp implements help.KeyMap.
func (k rulesKeys) ShortHelp() []key.Binding { return []key.Binding{k.Next, k.Prev, k.Down, k.Close} }

// FullHelp implements help.KeyMap.
func (k rulesKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// rulesPageKeys are rulesKeys on a page that fits whole: no scrolling.
type rulesPageKeys struct{ rulesKeys }

// ShortHelp implements help.KeyMap.
func (k rulesPageKeys) ShortHelp() []key.Binding { return []key.Binding{k.Next, k.Prev, k.Close} }

// lobbyKeys are the lobby screen's keys.
type lobbyKeys struct {
	Up, Down, Switch key.Binding
	Open, Watch      key.Binding
	New, Solo        key.Binding
	Join, Name       key.Binding
	Chat             key.Binding
	Refresh, Rules   key.Binding
	Bell             key.Binding
	Help, Quit       key.Binding
	Lang             key.Binding // langpick.go
}

var lobbyKeyMap = lobbyKeys{
	Up:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "session.key.up")),
	Down:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "session.key.down")),
	Switch:  key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "session.key.nextList")),
	Open:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "session.key.open")),
	Watch:   key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "session.key.watch")),
	New:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "session.key.newRoom")),
	Solo:    key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "session.key.quickSolo")),
	Join:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "session.key.joinByCode")),
	Name:    key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "session.key.changeName")),
	Chat:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "session.key.chat")),
	Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "session.key.refresh")),
	Rules:   key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "session.key.rulesGames")),
	Bell:    key.NewBinding(key.WithKeys("B"), key.WithHelp("B", "session.key.bell")),
	Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "session.key.allKeys")),
	Quit:    key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "session.key.quit")),
	Lang:    key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "lang.pick.key")),
}

// ShortHelp implements help.KeyMap.
func (k lobbyKeys) ShortHelp() []key.Binding {
	// s is short in the bar, so that 80 columns still show t, the way to
	// find players.
	solo := k.Solo
	solo.SetHelp("s", "session.key.solo")
	return []key.Binding{k.Open, k.Watch, k.New, solo, k.Chat, k.Join, k.Name, k.Help, k.Quit}
}

// FullHelp implements help.KeyMap.
func (k lobbyKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down, k.Switch, k.Open, k.Watch}, {k.New, k.Solo, k.Join, k.Name, k.Lang, k.Chat}, {k.Refresh, k.Rules, k.Bell, k.Help, k.Quit, escKey, ctrlCKey}}
}

// formKeys drive the new-room form.
type formKeys struct {
	Up, Down, Less, More, Create, Help, Cancel key.Binding
}

var formKeyMap = formKeys{
	Up:     key.NewBinding(key.WithKeys("up", "k", "shift+tab"), key.WithHelp("↑", "session.key.field")),
	Down:   key.NewBinding(key.WithKeys("down", "j", "tab"), key.WithHelp("↓", "session.key.field")),
	Less:   key.NewBinding(key.WithKeys("left", "h"), key.WithHelp("←", "session.key.change")),
	More:   key.NewBinding(key.WithKeys("right", "l", " "), key.WithHelp("→", "session.key.change")),
	Create: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "session.key.create")),
	Help:   key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "session.key.help")),
	Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "session.key.cancel")),
}

// ShortHelp implements help.KeyMap.
func (k formKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Less, k.More, k.Create, k.Help, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (k formKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// promptKeys answer the lobby's one-line prompts (join, watch, name):
// every other key is text.
type promptKeys struct {
	Confirm, Cancel key.Binding
}

var promptKeyMap = promptKeys{
	Confirm: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "session.key.confirm")),
	Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "session.key.cancel")),
}

// ShortHelp implements help.KeyMap.
func (k promptKeys) ShortHelp() []key.Binding { return []key.Binding{k.Confirm, k.Cancel} }

// FullHelp implements help.KeyMap.
func (k promptKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// replayKeys step through a finished game.
type replayKeys struct {
	Next, Prev, NextRound, PrevRound, Round, First, Last, Card, Chat, Help, Leave key.Binding
}

var replayKeyMap = replayKeys{
	Next:      key.NewBinding(key.WithKeys("right", "n", "l", " "), key.WithHelp("→/n", "session.key.nextMove")),
	Prev:      key.NewBinding(key.WithKeys("left", "p", "h"), key.WithHelp("←/p", "session.key.prevMove")),
	NextRound: key.NewBinding(key.WithKeys("]", "pgdown"), key.WithHelp("]/pgdn", "session.key.nextRound")),
	PrevRound: key.NewBinding(key.WithKeys("[", "pgup"), key.WithHelp("[/pgup", "session.key.prevRound")),
	Round:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r N enter", "session.key.jumpRound")),
	First:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home", "session.key.start")),
	Last:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end", "session.key.finalScores")),
	Card:      key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "session.key.cardInfo")),
	Chat:      key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "session.key.chatSoFar")),
	Help:      key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "session.key.allKeys")),
	Leave:     key.NewBinding(key.WithKeys("q"), key.WithHelp("q", "session.key.leave")),
}

// ShortHelp implements help.KeyMap.
func (k replayKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Prev, k.Next, k.PrevRound, k.NextRound, k.Round, k.Chat, k.Help, k.Leave}
}

// FullHelp implements help.KeyMap.
func (k replayKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Next, k.Prev, k.NextRound, k.PrevRound}, {k.Round, k.First, k.Last}, {k.Card, k.Chat, k.Help, k.Leave, escKey, ctrlCKey}}
}

// helpBar draws a key map's short help in one line of width w. Every
// short help ends with its way out (? for all keys, then q or esc), so
// when the line is too narrow the keys before those two give way, last
// first: the way to every key and the way out always show.
func helpBar(t kit.Theme, km help.KeyMap, w int) string {
	return helpBars.Get(keyOf(t, km.ShortHelp(), w), func() string { return drawHelpBar(t, km, w) })
}

func drawHelpBar(t kit.Theme, km help.KeyMap, w int) string {
	km = wordedKeys(t, km)
	h := help.New()
	h.ShortSeparator = " · "
	h.Styles.ShortKey = t.Accent.Style
	h.Styles.ShortDesc = t.Dim.Style
	h.Styles.ShortSeparator = t.Dim.Style
	h.Styles.Ellipsis = t.Dim.Style
	keys := fitKeys(h, km.ShortHelp(), w)
	h.Width = w // past the last two keys, the library's ellipsis
	return h.ShortHelpView(keys)
}

// fitKeys are the keys a bar of w columns shows: the keys before the last
// two give way, last first, until the bar fits.
func fitKeys(h help.Model, keys []key.Binding, w int) []key.Binding {
	for len(keys) > 2 && lipgloss.Width(h.ShortHelpView(keys)) > w {
		keys = append(keys[:len(keys)-3:len(keys)-3], keys[len(keys)-2:]...)
	}
	return keys
}

// keysHelp draws the ? screen: every key of km, with a title. The columns
// go side by side while they fit in w and the rest start a band below:
// the library would cut the columns past w with an ellipsis, and the keys
// a player looks for (b, E, B) are in the last one.
func keysHelp(t kit.Theme, title string, km help.KeyMap, w int) string {
	km = wordedKeys(t, km)
	h := help.New()
	h.Styles.FullKey = t.Accent.Style
	h.Styles.FullDesc = t.Dim.Style
	h.Styles.FullSeparator = t.Dim.Style
	var bands []string
	var band [][]key.Binding
	for _, col := range km.FullHelp() {
		if len(band) > 0 && lipgloss.Width(h.FullHelpView(append(band, col))) > w {
			bands = append(bands, h.FullHelpView(band))
			band = nil
		}
		band = append(band, col)
	}
	if len(band) > 0 {
		bands = append(bands, h.FullHelpView(band))
	}
	// Any key closes the page: the help bar under it says so.
	return t.Title.Render(title) + "\n\n" + strings.Join(bands, "\n\n")
}
