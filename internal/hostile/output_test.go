package hostile_test

import (
	"encoding/json"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/hostile"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// Every line of every output is ours: in a project whose folder names,
// titles and objectives carry line breaks followed by CI commands, bidi
// overrides and terminal escapes (hostile.Forged), check in each format and
// status in each format print no line a CI runner would read as a command,
// no raw control or bidirectional character (but our own colours), and —
// for JSON and SARIF — the names exactly as they are on disk.
func TestOutputIsOurs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	root := hostile.ForgedOutput(t)
	forgedDir := ".charters/20260101-000000-a\n::warning file=README.md::forged"

	for _, c := range []struct {
		args   []string
		github bool // stdout is --format github's workflow commands
	}{
		{args: []string{"check", "--color", "never", "."}},
		{args: []string{"check", "--color", "always", "."}},
		{args: []string{"check", "--format", "json", "."}},
		{args: []string{"check", "--format", "sarif", "."}},
		{args: []string{"check", "--format", "github", "."}, github: true},
		{args: []string{"status", "."}},
		{args: []string{"status", "--format", "json", "."}},
		{args: []string{"status", forgedDir}},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			stdout, stderr, _ := runSplit(t, root, bin, c.args...)
			if stdout == "" {
				t.Fatalf("no output; stderr:\n%s", stderr)
			}
			color := c.args[len(c.args)-2] == "always"
			hostile.CheckOurs(t, "stdout", stdout, c.github, color)
			hostile.CheckOurs(t, "stderr", stderr, false, color)
		})
	}

	// The data of the machine formats is exact: the folder's name with its
	// line feed, the SARIF uri a URI reference that decodes to it.
	stdout, _, _ := runSplit(t, root, bin, "check", "--format", "json", ".")
	var ds []struct{ File string }
	if err := json.Unmarshal([]byte(stdout), &ds); err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, d := range ds {
		files[d.File] = true
	}
	if !files[forgedDir+"/state.json"] && !files[forgedDir+"/charter.md"] {
		t.Errorf("check --format json does not name the forged folder exactly: %q", keys(files))
	}
	stdout, _, _ = runSplit(t, root, bin, "check", "--format", "sarif", ".")
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
					}
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	uriChars := regexp.MustCompile(`^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+$`) // RFC 3986
	seen := map[string]bool{}
	for _, r := range log.Runs[0].Results {
		raw := r.Locations[0].PhysicalLocation.ArtifactLocation.URI
		if !uriChars.MatchString(raw) {
			t.Errorf("artifactLocation.uri %q is not a URI reference (RFC 3986)", raw)
		}
		u, err := url.Parse(raw)
		if err != nil {
			t.Errorf("artifactLocation.uri %q: %v", raw, err)
			continue
		}
		seen[path.Clean(u.Path)] = true // "./" leads a path whose first segment has a ":"
	}
	for f := range files {
		if !seen[filepath.ToSlash(f)] {
			t.Errorf("no SARIF uri decodes to %q (decoded: %q)", f, keys(seen))
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
