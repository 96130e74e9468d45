package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// A file change the client reports before an edit is part of that edit's
// snapshot: didChangeWatchedFiles is applied in wire order, like text
// synchronisation. Here the handler of the file change is held up — until
// the edit's diagnostics are out, or for a second when the edit cannot be
// read before it — as a busy machine may hold it up. When it ran
// concurrently, the edit was checked without the commit it reported, and
// version 2 was published fresh.
func TestWireFileChangeAppliesBeforeTheNextEdit(t *testing.T) {
	repo := testfixture.FreshEvidenceRepo(t, false)
	rel := testfixture.FreshEvidenceDir + "/criteria.md"
	src, err := os.ReadFile(filepath.Join(repo, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	s := New(Options{})
	editPublished := make(chan struct{})
	real := s.dispatch
	s.dispatch = func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == protocol.MethodWorkspaceDidChangeWatchedFiles {
			select {
			case <-editPublished:
			case <-time.After(time.Second):
			}
		}
		return real(ctx, req)
	}
	c := startRaw(t, s)
	// Dynamic file watching: no look at the disk of its own finds the commit.
	c.call(1, "initialize", fmt.Sprintf(`{"processId":null,"rootUri":%q,"capabilities":{`+
		`"workspace":{"didChangeWatchedFiles":{"dynamicRegistration":true}},`+
		`"textDocument":{"publishDiagnostics":{"versionSupport":true}}},"initializationOptions":{"debounceMs":0}}`, uri.File(repo)))
	c.wantResult("1")
	c.notify("initialized", `{}`)
	u := uri.File(filepath.Join(repo, filepath.FromSlash(rel)))
	c.notify("textDocument/didOpen", fmt.Sprintf(`{"textDocument":{"uri":%q,"languageId":"markdown","version":1,"text":%q}}`, u, src))
	if stale := c.stalePublish(u, 1); stale {
		t.Fatal("version 1 is stale before the commit")
	}

	code := filepath.Join(repo, "src", "api", "export.go")
	if err := os.WriteFile(code, []byte("package api\n\n// Export answers JSON, indented.\nfunc Export() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testfixture.Git(t, repo, "2026-11-13T09:00:00Z", "commit", "-qam", "indent the export")
	c.notify("workspace/didChangeWatchedFiles", fmt.Sprintf(`{"changes":[{"uri":%q,"type":2},{"uri":%q,"type":2}]}`,
		uri.File(code), uri.File(filepath.Join(repo, ".git", "index"))))
	c.notify("textDocument/didChange", fmt.Sprintf(`{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":""}]}`, u))
	stale := c.stalePublish(u, 2)
	close(editPublished)
	if !stale {
		t.Error("version 2, sent after the commit was reported, was published without it (not stale)")
	}
}

// stalePublish waits for the first publish for u at version and reports
// whether it holds a stale-evidence diagnostic.
func (c *rawClient) stalePublish(u uri.URI, version int32) bool {
	c.t.Helper()
	timeout := time.After(wireTimeout)
	for {
		select {
		case m := <-c.msgs:
			if m.Method != protocol.MethodTextDocumentPublishDiagnostics {
				continue
			}
			var p struct {
				URI         uri.URI `json:"uri"`
				Version     int32   `json:"version"`
				Diagnostics []struct {
					Code any `json:"code"`
				} `json:"diagnostics"`
			}
			if err := json.Unmarshal(m.Params, &p); err != nil {
				c.t.Fatal(err)
			}
			if p.URI != u || p.Version != version {
				continue
			}
			for _, d := range p.Diagnostics {
				if d.Code == "stale-evidence" {
					return true
				}
			}
			return false
		case err := <-c.readErr:
			c.t.Fatalf("waiting for the publish of version %d: %v", version, err)
		case <-timeout:
			c.t.Fatalf("no publish for version %d", version)
		}
	}
}
