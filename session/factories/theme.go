package factories

import (
	"github.com/charmbracelet/lipgloss"

	"github.com/smokestack/smokestack/engine/factories"
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
	st := t.Style()
	if c, ok := toolColours[t.Name][tool]; ok {
		st = st.Foreground(lipgloss.Color(c))
	}
	return st.Render(toolMarks[t.Name][tool] + string(tool))
}
