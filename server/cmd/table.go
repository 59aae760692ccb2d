package cmd

import (
	"bytes"
	"io"
	"strings"

	"github.com/smokestack/smokestack/session/kit"
)

// table lays out what is written to it in columns, as text/tabwriter
// does with a padding of two spaces (a cell is text ended by a tab; a
// line without one ends the columns above it), but measures each cell
// in terminal columns, not runes: a name in wide letters (李雷, two
// columns each) keeps the columns after it in line.
type table struct {
	out io.Writer
	buf bytes.Buffer
}

func newTable(out io.Writer) *table { return &table{out: out} }

func (t *table) Write(p []byte) (int, error) { return t.buf.Write(p) }

// Flush writes the table out.
func (t *table) Flush() error {
	text := t.buf.String()
	t.buf.Reset()
	var b strings.Builder
	lines := strings.SplitAfter(text, "\n")
	for start := 0; start < len(lines); {
		end := start + 1 // a block: lines with cells, up to one without
		for end < len(lines) && strings.Contains(lines[end-1], "\t") && strings.Contains(lines[end], "\t") {
			end++
		}
		var widths []int
		for _, l := range lines[start:end] {
			cells := strings.Split(l, "\t")
			for i, c := range cells[:len(cells)-1] {
				if i == len(widths) {
					widths = append(widths, 0)
				}
				widths[i] = max(widths[i], kit.Width(c))
			}
		}
		for _, l := range lines[start:end] {
			cells := strings.Split(l, "\t")
			for i, c := range cells[:len(cells)-1] {
				b.WriteString(c)
				b.WriteString(strings.Repeat(" ", widths[i]-kit.Width(c)+2))
			}
			b.WriteString(cells[len(cells)-1])
		}
		start = end
	}
	_, err := io.WriteString(t.out, b.String())
	return err
}
