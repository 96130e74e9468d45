package onehome

import (
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/charterfile"
	"github.com/charter-lsp/charter-lsp/analysis/pi"
)

// vocabulary is a set of words and the files allowed to spell them: the
// one that defines them (its row in docs/architecture.md's table) and the
// editors' files generated from it.
type vocabulary struct {
	name  string
	words []string
	homes []string
	// copies is how many of its words a file must spell to hold a copy:
	// 1 for words that mean nothing else here, 2 for common words
	// ("command" is also a field, a marker, a JSON key), whose copies are
	// lists, switches and maps.
	copies int
}

// The vocabularies are read from their homes, so a new word is policed
// as soon as it is added there.
func vocabularies() []vocabulary {
	generated := []string{"editors/vscode/src/generated/vocabulary.ts", "lua/charter/vocabulary.lua"}
	return []vocabulary{
		{"pi's outcomes (pi.Outcome)", pi.Names(pi.Outcomes), append([]string{"analysis/pi/vocab.go"}, generated...), 1},
		{".charters status tokens (charterfile.Status)",
			pi.Names(append(slices.Clone(charterfile.StatusLineTokens), charterfile.EvidenceLineTokens...)),
			[]string{"analysis/charterfile/status.go"}, 1},
		{".charters phase statuses (charterfile.PhaseStatus)", pi.Names(charterfile.PhaseStatuses), []string{"analysis/charterfile/status.go"}, 1},
		{"pi's verifier names and evidence kinds (pi.VerifierNames, pi.EvidenceKinds)",
			append(pi.VerifierNames(), pi.EvidenceKinds...), []string{"analysis/pi/criteria.go"}, 2},
		{"pi's evidence sources (pi.Source)", pi.Names(pi.Sources), []string{"analysis/pi/vocab.go"}, 2},
		{"the lifecycle statuses (pi.Lifecycle)", pi.Names(pi.Lifecycles), []string{"analysis/pi/lifecycle.go"}, 2},
	}
}

// exception is a file that spells words of a vocabulary for another
// reason: another vocabulary that shares them.
type exception struct {
	file  string
	words []string
	why   string
}

var exceptions = []exception{
	{"analysis/charterfile/check.go", []string{"none"}, `words for "no dependency" on a Depends line`},
	{"analysis/charterfile/check_dir.go", []string{"in-progress", "done"}, "state.json lifecycle statuses of earlier pi-charter versions, repaired"},
	{"analysis/pi/state.go", []string{"in-progress", "blocked", "done"}, "state.json lifecycle statuses of earlier pi-charter versions (NormalizeStatus)"},
	{"analysis/charterfile/nearest.go", []string{"done", "completed", "active"}, "words people write for a criterion's status"},
	{"analysis/charterfile/check_sections.go", []string{"in-progress", "pending", "blocked", "completed", "active"}, "words people write for a phase's status, mapped to upcoming, current or done"},
	{"analysis/diag/diag.go", []string{"none"}, "a severity setting's word for off"},
	{"analysis/diag/safety.go", []string{"none"}, "a code that has no fix (FixSafety)"},
	{"editors/vscode/src/chartersTree.ts", []string{"pass"}, "VS Code's codicon named pass (a check mark)"},
	{"analysis/rp1/advice.go", []string{"pending"}, "rp1's advice for a question awaiting its answer"},
	{"analysis/rp1/outline.go", []string{"pending"}, "an rp1 scratch-pad question awaiting its answer"},
	{"analysis/rp1/cues.go", []string{"fail", "pass", "none"}, "English words an answer uses (a success-criteria cue, answers that skip)"},
	{"interview/phrases.go", []string{"fail"}, "an English verb of dependence"},
	{"analysis/rp1/format.go", []string{"none"}, "rp1's kind of formatting clue"},
	{"status/text.go", []string{"none"}, "what `status` prints for a VAL without a recorded outcome"},
	{"lsp/internal/marker/actions.go", []string{"none"}, "the marker harness's word for an empty result"},
	{"lsp/internal/marker/markers.go", []string{"none"}, "the marker harness's word for no expected diagnostics"},
	{"lsp/internal/marker/ids.go", []string{"none"}, "the marker harness's word for no inlay hints"},
	{"analysis/pi/charter.go", []string{"qa", "readiness"}, "the ## QA and ## Readiness sections of a v3 charter.md"},
	{"bench/gen/project.go", []string{"pass", "fail", "done", "current"}, "the benchmarks' generator spells the words it writes once; pi's own tests import it, so it cannot import pi"},
	{"status/actions.go", []string{"manual", "command", "verifier"}, `a blocker's reason ("manual", as gates.go writes it) and the keys of a next action's metadata`},
}

