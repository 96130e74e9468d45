package lsp_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/charter-lsp/charter-lsp/lsp"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// repoRoot is the module root (tests run in lsp/).
const repoRoot = ".."

// No shipped code runs a program but the two that run what the user asked
// for — package verify, which runs a criterion's command after the user
// confirmed it verbatim (lsp TestVerify*, cmd TestVerify*), and
// interview/agent, which runs the interview agent the user named in user
// settings only — the git freshness clock reads history with a library
// (analysis/gitlog), it does not run git — and none opens network
// connections: a scan of every non-test Go file's imports and
// process-starting calls.
func TestSourceRunsNoProgramAndOpensNoNetwork(t *testing.T) {
	// Only the packages linked into the charter-lsp binary ship; developer
	// tools (benchmarks, the soak driver) and test helpers may run programs.
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}", "../cmd/charter-lsp").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, _ := filepath.Abs(repoRoot)
	netImports := map[string]bool{"net": true, "net/http": true, "net/rpc": true, "net/smtp": true, "crypto/tls": true}
	fset := token.NewFileSet()
	seen := 0
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(root, dir)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue // a dependency, not ours
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, p := range files {
			if strings.HasSuffix(p, "_test.go") {
				continue
			}
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			// the two packages that run programs, each only what the user asked for
			runs := filepath.ToSlash(filepath.Dir(rel)) == "verify" || filepath.ToSlash(filepath.Dir(rel)) == "interview/agent"
			f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			seen++
			if !runs {
				checkNoExecSyscall(t, fset, p, rel) // os.StartProcess, syscall.Exec, …
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				switch {
				case path == "os/exec" && !runs:
					t.Errorf("%s imports os/exec: the shipped binary runs no program", rel)
				case netImports[path]:
					t.Errorf("%s imports %s: the server opens no network connections", rel, path)
				}
			}
		}
	}
	if seen < 50 {
		t.Fatalf("scanned only %d files: wrong root?", seen)
	}
}

func checkNoExecSyscall(t *testing.T, fset *token.FileSet, path, rel string) {
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Exec" || sel.Sel.Name == "ForkExec" || sel.Sel.Name == "StartProcess") {
			t.Errorf("%s: %s.%s", rel, sel.X, sel.Sel.Name)
		}
		return true
	})
}

