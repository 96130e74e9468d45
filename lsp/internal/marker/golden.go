package marker

// Goldens: long expectations kept in the archive (-- @name --), compared
// with what a marker got and, under -update, rewritten with it.

import (
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/txtar"
)

// finishGoldens reports goldens no marker used, and under -update writes
// the archive back with what the markers got.
func (r *runner) finishGoldens() {
	t := r.t
	for _, name := range sortedKeys(r.test.golden) {
		g := r.test.golden[name]
		if !g.used && !r.opts.Update {
			t.Errorf("%s: golden @%s is used by no marker", r.test.file, name)
		}
	}
	if !r.opts.Update || t.Failed() && !r.anyUpdated() {
		return
	}
	a := r.test.archive
	var files []txtar.File
	written := map[string]bool{}
	for _, f := range a.Files {
		if !strings.HasPrefix(f.Name, "@") {
			files = append(files, f)
			continue
		}
		name, _ := splitGolden(f.Name)
		g := r.test.golden[name]
		if g.updated == nil {
			if g.used {
				files = append(files, f) // not reached this run: keep
			}
			continue
		}
		if written[name] {
			continue
		}
		written[name] = true
		files = append(files, g.sections()...)
	}
	for _, name := range sortedKeys(r.test.golden) {
		if g := r.test.golden[name]; g.updated != nil && !written[name] {
			files = append(files, g.sections()...)
		}
	}
	out := txtar.Format(&txtar.Archive{Comment: a.Comment, Files: files})
	if err := os.WriteFile(r.test.file, out, 0o644); err != nil {
		t.Error(err)
	}
}

func (r *runner) anyUpdated() bool {
	for _, g := range r.test.golden {
		if g.updated != nil {
			return true
		}
	}
	return false
}

// sections are a golden's updated entries as archive sections: the whole
// golden first, then its files, then its parts.
func (g *golden) sections() []txtar.File {
	keys := sortedKeys(g.updated)
	sort.SliceStable(keys, func(i, j int) bool { return goldenOrder(keys[i]) < goldenOrder(keys[j]) })
	var out []txtar.File
	for _, k := range keys {
		out = append(out, txtar.File{Name: "@" + g.name + k, Data: []byte(withNewline(g.updated[k]))})
	}
	return out
}

func goldenOrder(key string) int {
	switch {
	case key == "":
		return 0
	case strings.HasPrefix(key, "/"):
		return 1
	}
	return 2
}

func withNewline(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n"
	}
	return s
}

// goldenFor finds the golden a marker names, marking it used.
func (s *session) goldenFor(m *mark, v value) *golden {
	if v.kind != kindIdent {
		s.errorf(m, "want the name of a golden section (@name), got %s", v)
		return nil
	}
	t := s.r.test
	g := t.golden[v.str]
	if g == nil {
		g = &golden{name: v.str, entries: map[string]string{}}
		t.golden[v.str] = g
	}
	g.used = true
	return g
}

// compareGolden compares what a marker got (entries by key) with its
// golden; under -update it records them instead.
func (s *session) compareGolden(m *mark, g *golden, got map[string]string) {
	s.r.t.Helper()
	if s.r.opts.Update {
		g.updated = got
		return
	}
	for _, k := range sortedKeys(got) {
		want, ok := g.entries[k]
		if !ok {
			s.errorf(m, "golden @%s%s is missing; got:\n%s\n(run the tests with -update to write it)", g.name, k, indent(got[k]))
			continue
		}
		if withNewline(got[k]) != want {
			s.errorf(m, "golden @%s%s differs (-want +got):\n%s(run the tests with -update to accept)", g.name, k, lineDiff(want, withNewline(got[k])))
		}
	}
	for _, k := range sortedKeys(g.entries) {
		if _, ok := got[k]; !ok {
			s.errorf(m, "golden @%s%s expects:\n%s\nbut there is no such result", g.name, k, indent(g.entries[k]))
		}
	}
}
