package marker

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestParseCalls(t *testing.T) {
	calls, err := parseCalls(`diag(re"## Target", section-partial, warning, related=charter.md:re"TBD"), hover(re` + "`\\*\\*A()`" + `, "x", golden) lens(re"x", "3/5 pass")`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range calls {
		var args []string
		for _, a := range c.args {
			args = append(args, a.String())
		}
		for _, k := range sortedKeys(c.named) {
			args = append(args, k+"="+c.named[k].String())
		}
		got = append(got, c.name+"("+strings.Join(args, ", ")+")")
	}
	want := []string{
		`diag(re"## Target", section-partial, warning, related=charter.md:re"TBD")`,
		`hover(re"\\*\\*A()", "x", golden)`,
		`lens(re"x", "3/5 pass")`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("parsed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	for _, bad := range []string{`diag(re"x"`, `diag(re"(")`, `diag("a" "b")`, `diag(a=1, "b")`, `(x)`, `diag(re"\*")`, `diag(a=1, a=2)`} {
		if _, err := parseCalls(bad); err == nil {
			t.Errorf("parseCalls(%s) succeeded", bad)
		}
	}
	if calls, err := parseCalls(`lens(re"x", "t") // a note, (with "anything")`); err != nil || len(calls) != 1 {
		t.Errorf("a // comment after the calls: %v %v", calls, err)
	}
	anchor, calls, err := parseAnchoredCalls(`criterion-state.json:re"VAL-ROLL-001" def(re"VAL-ROLL-001", criteria.md:"### VAL-ROLL-001")`)
	if err != nil || anchor.str != "criterion-state.json" || len(calls) != 1 || calls[0].args[1].kind != kindInFile {
		t.Errorf("anchored: %v %v %v", anchor, calls, err)
	}
	if _, _, err := parseAnchoredCalls(`diag(re"x", y)`); err == nil {
		t.Error("a markers line without a location was accepted")
	}
}

func TestStripMarkers(t *testing.T) {
	text := "# T <!--@a()-->\n" + // trailing: its own line
		"<!--@b()-->\n" + // own line: the next line
		"<!--@c(\n  d)-->\n" + // own lines, spanning two
		"body\n" +
		"\n" +
		"x  <!--@e()--> y\n" + // inside a line
		"<!--@f()-->\n" // at the end: the end of the file
	clean, comments, _, err := stripMarkers(text)
	if err != nil {
		t.Fatal(err)
	}
	if want := "# T\nbody\n\nx y\n"; clean != want {
		t.Errorf("clean = %q, want %q", clean, want)
	}
	var got []string
	for _, c := range comments {
		got = append(got, fmt.Sprintf("%s@%d→%d", strings.Join(strings.Fields(c.body), ""), c.line, c.target))
	}
	if g, w := strings.Join(got, " "), "a()@0→0 b()@1→1 c(d)@2→1 e()@6→3 f()@7→4"; g != w {
		t.Errorf("comments %s, want %s", g, w)
	}
	if _, _, _, err := stripMarkers("x\n<!--@a(\n"); err == nil {
		t.Error("an unclosed marker comment was accepted")
	}
}

func TestMapper(t *testing.T) {
	// é is one UTF-16 unit and two bytes, 🌱 two units and four bytes.
	text := "é🌱 TBD\r\nx\ry"
	m := newMapper(text)
	off := strings.Index(text, "TBD")
	if p := m.position(off); p.Line != 0 || p.Character != 4 {
		t.Errorf("position of TBD = %+v, want 0:4", p)
	}
	if got := m.offset(m.position(off)); got != off {
		t.Errorf("offset(position(%d)) = %d", off, got)
	}
	if p := m.position(strings.Index(text, "y")); p.Line != 2 || p.Character != 0 {
		t.Errorf("a lone CR ends a line: y at %+v", p)
	}
	if m.lineEnd(0) != strings.Index(text, "\r") {
		t.Errorf("lineEnd(0) = %d", m.lineEnd(0))
	}
}

// recorder is a testing.TB that records failures instead of failing, so
// a test can check what the harness reports for a wrong expectation.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}
func (r *recorder) Error(args ...any) { r.Errorf("%s", fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }
func (r *recorder) Failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.errs) > 0
}

// runArchive runs archive text and returns what the harness reported.
func runArchive(t *testing.T, text string, opts Options) (errs []string, file string) {
	t.Helper()
	file = filepath.Join(t.TempDir(), "case.txt")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	test, err := load("case.txt", file)
	if err != nil {
		return []string{err.Error()}, file
	}
	rec := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runTest(rec, test, opts)
	}()
	<-done
	return rec.errs, file
}

const rp1Case = `
-- charter.md --
# Project Charter: Plant Care

## Problem & Context

People kill houseplants because watering is guesswork. Reminders today are manual.

<!--@diag(re"## Target Users", section-empty, warning)-->
## Target Users <!--@hover(re"Target", "EMPTY")-->

TBD <!--@diag(re"TBD()", section-missing, warning), diag(re"TBD()", section-missing, warning), diag(re"TBD()", section-missing, warning)-->
`

// A correct archive passes; each wrong expectation is reported at the
// archive line of its marker, with what the server said instead.
func TestHarnessReportsWrongExpectations(t *testing.T) {
	if errs, _ := runArchive(t, rp1Case, Options{}); len(errs) > 0 {
		t.Fatalf("the correct archive failed:\n%s", strings.Join(errs, "\n"))
	}
	for _, tc := range []struct {
		name, from, to string
		want           []string
	}{
		{"wrong hover", `"EMPTY"`, `"COMPLETE"`, []string{`case.txt:10: hover: the result lacks "COMPLETE"`, "**EMPTY**"}},
		{"wrong code", `section-empty, warning`, `section-missing, warning`,
			[]string{`case.txt:9: diag: no section-missing diagnostic at charter.md:7:1-7:16`, "unexpected diagnostic charter.md:7:1-7:16 warning section-empty"}},
		{"wrong range", `re"## Target Users"`, `re"Target Users"`, []string{"no section-empty diagnostic at charter.md:7:4-7:16", `diag(re` + "`## Target Users`"}},
		{"wrong severity", `section-empty, warning`, `section-empty, error`, []string{"case.txt:9: diag: charter.md:7:1-7:16 warning section-empty", "severity warning"}},
		{"missing diagnostic", `, diag(re"TBD()", section-missing, warning)-->`, `-->`, []string{"unexpected diagnostic charter.md:9:4-9:4 warning section-missing"}},
		{"no match", `hover(re"Target"`, `hover(re"Users!"`, []string{`case.txt:10: hover: no match for re"Users!" on line 7 of charter.md: "## Target Users"`}},
		{"unknown marker", `hover(`, `hovre(`, []string{"case.txt:10: unknown marker hovre"}},
		{"missing golden", `"EMPTY")`, `"EMPTY", partial)`, []string{"golden @partial is missing", "run the tests with -update"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(rp1Case, tc.from, tc.to, 1)
			if text == rp1Case {
				t.Fatalf("%q is not in the archive", tc.from)
			}
			errs, _ := runArchive(t, text, Options{})
			all := strings.Join(errs, "\n")
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("reports lack %q:\n%s", w, all)
				}
			}
		})
	}
}