// A vocabulary is spelled in its home and nowhere else: not in another
// package's Go, not in the editors' TypeScript or Lua (they import the
// files generated from the home). Tests may spell words: they state what
// the server must say.
func TestEachVocabularyHasOneHome(t *testing.T) {
	root := filepath.Join("..", "..")
	found := map[string]bool{} // file and word of each exception that is still needed
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", "testdata", "dist", "out", "bin", "e2e", "test", "test-server":
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		for _, c := range copies(t, rel, path) {
			if e := excepted(rel, c.word); e != nil {
				found[rel+" "+c.word] = true
				continue
			}
			t.Errorf("%s:%d: %q is a word of %s, spelled only in %s (Go: use its constants; an editor: import the file generated from it)",
				rel, c.line, c.word, c.vocab.name, c.vocab.homes[0])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range exceptions {
		for _, w := range e.words {
			if !found[e.file+" "+w] {
				t.Errorf("the exception for %q in %s (%s) is not needed any more: remove it", w, e.file, e.why)
			}
		}
	}
}

// The scan finds a copy where one is: these sources each hold one.
func TestTheScanFindsCopies(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.go":  "package a\n\nvar outcomes = []string{\"pass\", \"fail\"}\n",
		"b.go":  "package a\n\nfunc done(s string) bool { return s == `blocked` }\n",
		"c.go":  "package a\n\nvar kinds = map[string]bool{\"review\": true, \"qa\": true}\n",
		"d.ts":  "if (outcome !== 'partial') {\n",
		"e.lua": "if outcome ~= \"pass\" then\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := copies(t, name, path); len(got) == 0 {
			t.Errorf("%s: no copy found in %q", name, src)
		}
	}
	// One common word is no copy; comments are not read in Go.
	path := filepath.Join(dir, "f.go")
	if err := os.WriteFile(path, []byte("package a\n\n// pass, fail\nvar k = map[string]string{\"command\": \"x\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := copies(t, "f.go", path); len(got) != 0 {
		t.Errorf("f.go: %v", got)
	}
}

type copyOf struct {
	vocab vocabulary
	word  string
	line  int
}

func (c copyOf) String() string { return fmt.Sprintf("%d:%s", c.line, c.word) }

// copies are the words of each vocabulary a file spells, outside the
// vocabulary's homes, when it spells enough of them to hold a copy.
func copies(t *testing.T, rel, path string) []copyOf {
	lits := literals(t, path)
	var out []copyOf
	for _, v := range vocabularies() {
		if slices.Contains(v.homes, rel) {
			continue
		}
		var hits []copyOf
		distinct := map[string]bool{}
		for _, l := range lits {
			if slices.Contains(v.words, l.text) && !homeOfWord(rel, l.text) {
				hits = append(hits, copyOf{v, l.text, l.line})
				distinct[l.text] = true
			}
		}
		if len(distinct) >= v.copies {
			out = append(out, hits...)
		}
	}
	return out
}

// homeOfWord reports whether rel is the home of another vocabulary that
// holds word ("pass" is an outcome and a status token).
func homeOfWord(rel, word string) bool {
	for _, v := range vocabularies() {
		if slices.Contains(v.homes, rel) && slices.Contains(v.words, word) {
			return true
		}
	}
	return false
}

func excepted(rel, word string) *exception {
	for i, e := range exceptions {
		if e.file == rel && slices.Contains(e.words, word) {
			return &exceptions[i]
		}
	}
	return nil
}

type literal struct {
	text string
	line int
}

// quoted is a TypeScript or Lua string on one line.
var quoted = regexp.MustCompile("'([^'\\\\\\n]*)'|\"([^\"\\\\\\n]*)\"|`([^`\\\\]*)`")

// literals are the string literals of a Go, TypeScript or Lua source; none
// for other files and for tests.
func literals(t *testing.T, path string) []literal {
	ext := filepath.Ext(path)
	if ext != ".go" && ext != ".ts" && ext != ".lua" || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, ".test.ts") {
		return nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []literal
	if ext == ".go" {
		fset := token.NewFileSet()
		var s scanner.Scanner
		s.Init(fset.AddFile(path, -1, len(src)), src, nil, 0)
		for {
			pos, tok, lit := s.Scan()
			if tok == token.EOF {
				break
			}
			if tok == token.STRING {
				if u, err := strconv.Unquote(lit); err == nil {
					out = append(out, literal{u, fset.Position(pos).Line})
				}
			}
		}
		return out
	}
	for i, line := range strings.Split(string(src), "\n") {
		for _, m := range quoted.FindAllStringSubmatch(line, -1) {
			out = append(out, literal{m[1] + m[2] + m[3], i + 1})
		}
	}
	return out
}
