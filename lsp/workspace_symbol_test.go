package lsp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// workspace/symbol superseded by the next query as the user types stops
// even when every charter view it needs is computed already (a computed
// view comes back whatever the context says). The client gives up before
// sending a request whose context is done, so the handler is called.
func TestWorkspaceSymbolStopsWhenCancelled(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{})
	for _, id := range []string{"A", "B"} {
		c.WriteFile(".pi/charters/"+id+"/criteria.md", "# Criteria\n\n## M1\n\n### VAL-"+id+"-001: exports rows\n- **Verifier:** manual\n")
	}
	c.FilesChanged(protocol.FileChangeTypeCreated, ".pi/charters/A/criteria.md", ".pi/charters/B/criteria.md")
	res, err := c.Server.Symbols(t.Context(), &protocol.WorkspaceSymbolParams{Query: "val"})
	if err != nil || strings.Count(fmt.Sprint(res), "VAL-") != 2 {
		t.Fatalf("workspace/symbol = %v, %v; want both VALs", res, err)
	}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	if res, err := c.LSP.Symbols(cancelled, &protocol.WorkspaceSymbolParams{Query: "val"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled workspace/symbol = %v, %v; want context.Canceled", res, err)
	}
}
