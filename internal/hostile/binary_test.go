package hostile_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/hostile"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp"
)

// These tests drive the real binary against repositories built to attack
// it. A deadline on each run turns a hang into a failure; it is no timing
// assertion (a passing run takes a fraction of it).
const deadline = 2 * time.Minute

const charterRel = ".pi/charters/auth-rework"

// Opening a charter, `check` and `status` in a repository whose git
// configuration names a program (signature verification, a lazy fetch
// through an ext:: remote, a project folder shaped like a bare repository
// with such a configuration, fsmonitor, pager, textconv, hooks) never run
// it, with the project file turning git freshness on. The git history is
// still read: evidence older than the last commit touching src/ is stale.
func TestGitAttacksRunNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	marker := filepath.Join(t.TempDir(), "ran")
	payload := hostile.Script(t, marker)
	for _, r := range hostile.GitRepos(t, payload) {
		t.Run(r.Name, func(t *testing.T) {
			readable := !strings.Contains(r.Name, "partial clone") // its old trees are missing: no answer
			out, _ := run(t, r.Project, bin, "check", ".")
			if readable && !strings.Contains(out, "stale-evidence") {
				t.Errorf("check: the git history was not read (no stale-evidence):\n%s", out)
			}
			run(t, r.Project, bin, "status", ".", "--freshness", "git", "--format", "json")
			s := startServer(t, bin, r.Project, `{"debounceMs":0}`)
			criteria := filepath.Join(r.Project, charterRel, "criteria.md")
			u := uri.File(criteria)
			s.open(u, read(t, criteria))
			s.waitPublish(u)
			s.hover(u, 4, 6)
			s.shutdownAndExit(0)
			if ran := hostile.Ran(marker); ran != "" {
				t.Fatalf("a program named by the repository ran:\n%s", ran)
			}
		})
	}
}

// A FIFO, a device node, a socket and a folder where charter files and the
// configuration file belong: check, status and record finish, saying
// file-not-regular; the server answers initialize, checks, and exits.
func TestNonRegularFilesNeverBlock(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs")
	}
	bin := testfixture.Server(t)
	project, charter := testfixture.PiProject(t)
	replace := func(name string, make func(p string) error) {
		p := filepath.Join(charter, name)
		os.RemoveAll(p)
		if err := make(p); err != nil {
			t.Fatal(err)
		}
	}
	fifo := func(p string) error { return syscall.Mkfifo(p, 0o644) }
	replace("criteria.md", fifo)
	replace("criterion-state.json", fifo)
	replace("REPORT.md", func(p string) error { return os.Symlink("/dev/zero", p) })
	replace("state.json", func(p string) error { return os.Mkdir(p, 0o755) })
	replace("charter.md", func(p string) error {
		l, err := net.Listen("unix", p)
		if err == nil {
			t.Cleanup(func() { l.Close() })
		}
		return err
	})
	if err := fifo(filepath.Join(project, ".charter-lsp.jsonc")); err != nil {
		t.Fatal(err)
	}
	if err := fifo(filepath.Join(project, "charter.md")); err != nil { // an rp1 charter
		t.Fatal(err)
	}

	out, _ := run(t, project, bin, "check", ".")
	for _, name := range []string{"criteria.md", "criterion-state.json", "REPORT.md", "state.json", "charter.md", ".charter-lsp.jsonc"} {
		if !strings.Contains(out, name) || !strings.Contains(out, "file-not-regular") {
			t.Errorf("check says nothing of %s being no regular file:\n%s", name, out)
		}
	}
	out, _ = run(t, project, bin, "status", ".", "--format", "json")
	if !strings.Contains(out, "named pipe") {
		t.Errorf("status does not report the FIFOs:\n%s", out)
	}
	out, code := run(t, project, bin, "record", "VAL-SESS-002", "--outcome", "pass", "--summary", "s", "--source", "verifier", "--charter", charter)
	if code == 0 || !strings.Contains(out, "not a regular file") {
		t.Errorf("record over a FIFO criterion-state.json: exit %d\n%s", code, out)
	}

	s := startServer(t, bin, project, `{"debounceMs":0}`)
	u := uri.File(filepath.Join(project, "README.md"))
	s.open(uri.File(filepath.Join(charter, "work", "x.md")), "# x\n")
	s.open(u, "# Project Charter: x\n\n## Problem\n")
	s.hover(u, 0, 2)
	s.exit(1) // exit without shutdown: 1, and the process ends
}

