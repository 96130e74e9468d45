package workspace

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/bench/gen"
	"github.com/charter-lsp/charter-lsp/internal/inflight"
)

// A parse cancelled part-way keeps nothing: the next caller parses the
// whole file, and both kinds of file (an open document, parsed by its
// incremental parser, and a file from disk) parse as a fresh parse does.
func TestCancelledParseIsNotKept(t *testing.T) {
	text := gen.Criteria(30, 5)
	b := inflight.New()
	for name, f := range map[string]*File{
		"document": docFile(NewDocument("/p/.pi/charters/c/criteria.md", 1, text), newDisk(emptyFS{}, b)),
		"disk":     {Path: "/p/.pi/charters/c/criteria.md", Text: text, busy: b},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if c, err := f.criteriaUnder(ctx); c != nil || err == nil {
			t.Fatalf("%s: cancelled parse = %v, %v", name, c, err)
		}
		b.Wait()
		if got, want := f.Criteria(), pi.ParseCriteria(text); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: after a cancelled parse, Criteria differs from a fresh parse", name)
		}
	}
}

// Revalidate lists exactly what changed on disk among what was read: a
// file rewritten, a file that appeared in or left a listed folder, a file
// that was missing and now exists; nothing when nothing changed.
func TestRevalidateListsWhatChanged(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "a")
	write("b.md", "b")
	write("dir/c.md", "c")
	sess := NewSession(Options{})
	snap := sess.Snapshot()
	for _, rel := range []string{"a.md", "b.md", "dir/c.md", "later.md"} {
		snap.File(filepath.Join(root, rel))
	}
	if _, err := snap.FS().ReadDir(filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}
	got, err := sess.Revalidate(context.Background())
	if err != nil || len(got) != 0 {
		t.Fatalf("nothing changed, Revalidate = %v, %v", got, err)
	}
	write("a.md", "a, longer")
	if err := os.Remove(filepath.Join(root, "b.md")); err != nil {
		t.Fatal(err)
	}
	write("dir/new.md", "new")
	write("later.md", "now here")
	got, err = sess.Revalidate(context.Background())
	want := []string{filepath.Join(root, "a.md"), filepath.Join(root, "b.md"), filepath.Join(root, "dir/new.md"), filepath.Join(root, "later.md")}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Revalidate = %v, %v; want %v", got, err, want)
	}
	// The next snapshot reads them again, and keeps what did not change.
	c := snap.File(filepath.Join(root, "dir/c.md"))
	next := sess.Update(Change{Disk: got})
	if f := next.File(filepath.Join(root, "a.md")); string(f.Text) != "a, longer" {
		t.Errorf("a.md reads %q after the change", f.Text)
	}
	if next.File(filepath.Join(root, "dir/c.md")) != c {
		t.Error("an unchanged file was read again")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sess.Revalidate(ctx); err == nil {
		t.Error("a cancelled look did not stop")
	}
}