// -update writes the goldens a marker asks for, and the archive then
// passes as it is.
func TestUpdateWritesGoldens(t *testing.T) {
	text := strings.Replace(rp1Case, `"EMPTY")`, `partial), symbols(outline)`, 1)
	errs, file := runArchive(t, text, Options{Update: true})
	if len(errs) > 0 {
		t.Fatalf("update run: %s", strings.Join(errs, "\n"))
	}
	updated, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"-- @outline --\nProject Charter: Plant Care [charter]", "-- @partial --\n", "**EMPTY**"} {
		if !strings.Contains(string(updated), want) {
			t.Errorf("updated archive lacks %q:\n%s", want, updated)
		}
	}
	if errs, _ := runArchive(t, string(updated), Options{}); len(errs) > 0 {
		t.Errorf("the updated archive fails:\n%s", strings.Join(errs, "\n"))
	}
	// A golden that no marker uses is reported.
	stale := string(updated) + "-- @unused --\nx\n"
	if errs, _ := runArchive(t, stale, Options{}); !strings.Contains(strings.Join(errs, "\n"), "golden @unused is used by no marker") {
		t.Errorf("an unused golden is not reported: %q", errs)
	}
}

// When an action fails, the markers waiting for it are skipped: one error,
// not a cascade, and their goldens are not reported as unused.
func TestFailedActionSkipsWhatWaits(t *testing.T) {
	text := `
-- charter.md --
<!--@codeaction(re"^", "Start the interview", q1)-->
<!--@lens(charter.md:re"### Q1", "Q1 awaits an answer", after=q1)-->
<!--@edit(charter.md:re"Answer..: ()", "x", a1, after=q1)-->
<!--@hover(re"^", a1golden, after=a1)-->
<!--@diag(re"^", section-missing, warning), diag(re"^", section-missing, warning), diag(re"^", section-missing, warning)-->
<!--@diag(re"^", section-missing, warning), diag(re"^", section-missing, warning)-->
-- @a1golden --
x
`
	errs, _ := runArchive(t, text, Options{})
	if len(errs) != 1 || !strings.Contains(errs[0], `no code action "Start the interview"; got "Start charter interview"`) {
		t.Errorf("want one error, for the code action; got:\n%s", strings.Join(errs, "\n"))
	}
}