// At the default level (info, as `charter-lsp serve` starts) the log never
// holds document text: open, edit, refused edit, requests, close.
func TestLogsHoldNoDocumentText(t *testing.T) {
	const secret = "SECRET-7f3a9-DO-NOT-LOG"
	var buf bytes.Buffer
	var mu syncBuffer
	mu.b = &buf
	core := zapcore.NewCore(zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig()), zapcore.AddSync(&mu), zapcore.InfoLevel)
	c := lsptest.Start(t, lsptest.Config{Options: lsp.Options{Logger: zap.New(core)}, InitializationOptions: map[string]any{"debounceMs": 0}})

	text := "# Charter " + secret + "\n\n## Problem\n" + secret + "\n\n## Scratch Pad\n### Q1: " + secret + "\n**Asked**: " + secret + "\n"
	u := c.Open("charter.md", text)
	c.WaitDiagnostics(u, 1)
	c.Change(u, 2, lsptest.Edit{StartLine: 3, StartChar: 0, EndLine: 3, EndChar: 0, Text: secret})
	c.Change(u, 2, lsptest.Edit{StartLine: 3, StartChar: 0, EndLine: 3, EndChar: 0, Text: secret}) // stale: refused and logged
	c.Replace(u, 3, "{"+secret)
	crit := c.Open(".pi/charters/c/criteria.md", "### VAL-"+secret+"\n- **Verifier:** "+secret+"\n")
	c.WriteFile(".charter-lsp.json", `{"severity":{"`+secret+`":"off"}}`) // an invalid project file
	c.FilesChanged(protocol.FileChangeTypeChanged, ".charter-lsp.json")
	c.Sync()
	for _, d := range []protocol.TextDocumentIdentifier{{URI: u}, {URI: crit}} {
		tdp := protocol.TextDocumentPositionParams{TextDocument: d, Position: protocol.Position{Line: 0, Character: 5}}
		c.Server.Hover(t.Context(), &protocol.HoverParams{TextDocumentPositionParams: tdp})
		c.Server.CodeAction(t.Context(), &protocol.CodeActionParams{TextDocument: d})
		c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: "charter.recordEvidence", Arguments: []protocol.LSPAny{[]byte(`"` + secret + `"`)}})
	}
	c.Close(u)
	c.Shutdown()

	logged := mu.String()
	if !strings.Contains(logged, "didChange refused") && !strings.Contains(logged, "refused") {
		t.Fatalf("nothing of interest was logged (is the logger wired?):\n%s", logged)
	}
	if strings.Contains(logged, secret) {
		t.Errorf("the log holds document text:\n%s", logged)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A symbolic link in a charter directory that leads outside the workspace
// is never read: nothing of the target reaches diagnostics, hover, symbols
// or completion, and definition never points through it.
func TestSymlinksOutOfTheWorkspaceAreNotRead(t *testing.T) {
	const secret = "VAL-OUTSIDE-1"
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "criteria.md"), []byte("### "+secret+"\n- **Verifier:** cat /etc/passwd\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "evidence.json"), []byte(`[{"criterionId":"`+secret+`"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	dir := c.Path(".pi/charters/c")
	if err := os.MkdirAll(filepath.Join(dir, "work/_charter/evidence/2026-01-01T00-00-00-000Z"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"criteria.md": "criteria.md",
		"work/_charter/evidence/2026-01-01T00-00-00-000Z/evidence.json": "evidence.json",
		"work/m1": ".",
	} {
		if err := os.Symlink(filepath.Join(outside, target), filepath.Join(dir, link)); err != nil {
			t.Skipf("symlinks: %v", err)
		}
	}
	text := "# Charter: c\n\n## Objective\n\nx\n\nSee " + secret + " and work/m1/evidence.json and ../../../../" + filepath.Base(outside) + "/criteria.md\n"
	u := c.Open(".pi/charters/c/charter.md", text)
	c.WriteFile(".pi/charters/c/charter.md", text)
	c.Sync()
	var seen []string
	for _, p := range c.Published(u) {
		seen = append(seen, p.Raw)
	}
	doc := protocol.TextDocumentIdentifier{URI: u}
	line := uint32(6)
	for col := uint32(4); col < uint32(len(text)); col += 3 {
		tdp := protocol.TextDocumentPositionParams{TextDocument: doc, Position: protocol.Position{Line: line, Character: col}}
		if h, err := c.Server.Hover(t.Context(), &protocol.HoverParams{TextDocumentPositionParams: tdp}); err == nil && h != nil {
			raw, _ := protocol.Marshal(h)
			seen = append(seen, string(raw))
		}
		if d, err := c.Server.Definition(t.Context(), &protocol.DefinitionParams{TextDocumentPositionParams: tdp}); err == nil && d != nil {
			raw, _ := protocol.Marshal(d)
			if strings.Contains(string(raw), "work/m1") || strings.Contains(string(raw), filepath.Base(outside)) {
				t.Errorf("definition leads through a symlink out of the workspace: %s", raw)
			}
		}
		if l, err := c.Server.Completion(t.Context(), &protocol.CompletionParams{TextDocumentPositionParams: tdp}); err == nil && l != nil {
			raw, _ := protocol.Marshal(l)
			seen = append(seen, string(raw))
		}
	}
	if syms, err := c.Server.Symbols(t.Context(), &protocol.WorkspaceSymbolParams{Query: "VAL"}); err == nil {
		raw, _ := protocol.Marshal(syms)
		seen = append(seen, string(raw))
	}
	for _, s := range seen {
		if strings.Contains(s, "cat /etc/passwd") || strings.Contains(s, "OUTSIDE-1\",") || strings.Contains(s, "Verifier") && strings.Contains(s, secret) {
			t.Errorf("content from outside the workspace reached the client: %s", s)
		}
	}
}
