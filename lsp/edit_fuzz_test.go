package lsp

import (
	"io/fs"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// Equal diagnostics must have equal digests, whatever order Go iterates
// their Data maps in: the digest decides republishing and pull resultIds.
func TestDiagnosticDigestIsDeterministic(t *testing.T) {
	d := diag.New(diag.SectionMissing, source.Span{}, "x")
	d.Data = map[string]string{"section": "users", "heading": "Target Users", "a": "1", "b": "2", "c": "3"}
	first := digest(toProtocolDiagnostics([]diag.Diagnostic{d}))
	for range 50 {
		if got := digest(toProtocolDiagnostics([]diag.Diagnostic{d})); got != first {
			t.Fatalf("digest %s, then %s for the same diagnostic", first, got)
		}
	}
}

// emptyFS is a disk with no files: documents exist only as open documents.
type emptyFS struct{}

func (emptyFS) ReadFile(string) ([]byte, error)       { return nil, fs.ErrNotExist }
func (emptyFS) Stat(string) (fs.FileInfo, error)      { return nil, fs.ErrNotExist }
func (emptyFS) ReadDir(string) ([]fs.DirEntry, error) { return nil, fs.ErrNotExist }
