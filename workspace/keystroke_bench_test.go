package workspace_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/bench/gen"
	"github.com/charter-lsp/charter-lsp/workspace"
)

// benchProject writes a generated pi project once per benchmark and opens
// its criteria.md in a session.
type benchProject struct {
	sess *workspace.Session
	path string
	doc  *workspace.Document
	at   source.Position // end of the middle VAL's "Verifier: command" line
}

func openBench(b *testing.B, p gen.Project) *benchProject {
	b.Helper()
	path, err := p.Write(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	bp := &benchProject{sess: workspace.NewSession(workspace.Options{}), path: path}
	root := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(path))))
	bp.sess.Update(workspace.Change{Roots: &[]string{root}})
	bp.doc = workspace.NewDocument(path, 1, text)
	snap := bp.sess.Update(workspace.Change{Documents: []*workspace.Document{bp.doc}})
	if _, err := snap.Diagnostics(context.Background(), path); err != nil {
		b.Fatal(err)
	}
	lines := bytes.Split(text, []byte("\n"))
	mid := []byte("### " + gen.ID(p.Milestones/2, 0) + " ")
	for i, l := range lines {
		if bytes.HasPrefix(l, mid) {
			for j := i + 1; ; j++ {
				if string(lines[j]) == "Verifier: command" {
					bp.at = source.Position{Line: j, Character: len(lines[j])}
					break
				}
			}
			break
		}
	}
	return bp
}

// keystroke types (or deletes again) one character and returns the new
// snapshot.
func (bp *benchProject) keystroke(b *testing.B) *workspace.Snapshot {
	r := source.Range{Start: bp.at, End: bp.at}
	text := "x"
	if bp.doc.Version%2 == 0 {
		r.End.Character++
		text = ""
	}
	snap := bp.sess.Snapshot()
	next, err := bp.doc.Apply(bp.doc.Version+1, []workspace.TextChange{{Range: r, Text: text}}, snap.File(bp.path).Index())
	if err != nil {
		b.Fatal(err)
	}
	bp.doc = next
	return bp.sess.Update(workspace.Change{Documents: []*workspace.Document{next}})
}

// BenchmarkKeystrokeDiagnostics is the server's work for one keystroke in
// a register, without the protocol: apply the edit, make the snapshot,
// compute the file's diagnostics (checks/op: the files checked per
// keystroke, one); the large register with a short and a
// longer evidence history (with and without criterion-state.json), and a
// realistic one with a long history.
func BenchmarkKeystrokeDiagnostics(b *testing.B) {
	for _, c := range []struct {
		name string
		p    gen.Project
	}{
		{"5000VALs-20runs", gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 20, Sources: 100}},
		{"5000VALs-2500runs", gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 2500, Sources: 100}},
		// criterion-state.json naming every VAL's latest run, as upstream
		// keeps it (780 KB): unchanged by a keystroke in criteria.md.
		{"5000VALs-2500runs-state", gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 2500, Sources: 100, State: true}},
		{"100VALs-20000runs", gen.Project{Milestones: gen.RealisticMilestones, VALs: gen.RealisticVALs, Runs: 20_000, Sources: 100}},
	} {
		b.Run(c.name, func(b *testing.B) {
			bp := openBench(b, c.p)
			b.ReportAllocs()
			before := bp.sess.Checks()
			for b.Loop() {
				snap := bp.keystroke(b)
				if _, err := snap.Diagnostics(context.Background(), bp.path); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(bp.sess.Checks()-before)/float64(b.N), "checks/op")
		})
	}
}

// BenchmarkCancelStops measures how long a cancelled computation goes on:
// it starts a heavy one, cancels it part-way (at a tenth to nine tenths of
// the time it takes uncancelled) and times from cancel until the session
// has no computation in flight (Session.Wait), not until an answer. The
// stop-ms metrics are the median, the 90th percentile and the worst over
// the iterations; on a loaded machine the worst is mostly the wait for a
// CPU.
func BenchmarkCancelStops(b *testing.B) {
	b.Run("check5000VALs", func(b *testing.B) {
		path, err := gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 20, Sources: 100}.Write(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		measureStop(b, func(ctx context.Context, sess *workspace.Session) {
			_, _ = sess.Snapshot().Diagnostics(ctx, path)
		})
	})
	b.Run("load10000Runs", func(b *testing.B) {
		path, err := gen.Project{Milestones: gen.LargeMilestones, VALs: gen.LargeVALs, Runs: 10_000, Sources: 100}.Write(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		measureStop(b, func(ctx context.Context, sess *workspace.Session) {
			_, _ = sess.Snapshot().PiView(ctx, filepath.Dir(path))
		})
	})
}

func measureStop(b *testing.B, work func(context.Context, *workspace.Session)) {
	// How long the work takes when nobody cancels it.
	start := time.Now()
	work(context.Background(), workspace.NewSession(workspace.Options{}))
	full := time.Since(start)
	var stops []time.Duration
	i := 0
	for b.Loop() {
		sess := workspace.NewSession(workspace.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { work(ctx, sess); close(done) }()
		time.Sleep(full * time.Duration(1+i%9) / 10)
		i++
		t := time.Now()
		cancel()
		sess.Wait()
		stops = append(stops, time.Since(t))
		<-done
	}
	slices.Sort(stops)
	at := func(q float64) float64 { return float64(stops[int(q*float64(len(stops)-1))].Microseconds()) / 1000 }
	b.ReportMetric(at(0.5), "stop-ms-p50")
	b.ReportMetric(at(0.9), "stop-ms-p90")
	b.ReportMetric(at(1), "stop-ms-max")
	b.ReportMetric(float64(full.Microseconds())/1000, "uncancelled-ms")
}
