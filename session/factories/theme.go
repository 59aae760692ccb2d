package factories

import (
	"sync"

	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/engine/factories"
	"github.com/smokestack/smokestack/internal/lang"
	"github.com/smokestack/smokestack/session/kit"
)

// toolColours are the tool tokens' colours by theme name; the mono theme
// has none. The colour-blind theme uses Okabe–Ito and adds a shape
// (toolMarks), so the tool never rests on colour alone.
var toolColours = map[string]map[factories.Tool]string{
	"default": {factories.Gear: "214", factories.Wrench: "39", factories.Hammer: "196", factories.Shovel: "142"},
	"colorblind": {factories.Gear: "#E69F00", factories.Wrench: "#56B4E9",
		factories.Hammer: "#CC79A7", factories.Shovel: "#F0E442"},
}

var toolMarks = map[string]map[factories.Tool]string{
	"colorblind": {factories.Gear: "● ", factories.Wrench: "▲ ", factories.Hammer: "■ ", factories.Shovel: "◆ "},
}

// toolText words a tool token for the board: its name, in its colour,
// with a shape in the colour-blind theme.
func toolText(t kit.Theme, tool factories.Tool) string {
	key := toolKey{t.Styles, t.L.Tag(), tool}
	if s, ok := toolTexts.Load(key); ok {
		return s.(string)
	}
	s := drawTool(t, tool)
	toolTexts.Store(key, s)
	return s
}

// toolTexts holds the tool tokens as each theme draws them, by toolKey:
// a token is drawn for every blueprint and contractor of every frame, and
// a style is most of its cost. Themes are shared (one per theme and colour
// profile), so it holds a few dozen strings a language at most.
var toolTexts sync.Map

type toolKey struct {
	styles *kit.Styles
	lang   lang.Tag
	tool   factories.Tool
}

// drawTool draws a tool token, for toolText.
func drawTool(t kit.Theme, tool factories.Tool) string {
	st := t.Style()
	if c, ok := toolColours[t.Name][tool]; ok {
		st = st.Foreground(lipgloss.Color(c))
	}
	return st.Render(toolMarks[t.Name][tool] + term(t, string(tool)))
}
