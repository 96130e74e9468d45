package lsp_test

import (
	"flag"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/internal/marker"
)

var update = flag.Bool("update", false, "rewrite the golden sections of testdata/markers with what the server says now")

// TestMarkers runs the language-feature scenarios of testdata/markers (one
// txtar archive each, markers next to the text: see its README.md) through
// a real client connection to an in-process server.
func TestMarkers(t *testing.T) {
	marker.Run(t, "testdata/markers", marker.Options{Update: *update})
}

// TestMarkersBinary runs the archives flagged -binary (a smoke scenario per
// charter family) through the built binary over stdio.
func TestMarkersBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	marker.Run(t, "testdata/markers", marker.Options{Binary: testfixture.Server(t)})
}
