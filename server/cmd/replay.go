package cmd

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/smokestack/smokestack/session"
)

// The recording's bounds: a size the screens draw (session.MinWidth by
// MinHeight at least), no bigger than a frame's cost allows for every
// move of a long game, and a pace a person can follow or skim.
const (
	maxCastWidth, maxCastHeight = 240, 80
	minPace, maxPace            = 10 * time.Millisecond, time.Minute
)

// replay opens the replay screen on the session's terminal, or with
// --cast writes the finished game as an asciicast v2 recording on stdout,
// with no terminal needed.
func (s *Set) replay(c *Call) error {
	if _, cast := takeFlag(c.args, "cast"); !cast {
		return s.screen(c, command{name: "replay"})
	}
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.Bool("cast", true, "")
	size := fs.String("size", "100x30", "")
	pace := fs.Duration("pace", time.Second, "")
	theme := fs.String("theme", themeFromEnv(c.Env), "")
	pos, err := c.flags(fs, 1, c.T("cmd.missing_room"))
	if err != nil {
		return err
	}
	w, h, ok := parseSize(*size)
	if !ok || w < session.MinWidth || h < session.MinHeight || w > maxCastWidth || h > maxCastHeight {
		return errUsage{c.T("cmd.replay.size", "Value", fmt.Sprintf("%.20q", *size), "Width", session.MinWidth, "Height", session.MinHeight,
			"MaxWidth", maxCastWidth, "MaxHeight", maxCastHeight)}
	}
	if *pace < minPace || *pace > maxPace {
		return errUsage{c.T("cmd.replay.pace", "Value", pace.String(), "Min", c.duration(minPace), "Max", c.duration(maxPace))}
	}
	if err := c.checkTheme(*theme); err != nil {
		return err
	}
	return s.cast(c, pos[0], castSize{w, h}, *pace, *theme)
}

type castSize struct{ w, h int }

// parseSize reads WIDTHxHEIGHT ("100x30").
func parseSize(v string) (w, h int, ok bool) {
	ws, hs, found := strings.Cut(strings.ToLower(v), "x")
	w, errW := strconv.Atoi(ws)
	h, errH := strconv.Atoi(hs)
	return w, h, found && errW == nil && errH == nil
}

// cast writes the replay of the room typed names as an asciicast v2
// stream (docs.asciinema.org/manual/asciicast/v2): a header, then the
// replay screen's frames as output events, one a pace: the first a whole
// screen, each after it the lines that changed, the last held a pace
// before the recording ends.
func (s *Set) cast(c *Call, typed string, size castSize, pace time.Duration, theme string) error {
	out := bufio.NewWriter(c.Out)
	cfg := session.Config{Lobby: s.Lobby, Games: s.Screens, Player: c.Player, Theme: theme, Lang: c.Lang,
		Width: size.w, Height: size.h, Context: c.Ctx}
	var at time.Duration
	var shown []string // the lines on the recording's screen
	err := session.ReplayFrames(cfg, typed, func(f session.ReplayFrame) error {
		if err := c.Ctx.Err(); err != nil {
			return err
		}
		if f.At == 0 {
			if err := castHeader(out, size, f.Info.Updated, c.T("cmd.replay.cast_title", "Title", s.title(c, f.Info.Game), "Code", f.Info.Code)); err != nil {
				return err
			}
		}
		var screen strings.Builder
		if f.At == 0 {
			screen.WriteString(hideCursor + clearScreen)
		}
		lines := strings.Split(f.View, "\n")
		for i, line := range lines {
			if i < len(shown) && shown[i] == line {
				continue
			}
			fmt.Fprintf(&screen, "\x1b[%d;1H\x1b[2K%s", i+1, line) // to the line, cleared, and over it
		}
		shown = lines
		at = time.Duration(f.At) * pace
		return castEvent(out, at, screen.String())
	})
	if err != nil {
		return err
	}
	if err := castEvent(out, at+pace, showCursor); err != nil {
		return err
	}
	return out.Flush()
}

// What the recording says to the terminal it plays in, beside its frames.
const (
	hideCursor  = "\x1b[?25l"
	showCursor  = "\x1b[?25h"
	clearScreen = "\x1b[H\x1b[2J"
)

// castHeader writes an asciicast v2 header: the size the frames are
// drawn at, when the game ended, and its title.
func castHeader(w *bufio.Writer, size castSize, ended time.Time, title string) error {
	type env struct {
		Term string `json:"TERM"`
	}
	header := struct {
		Version   int    `json:"version"`
		Width     int    `json:"width"`
		Height    int    `json:"height"`
		Timestamp int64  `json:"timestamp,omitempty"`
		Title     string `json:"title"`
		Env       env    `json:"env"`
	}{Version: 2, Width: size.w, Height: size.h, Title: title, Env: env{Term: "xterm-256color"}}
	if !ended.IsZero() {
		header.Timestamp = ended.Unix()
	}
	b, err := json.Marshal(header)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// castEvent writes one output event: [seconds, "o", data].
func castEvent(w *bufio.Writer, at time.Duration, data string) error {
	b, err := json.Marshal([]any{json.Number(strconv.FormatFloat(at.Seconds(), 'f', 3, 64)), "o", data})
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
