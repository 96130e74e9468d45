package workspace_test

import (
	"context"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/vfs"
	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// checkProject checks every charter file under project as `charter-lsp
// check` does: a snapshot of disk, each file and the project file that
// configures it.
func checkProject(t *testing.T, disk vfs.FS, project string) []diag.Diagnostic {
	t.Helper()
	ws, err := analysis.Discover(context.Background(), disk, project)
	if err != nil {
		t.Fatal(err)
	}
	files := append([]string{}, ws.RP1Charters...)
	for _, dir := range ws.PiCharters {
		files = append(files, analysis.PiCharterFiles(disk, dir)...)
	}
	snap := workspace.NewSession(workspace.Options{Disk: disk}).Snapshot()
	seen := map[string]bool{}
	var all []diag.Diagnostic
	for i := 0; i < len(files); i++ {
		ds, err := snap.Diagnostics(context.Background(), files[i])
		if err != nil {
			t.Fatalf("check stopped at %s: %v", files[i], err)
		}
		all = append(all, ds...)
		if cfg, _ := snap.IgnoredProjectKeys(files[i]); cfg != "" && !seen[cfg] {
			seen[cfg] = true
			files = append(files, cfg)
		}
	}
	return all
}

// A cloned repository can put a FIFO, a device node, a socket or a folder
// where a charter file or the configuration file belongs. Each is reported
// as file-not-regular on that file, never opened for a read that would wait
// for a writer (this test would hang), and the rest is checked.
func TestCheckSkipsWhatIsNotARegularFile(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or device nodes")
	}
	project, charter := testfixture.PiProject(t)
	replace := func(name string, make func(p string) error) string {
		p := filepath.Join(charter, name)
		if err := os.RemoveAll(p); err != nil {
			t.Fatal(err)
		}
		if err := make(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := replace("criteria.md", func(p string) error { return syscall.Mkfifo(p, 0o644) })
	device := replace("REPORT.md", func(p string) error { return os.Symlink("/dev/zero", p) })
	folder := replace("criterion-state.json", func(p string) error { return os.Mkdir(p, 0o755) })
	sock := replace("state.json", func(p string) error {
		l, err := net.Listen("unix", p)
		if err == nil {
			t.Cleanup(func() { l.Close() })
		}
		return err
	})
	config := filepath.Join(project, ".charter-lsp.jsonc")
	if err := syscall.Mkfifo(config, 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(project, ".git"), 0o755) // the project root for the config lookup

	ds := checkProject(t, vfs.OS, project)
	notRegular := map[string]string{}
	for _, d := range ds {
		if d.Code == diag.FileNotRegular {
			notRegular[d.File] = d.Message
		}
	}
	for p, kind := range map[string]string{fifo: "named pipe", device: "character device", folder: "folder", sock: "socket", config: "named pipe"} {
		msg, ok := notRegular[p]
		if !ok {
			t.Errorf("%s: no file-not-regular diagnostic; got %v", filepath.Base(p), codes(ds))
			continue
		}
		if !strings.Contains(msg, kind) {
			t.Errorf("%s: message %q does not say it is a %s", filepath.Base(p), msg, kind)
		}
	}
	// The rest of the charter was still checked: charter.md and the
	// evidence runs are regular files with findings of their own.
	if len(ds) <= len(notRegular) {
		t.Errorf("only the unreadable files were reported: %v", codes(ds))
	}
}

// One evidence.json that cannot be read is a diagnostic on that file, and
// every other file of the charter is still checked.
func TestUnreadableEvidenceIsADiagnostic(t *testing.T) {
	project, charter := testfixture.PiProject(t)
	bad := filepath.Join(charter, "work", "_charter", "evidence", "2026-11-10T08-00-00-000Z", "evidence.json")
	disk := failingFS{FS: vfs.OS, path: bad, err: &fs.PathError{Op: "read", Path: bad, Err: syscall.EIO}}
	var unreadable, others int
	for _, d := range checkProject(t, disk, project) {
		switch {
		case d.File == bad && d.Code == diag.FileUnreadable:
			unreadable++
			if !strings.Contains(d.Message, "input/output error") {
				t.Errorf("message %q does not say why", d.Message)
			}
		case d.File != bad:
			others++
		}
	}
	if unreadable != 1 || others == 0 {
		t.Fatalf("want one file-unreadable on the bad run and the rest checked; got %d and %d others", unreadable, others)
	}
}

// A 1 GB sparse REPORT.md is refused from its size wherever it is read:
// as the file checked (file-too-large) and as a sibling read to check
// criteria.md (never loaded).
func TestSparseSiblingIsNeverRead(t *testing.T) {
	project, charter := testfixture.PiProject(t)
	report := filepath.Join(charter, "REPORT.md")
	if err := os.Truncate(report, 1<<30); err != nil {
		t.Fatal(err)
	}
	var tooLarge int
	ds := checkProject(t, vfs.OS, project)
	for _, d := range ds {
		if d.File == report && d.Code == diag.FileTooLarge {
			tooLarge++
		}
	}
	if tooLarge != 1 {
		t.Fatalf("want one file-too-large on REPORT.md: %v", codes(ds))
	}
}

// failingFS fails ReadFile of one path with err.
type failingFS struct {
	vfs.FS
	path string
	err  error
}

func (f failingFS) ReadFile(name string) ([]byte, error) {
	if name == f.path {
		return nil, f.err
	}
	return f.FS.ReadFile(name)
}