// check and status on a charter folder with a 1 GB sparse REPORT.md stay
// under 100 MB peak memory: the file is refused from its size, never read.
func TestSparseReportPeakMemory(t *testing.T) {
	bin := measuringBinary(t)
	project, charter := testfixture.PiProject(t)
	if err := os.Truncate(filepath.Join(charter, "REPORT.md"), 1<<30); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"check", "."}, {"status", "."}} {
		m := runMeasured(t, project, bin, args...)
		out := m.out
		underPeak(t, args[0], m.peak, 0)
		if args[0] == "check" && !strings.Contains(out, "file-too-large") {
			t.Errorf("check says nothing of REPORT.md's size:\n%s", out)
		}
	}
}

// The git bombs — a 300-byte pack whose HEAD is a 9-byte delta on a 512
// MB delta of a 64 KB commit, and a 2.6 MB version 4 index of names that
// add up to 800 MB — cost check (git freshness), status (which asks git
// whether state.json, newer than its lastToolWriteAt, was edited) and the
// server's charter.status under 100 MB peak memory each, and answer.
func TestGitBombsPeakMemory(t *testing.T) {
	bin := measuringBinary(t)
	for name, build := range map[string]func(testing.TB) string{"pack bomb": hostile.PackBomb, "index bomb": hostile.IndexBomb} {
		t.Run(name, func(t *testing.T) {
			project := build(t)
			for _, args := range [][]string{{"check", ".", "--freshness", "git"}, {"status", "."}} {
				m := runMeasured(t, project, bin, args...)
				underPeak(t, args[0], m.peak, m.elapsed)
			}
			s := startServer(t, bin, project, `{"debounceMs":0}`)
			criteria := filepath.Join(project, charterRel, "criteria.md")
			u := uri.File(criteria)
			s.open(u, read(t, criteria))
			s.waitPublish(u)
			start := time.Now()
			arg, _ := json.Marshal(map[string]any{"uri": u})
			if _, err := s.srv.ExecuteCommand(s.ctx, &protocol.ExecuteCommandParams{Command: "charter.status", Arguments: []protocol.LSPAny{arg}}); err != nil {
				t.Errorf("charter.status: %v\n%s", err, s.stderr)
			}
			took := time.Since(start)
			s.shutdownAndExit(0)
			underPeak(t, "serve, charter.status", s.peak(), took)
		})
	}
}

// underPeak logs what a run cost (took, when measured) and fails it past
// 100 MB peak memory.
func underPeak(t *testing.T, what string, peak int64, took time.Duration) {
	t.Helper()
	if peak < 0 {
		t.Errorf("%s: its peak memory was not measured", what)
		return
	}
	t.Logf("%s: peak RSS %d MB, %v", what, peak>>20, took.Round(time.Millisecond))
	if peak > 100<<20 {
		t.Errorf("%s: peak RSS %d MB, want under 100 MB", what, peak>>20)
	}
}

// `record --charter` through a charter folder linked out of the project is
// refused, as the editor's record action is refused outside the workspace,
// and nothing is written where the link leads.
func TestRecordThroughALinkOutOfTheProject(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	project, charter := testfixture.PiProject(t)
	outside := filepath.Join(t.TempDir(), "auth-rework")
	if err := os.Rename(charter, outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, charter); err != nil {
		t.Skip(err)
	}
	before := files(t, outside)
	out, code := run(t, project, bin, "record", "VAL-SESS-002", "--outcome", "pass", "--summary", "s", "--source", "verifier", "--charter", charter)
	if code == 0 || !strings.Contains(out, "outside the project") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if after := files(t, outside); after != before {
		t.Errorf("written through the link:\nbefore %s\nafter  %s", before, after)
	}
}

