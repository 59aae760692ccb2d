package cmd

import (
	"flag"
	"fmt"

	"github.com/smokestack/smokestack/internal/lang"
)

// langCmd lists the languages the game speaks and says which the player
// reads and why, or keeps their choice in their profile, where it beats
// their client's environment from now on; "auto" forgets the choice.
func (s *Set) langCmd(c *Call) error {
	pos, err := c.flagsUpTo(flag.NewFlagSet("lang", flag.ContinueOnError), 0, 1, "")
	if err != nil {
		return err
	}
	if len(pos) == 0 && c.JSON {
		return writeJSON(c.Out, langFacts(c, true))
	}
	if len(pos) == 0 {
		s.listLangs(c)
		return nil
	}
	stored, ok := lang.Tag(""), pos[0] == "auto"
	if !ok {
		if stored, ok = lang.Parse(pos[0]); !ok {
			return errUsage{c.T("cmd.lang.unknown", "Lang", fmt.Sprintf("%.20q", pos[0]))}
		}
	}
	if c.Player.Guest {
		return fmt.Errorf("%s", c.T("cmd.lang.guest"))
	}
	p, err := s.Lobby.SetLang(c.Ctx, c.Player, string(stored))
	if err != nil {
		return err
	}
	c.Player = p
	c.Lang = lang.Choose(p.Lang, c.Env)
	if c.JSON {
		if err := writeJSON(c.Out, langFacts(c, false)); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(c.Out, c.Lang)
	}
	if stored == "" {
		fmt.Fprintln(c.Err, c.T("cmd.lang.auto", "Name", c.Lang.Name()))
		return nil
	}
	fmt.Fprintln(c.Err, c.T("lang.chosen"))
	return nil
}

// listLangs prints the languages, the player's marked, and where their
// choice comes from.
func (s *Set) listLangs(c *Call) {
	fmt.Fprintln(c.Out, c.T("cmd.lang.list"))
	for _, t := range lang.Tags {
		mark := " "
		if t == c.Lang {
			mark = "*"
		}
		fmt.Fprintf(c.Out, "%s %s  %s\n", mark, t, t.Name())
	}
	fmt.Fprintln(c.Out, "\n"+c.T("cmd.lang.from_"+langFrom(c), "Name", c.Lang.Name()))
}

// langFrom says where the player's language comes from: their profile,
// their client's environment, or the default.
func langFrom(c *Call) string {
	if _, stored := lang.Parse(c.Player.Lang); stored {
		return "profile"
	}
	if _, ok := lang.FromEnv(c.Env); ok {
		return "env"
	}
	return "default"
}

// langJSON is what lang --json prints: the player's language, where it
// comes from, and (listing) the languages there are.
type langJSON struct {
	Lang  lang.Tag    `json:"lang"`
	From  string      `json:"from"`
	Langs []langEntry `json:"langs,omitempty"`
}

type langEntry struct {
	Lang lang.Tag `json:"lang"`
	Name string   `json:"name"`
}

func langFacts(c *Call, listing bool) langJSON {
	out := langJSON{Lang: c.Lang, From: langFrom(c)}
	if out.Lang == "" {
		out.Lang = lang.English
	}
	if listing {
		for _, t := range lang.Tags {
			out.Langs = append(out.Langs, langEntry{t, t.Name()})
		}
	}
	return out
}
