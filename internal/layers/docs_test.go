package layers

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outside matches a reference to a file a reader of the project does not
// have: the workshop's reference material, or an absolute path of the
// machine the docs were written on.
var outside = regexp.MustCompile("\\.\\./shared|shared/(reference|seeds)|(^|[\\s(`'\"])/(work|home|root)/")

// TestDocsStayInTheRepository keeps the docs citing rulebooks by title
// and edition, never by paths outside the repository.
func TestDocsStayInTheRepository(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(docs) == 0 {
		t.Fatalf("no docs found: %v", err)
	}
	for _, doc := range append(docs, "../../README.md") {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if outside.MatchString(line) {
				t.Errorf("%s:%d points outside the repository: %s", filepath.Base(doc), i+1, strings.TrimSpace(line))
			}
		}
	}
}

// TestOutsidePathsAreRecognised plants the lines the docs once had.
func TestOutsidePathsAreRecognised(t *testing.T) {
	for _, line := range []string{
		"rulebook (`/work/shared/seeds/003_2e292a230508515e.txt`); where it is",
		"From `../shared/reference/README.md` (settled):",
	} {
		if !outside.MatchString(line) {
			t.Errorf("not recognised as outside: %q", line)
		}
	}
	for _, line := range []string{
		"go build -o /tmp/smokeload ./cmd/smokeload",
		"(the layout of `session/testdata/TestGolden/work/120x40.golden`)",
	} {
		if outside.MatchString(line) {
			t.Errorf("recognised as outside: %q", line)
		}
	}
}
