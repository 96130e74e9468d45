package workspace

import (
	"context"
	"reflect"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/pi"
	"github.com/charter-lsp/charter-lsp/bench/gen"
)

// A parse cancelled part-way keeps nothing: the next caller parses the
// whole file, and both kinds of file (an open document, parsed by its
// incremental parser, and a file from disk) parse as a fresh parse does.
func TestCancelledParseIsNotKept(t *testing.T) {
	text := gen.Criteria(30, 5)
	b := newBusy()
	for name, f := range map[string]*File{
		"document": docFile(NewDocument("/p/.pi/charters/c/criteria.md", 1, text), newDisk(emptyFS{}, b)),
		"disk":     {Path: "/p/.pi/charters/c/criteria.md", Text: text, busy: b},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if c, err := f.criteriaUnder(ctx); c != nil || err == nil {
			t.Fatalf("%s: cancelled parse = %v, %v", name, c, err)
		}
		b.wait()
		if got, want := f.Criteria(), pi.ParseCriteria(text); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: after a cancelled parse, Criteria differs from a fresh parse", name)
		}
	}
}