// run runs the binary in dir and returns its output (stdout, then stderr)
// and exit code.
func run(t *testing.T, dir, bin string, args ...string) (string, int) {
	t.Helper()
	out, errOut, code := runSplit(t, dir, bin, args...)
	return out + errOut, code
}

// runSplit runs the binary in dir and returns its stdout, its stderr and
// its exit code.
func runSplit(t *testing.T, dir, bin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); ctx.Err() != nil {
		t.Fatalf("charter-lsp %s did not finish: %v\n%s%s", strings.Join(args, " "), err, out.String(), errOut.String())
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// files lists every path under root with its size.
func files(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil {
			rel, _ := filepath.Rel(root, p)
			b.WriteString(rel + ":" + strconv.FormatInt(fi.Size(), 10) + " ")
		}
		return nil
	})
	return b.String()
}

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// server is `charter-lsp serve` driven over its stdio.
type server struct {
	t         *testing.T
	ctx       context.Context
	cmd       *exec.Cmd
	stderr    *bytes.Buffer
	conn      jsonrpc2.Conn
	srv       protocol.Server
	published chan protocol.PublishDiagnosticsParams
	peak      func() int64 // the server's peak memory, once it ended
}

func startServer(t *testing.T, bin, root, initOptions string) *server {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, bin, "serve")
	cmd.Dir = root
	s := &server{t: t, ctx: ctx, cmd: cmd, stderr: &bytes.Buffer{}, published: make(chan protocol.PublishDiagnosticsParams, 64)}
	cmd.Stderr = s.stderr
	s.peak = peakOf(t, cmd)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(stdio{stdout, stdin}), jsonrpc2.WithCodec(lsp.Codec{}))
	s.conn.Go(ctx, func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
			var p protocol.PublishDiagnosticsParams
			if protocol.Unmarshal(req.Params(), &p) == nil {
				select {
				case s.published <- p:
				default:
				}
			}
			return nil, nil
		}
		if req.IsCall() {
			return nil, nil // answer the server's requests (registrations, configuration)
		}
		return nil, nil
	})
	s.srv = protocol.ServerDispatcher(s.conn)
	params := &protocol.InitializeParams{InitializationOptions: protocol.LSPAny(initOptions)}
	params.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: "root"}})
	if _, err := s.srv.Initialize(ctx, params); err != nil {
		t.Fatalf("initialize was not answered: %v\n%s", err, s.stderr)
	}
	if err := s.srv.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *server) open(u uri.URI, text string) {
	s.t.Helper()
	if err := s.srv.DidOpen(s.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "markdown", Version: 1, Text: text}}); err != nil {
		s.t.Fatal(err)
	}
}

func (s *server) waitPublish(u uri.URI) {
	s.t.Helper()
	for {
		select {
		case p := <-s.published:
			if p.URI == u {
				return
			}
		case <-s.ctx.Done():
			s.t.Fatalf("no diagnostics for %s\n%s", u, s.stderr)
		}
	}
}

func (s *server) hover(u uri.URI, line, char uint32) {
	s.t.Helper()
	if _, err := s.srv.Hover(s.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: line, Character: char}}}); err != nil {
		s.t.Fatalf("hover: %v\n%s", err, s.stderr)
	}
}

func (s *server) shutdownAndExit(want int) {
	s.t.Helper()
	if err := s.srv.Shutdown(s.ctx); err != nil {
		s.t.Fatalf("shutdown: %v", err)
	}
	s.exit(want)
}

func (s *server) exit(want int) {
	s.t.Helper()
	if err := s.srv.Exit(s.ctx); err != nil {
		s.t.Fatal(err)
	}
	s.cmd.Wait()
	if s.ctx.Err() != nil {
		s.t.Fatalf("the server did not end after exit\n%s", s.stderr)
	}
	if code := s.cmd.ProcessState.ExitCode(); code != want {
		s.t.Errorf("exit code %d, want %d\n%s", code, want, s.stderr)
	}
	s.conn.Close()
}

type stdio struct {
	io.ReadCloser
	w io.WriteCloser
}

func (p stdio) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p stdio) Close() error {
	p.w.Close()
	return p.ReadCloser.Close()
}
