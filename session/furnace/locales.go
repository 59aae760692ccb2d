package furnace

import (
	"embed"

	"github.com/smokestack/smokestack/internal/lang"
)

// locales are the game's words, one file per language: its cards and
// terms, its screens, its log and its refusals (docs/translating.md).
//
//go:embed locales/*.toml
var locales embed.FS

// The game speaks in every binary that has its screens.
func init() { lang.Register(locales) }
