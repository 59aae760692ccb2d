package cmd

import (
	"flag"
	"fmt"
	"runtime/debug"
	"strings"
)

// buildInfo is what the binary knows of its own build: the module's
// version, and the VCS revision it was built from when go build knew one.
type buildInfo struct {
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
}

// readBuildInfo reads the build info; a binary without any (built by
// other means than go build) says "unknown".
func readBuildInfo() buildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return buildInfo{Version: "unknown", Go: "unknown"}
	}
	out := buildInfo{Version: bi.Main.Version, Go: bi.GoVersion}
	if out.Version == "" {
		out.Version = "(devel)"
	}
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			out.Revision = kv.Value
		case "vcs.time":
			out.Time = kv.Value
		case "vcs.modified":
			out.Modified = kv.Value == "true"
		}
	}
	return out
}

// version prints the server's version: its module version, the revision
// it was built from, and the Go that built it.
func (s *Set) version(c *Call) error {
	if _, err := c.flags(flag.NewFlagSet("version", flag.ContinueOnError), 0, ""); err != nil {
		return err
	}
	bi := readBuildInfo()
	if c.JSON {
		return writeJSON(c.Out, bi)
	}
	words := []string{"smokestack", bi.Version}
	if bi.Revision != "" {
		rev := bi.Revision[:min(12, len(bi.Revision))]
		if bi.Modified {
			rev += "+" + c.T("cmd.version.modified")
		}
		words = append(words, c.T("cmd.version.revision", "Revision", rev))
		if bi.Time != "" {
			words = append(words, "("+bi.Time+")")
		}
	}
	fmt.Fprintln(c.Out, strings.Join(append(words, bi.Go), " "))
	return nil
}
