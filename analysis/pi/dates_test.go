package pi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The Date.parse golden file: one JSON array per line, [input, ms] with ms
// the number Node's Date.parse returns under TZ=UTC, or null for NaN. The
// inputs are jsDateCorpus(); JSDATE_GOLDEN_WRITE=1 (with node installed)
// rewrites the file from it, to review before committing.
var jsDateGolden = filepath.Join("testdata", "jsdate", "golden.jsonl")

// jsDateHandPicked are the edge cases, each a rule of V8's parser.
var jsDateHandPicked = []string{
	// The ES date-time string format.
	"2026", "2026-11", "2026-11-01", "2026-11-01T10:00", "2026-11-01T10:00Z", "2026-11-01T10:00:30Z",
	"2026-11-01T10:00:30.5Z", "2026-11-01T10:00:30.123456789Z", "2026-11-01T10:00:30.1234567891234Z",
	"2026-11-01T10:00:30+01:00", "2026-11-01T10:00:30-0130", "2026-11-01T10:00:30+24:00", "2026-11-01T10:00:30+2400",
	"2026-11-01T10:00:30+01", "2026-11-01T10:00:30+1:00", "2026-11-01t10:00z", "2026-11-01T24:00", "2026-11-01T24:00:00.000Z",
	"2026-11-01T24:00:01Z", "2026-11-01T24:01Z", "2026-11-01T24:00:00.001Z", "2026-11-01T25:00Z", "2026-11-01T10:60Z",
	"2026-11-01T10:00:60Z", "2026-11-01T10Z", "2026-11-01T1:00Z", "2026-11-01T10:00:00.Z", "2026-11-01T10:00:00Zjunk",
	"2026-11-01T10:00:00 Z", "2026-11-01 10:00", "2026-11-01 10:00Z", "2026-11-01 10:00 GMT+0100", "2026-11-01Tx",
	"+002026-11-01", "-002026-11-01", "+002026-11-01T00:00:00Z", "-000000-01-01", "+000000-01-01", "+275760-09-13T00:00:00.000Z",
	"+275760-09-13T00:00:00.001Z", "-271821-04-20T00:00:00.000Z", "-271821-04-19T23:59:59.999Z", "+275760-09-13", "+275760-09-14",
	"-271821-04-20", "-271821-04-19", "+999999-01-01", "+20260-11-01", "02026-11-01", "0000-01-01", "9999-12-31",
	"2026-00-01", "2026-13-01", "2026-11-00", "2026-11-32", "2026-02-29", "2024-02-29", "2026-02-30", "2026-04-31", "1900-02-29", "2000-02-29",
	// The legacy parser.
	"2026-11-1", "2026-1-01", "2026/11/01", "2026.11.01", "11/01/2026", "1/2/3", "01-11-2026", "2026 11 01", "20261101", "2026-11-01-05",
	"Nov 2026", "November 2026", "nov 1, 2026", "1 Nov 2026", "Nov 1 2026 10:30", "Nov 1 2026 10:30:15.25", "Nov 1 2026 10:30 pm",
	"Nov 1 2026 10pm", "Nov 1 2026 10:30 am", "Nov 1 2026 12:30 am", "Nov 1 2026 13:30 pm", "Nov 1 2026 0:30 pm", "Nov 5", "5 Nov",
	"Novembre 5 2026", "Nov-05-2026", "2026-Nov-05", "Sun, 01 Nov 2026 10:00:00 GMT", "Sunday, 01-Nov-26 10:00:00 GMT",
	"Sun Nov 01 2026 10:00:00 GMT+0100 (Central European Standard Time)", "Sun Nov 01 2026", "Sun Nov 01 2026 10:00:00 GMT-8",
	"Nov 1 2026 10:00 EST", "Nov 1 2026 10:00 PDT", "Nov 1 2026 10:00 UT", "Nov 1 2026 10:00 UTC+5", "Nov 1 2026 10:00 z",
	"Nov 1 2026 10:00 +05:30", "Nov 1 2026 10:00 +530", "Nov 1 2026 10:00 -12345", "Nov 1 2026 10:00 GMT+", "Nov 1 2026 GMT+0100",
	"Nov 1 2026 10:00 GMT+596523:00", "Nov 1 2026 10:00 GMT+596524:00", "Nov 1 2026 10:00 GMT+1193047:00", "Nov 1 2026 10:00 GMT+298263:00",
	"Nov 1 2026 10::", "Nov 1 2026 10:: 30", "Nov 1 2026 10:30:15:20", "Nov 1 2026 10:30:15:20:10", "Nov 1 2026 10.30", "Nov 1 2026 10:30.5",
	"Nov 1 2026 10:30x", "Nov 1 2026 (a note) 10:30", "Nov 1 2026 (unclosed", "(Nov) 1 2026", "Nov 1 2026)", "Nov 1 2026 +", "+Nov 1 2026",
	"1", "12", "13", "31", "32", "49", "50", "99", "100", "0", "00", "2026", "123456789", "1234567890", "99999999999",
	"Nov", "T", "Z", "am", "GMT", "x2026", "x 2026", "since 2026-01-01", "since2026", "2026 since", "2026-11-01 then",
	"mon 2026", "Tue, 2026", "Tuesday 1 2026", "Jun 31 2026", "Feb 30 2026", "Jan 0 2026", "Jan 32 2026", "32 Jan 2026",
	"2026-11-01\x00garbage", "\x002026", "Nov\u00a02026", "2026\u00a011", "2026-11-01\u2028", "\u00e92026", "é 2026", "Ñov 2026",
	"2026-11-01T10:00:00\u00a0Z", "2026\t11\t01", "2026\n11\n01", "  2026-11-01", "2026-11-01  ",
	"", " ", "-", "+", ".", ":", "()", "tomorrow", "today", "now", "TBD", "n/a", "null", "undefined", "NaN", "Infinity",
	"2026-11-01T10:00:00+01:00:00", "2026-11-01T10:00:00+01:0", "2026-11-01T10:00:00-00:00", "2026-11-01T10:00:00+23:59", "2026-11-01T10:00:00+23:60",
	"2026-W44", "2026-305", "2026-11-01T10:00:00,5Z", "2026-11-01T10", "2026-11-01T", "2026-11-01T10:00:00.123+01:00",
	"Nov 1 2026 10:00:00.1234", "Nov 1 2026 24:00", "Nov 1 2026 24:01", "Nov 1 2026 23:59:59.999", "Nov 1 2026 12 am",
	"1 2 3 4", "1-2-3", "1-2", "1 2", "2026-11", "11-2026", "Nov 2026 1 2", "2026 Nov 1", "1 2026 Nov", "Nov 1 Dec 2 2026",
	"10:30", "10:30 Nov 1 2026", "10:30 2026-11-01", "2026-11-01 10:30:00 +0000", "2026-11-01 10:30:00 UTC", "2026-11-01 UTC",
	"0000000001234567891", "000000000000002026", "00002026", "0000000001 Nov 2026", "Nov 01234567890 2026", "2026\u2029", "\u2028 2026",
	"\ufeff2026-11-01", "2026\u30001\u30001", "2026-11-01\u3000", "\u00a0", "2026-11-01\u200b", "UTC 2026-11-01", "GMT 1 2026", "2026-11-01 GMT-0500", "2026-11-01 EST", "Nov 1 2026 10:00 GMT+05:30:15",
}

// jsDateCorpus is every input of the golden file: the hand-picked cases and
// seeded random strings from the pieces V8's tokenizer tells apart.
func jsDateCorpus() []string {
	out := append([]string{}, jsDateHandPicked...)
	r := rand.New(rand.NewPCG(2026, 11))
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + r.IntN(10)))
		}
		return b.String()
	}
	words := []string{"Nov", "nov", "NOVEMBER", "Novx", "Jan", "janvier", "Ma", "Mar", "Sep", "Sept", "Dec", "am", "pm", "AM", "a.m.",
		"GMT", "UTC", "UT", "utcx", "Z", "z", "T", "t", "EST", "pdt", "cst", "since", "x", "on", "Sun", "Monday", "é", "Ñov", "_", "[", "~"}
	seps := []string{" ", " ", "-", "/", ".", ":", ",", "+", "-", "T", "  ", "\t", "(", ")", "(x)", "::", "\u00a0", "'"}
	number := func() string {
		switch r.IntN(6) {
		case 0:
			return digits(4)
		case 1:
			return fmt.Sprintf("%02d", r.IntN(40))
		case 2:
			return fmt.Sprint(r.IntN(32))
		case 3:
			return digits(1 + r.IntN(3))
		case 4:
			return digits(6)
		default:
			return digits(1 + r.IntN(10))
		}
	}
	// Random token soups.
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(7) {
			switch r.IntN(3) {
			case 0:
				b.WriteString(number())
			case 1:
				b.WriteString(pick(words))
			default:
				b.WriteString(pick(seps))
			}
		}
		out = append(out, b.String())
	}
	// Well-formed dates, ISO and legacy, with random values.
	for range 700 {
		y, mo, d := 1900+r.IntN(200), 1+r.IntN(13), r.IntN(33)
		h, mi, s := r.IntN(26), r.IntN(62), r.IntN(62)
		month := pick([]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"})
		out = append(out, pick([]string{
			fmt.Sprintf("%04d-%02d-%02d", y, mo, d),
			fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h, mi, s),
			fmt.Sprintf("%04d-%02d-%02dT%02d:%02d", y, mo, d, h, mi),
			fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d.%sZ", y, mo, d, h, mi, s, digits(1+r.IntN(5))),
			fmt.Sprintf("%04d-%02d-%02dT%02d:%02d:%02d%s%02d:%02d", y, mo, d, h, mi, s, pick([]string{"+", "-"}), r.IntN(26), r.IntN(62)),
			fmt.Sprintf("%04d-%d-%d", y, mo, d),
			fmt.Sprintf("%d/%d/%d", mo, d, y),
			fmt.Sprintf("%04d/%02d/%02d %d:%02d", y, mo, d, h, mi),
			fmt.Sprintf("%s %d %d", month, d, y),
			fmt.Sprintf("%d %s %d %d:%02d:%02d GMT%s%02d%02d", d, month, y, h, mi, s, pick([]string{"+", "-"}), r.IntN(15), r.IntN(60)),
			fmt.Sprintf("%s %d", month, y),
			fmt.Sprintf("%d %s", d, month),
			fmt.Sprintf("%s %d %d %d:%02d %s", month, d, y, r.IntN(14), mi, pick([]string{"am", "pm", "AM", "PM"})),
			fmt.Sprintf("%s%06d-%02d-%02d", pick([]string{"+", "-"}), r.IntN(300000), mo, d),
		}))
	}
	// One-character mutations of well-formed dates.
	bases := []string{"2026-11-01", "2026-11-01T10:00:00Z", "2026-11-01T10:00:00.000+01:00", "Nov 1 2026 10:00 GMT+0100", "+002026-11-01T10:00"}
	alphabet := "0123456789-+:.TZ /()aAnN\u00a0"
	for range 800 {
		b := []rune(pick(bases))
		i := r.IntN(len(b) + 1)
		c := []rune(alphabet)[r.IntN(len([]rune(alphabet)))]
		switch r.IntN(3) {
		case 0:
			if i < len(b) {
				b = append(b[:i], b[i+1:]...)
			}
		case 1:
			b = append(b[:i], append([]rune{c}, b[i:]...)...)
		default:
			if i < len(b) {
				b[i] = c
			}
		}
		out = append(out, string(b))
	}
	seen := map[string]bool{}
	uniq := out[:0]
	for _, s := range out {
		if !seen[s] {
			seen[s] = true
			uniq = append(uniq, s)
		}
	}
	return uniq
}

type jsDateCase struct {
	in string
	ms *int64 // nil for NaN
}

func readJSDateGolden(t *testing.T) []jsDateCase {
	t.Helper()
	b, err := os.ReadFile(jsDateGolden)
	if err != nil {
		t.Fatalf("%v (JSDATE_GOLDEN_WRITE=1 with node installed writes it)", err)
	}
	var out []jsDateCase
	for i, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var row [2]json.RawMessage
		if err := json.Unmarshal(line, &row); err != nil {
			t.Fatalf("%s:%d: %v", jsDateGolden, i+1, err)
		}
		var c jsDateCase
		if err := json.Unmarshal(row[0], &c.in); err != nil {
			t.Fatalf("%s:%d: %v", jsDateGolden, i+1, err)
		}
		if err := json.Unmarshal(row[1], &c.ms); err != nil {
			t.Fatalf("%s:%d: %v", jsDateGolden, i+1, err)
		}
		out = append(out, c)
	}
	return out
}

func msString(ms *int64) string {
	if ms == nil {
		return "NaN"
	}
	return fmt.Sprint(*ms)
}

// TestJSDateGolden checks ParseJSDate against Node's verdicts.
func TestJSDateGolden(t *testing.T) {
	cases := readJSDateGolden(t)
	if len(cases) < 3000 {
		t.Fatalf("golden file holds %d cases", len(cases))
	}
	inGolden := map[string]bool{}
	bad := 0
	for _, c := range cases {
		inGolden[c.in] = true
		d, ok := ParseJSDate(c.in)
		var got *int64
		if ok {
			got = &d.Ms
		}
		if msString(got) != msString(c.ms) {
			bad++
			if bad <= 20 {
				t.Errorf("Date.parse(%q) = %s in Node, %s here", c.in, msString(c.ms), msString(got))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d disagree", bad, len(cases))
	}
	for _, s := range jsDateCorpus() {
		if !inGolden[s] {
			t.Fatalf("corpus case %q is not in %s; regenerate it with JSDATE_GOLDEN_WRITE=1", s, jsDateGolden)
		}
	}
}

// nodeDateParse runs Date.parse in node (TZ=UTC) on every input.
func nodeDateParse(t *testing.T, node string, inputs []string) []*int64 {
	t.Helper()
	var in bytes.Buffer
	for _, s := range inputs {
		b, _ := json.Marshal(s)
		in.Write(b)
		in.WriteByte('\n')
	}
	const script = `const lines = require("fs").readFileSync(0, "utf8").split("\n").filter(Boolean);
process.stdout.write(lines.map(l => { const v = Date.parse(JSON.parse(l)); return Number.isNaN(v) ? "null" : String(v); }).join("\n") + "\n");`
	cmd := exec.Command(node, "-e", script)
	cmd.Env = append(os.Environ(), "TZ=UTC")
	cmd.Stdin = &in
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var res []*int64
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var v *int64
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("node output %q: %v", sc.Text(), err)
		}
		res = append(res, v)
	}
	if len(res) != len(inputs) {
		t.Fatalf("node answered %d of %d", len(res), len(inputs))
	}
	return res
}

// TestJSDateGoldenAgainstNode re-verifies the golden file with the node on
// this machine, so a golden file that no longer says what Node does fails.
func TestJSDateGoldenAgainstNode(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	if os.Getenv("JSDATE_GOLDEN_WRITE") == "1" {
		corpus := jsDateCorpus()
		res := nodeDateParse(t, node, corpus)
		var b bytes.Buffer
		for i, s := range corpus {
			in, _ := json.Marshal(s)
			ms, _ := json.Marshal(res[i])
			fmt.Fprintf(&b, "[%s,%s]\n", in, ms)
		}
		if err := os.WriteFile(jsDateGolden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := readJSDateGolden(t)
	inputs := make([]string, len(cases))
	for i, c := range cases {
		inputs[i] = c.in
	}
	res := nodeDateParse(t, node, inputs)
	bad := 0
	for i, c := range cases {
		if msString(res[i]) != msString(c.ms) {
			bad++
			if bad <= 20 {
				t.Errorf("node says Date.parse(%q) = %s, the golden file %s", c.in, msString(res[i]), msString(c.ms))
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d golden cases disagree with %s", bad, len(cases), node)
	}
}

func TestJSDateReading(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // ISO time and flags
	}{
		{"2026-11-01", "2026-11-01T00:00:00.000Z iso"},
		{"2026-11-01T10:00", "2026-11-01T10:00:00.000Z iso local"},
		{"2026-11-1", "2026-11-01T00:00:00.000Z local"},
		{"Nov 2026", "2026-11-01T00:00:00.000Z local"},
		{"2026-02-30", "2026-03-02T00:00:00.000Z iso rolled"},
		{"1", "2001-01-01T00:00:00.000Z local two-digit-year"},
		{"+002026-11-01", "2026-11-01T00:00:00.000Z iso"},
		{"Nov 1 2026 10:00 GMT+0100", "2026-11-01T09:00:00.000Z"},
	} {
		d, ok := ParseJSDate(tc.in)
		if !ok {
			t.Errorf("%q: not a date", tc.in)
			continue
		}
		got := d.Time().Format("2006-01-02T15:04:05.000Z")
		for flag, on := range map[string]bool{"iso": d.ISO, "local": d.Local, "rolled": d.Rolled, "two-digit-year": d.TwoDigitYear} {
			if on {
				got += " " + flag
			}
		}
		if !sameWords(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func sameWords(a, b string) bool {
	set := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(s) {
			m[w] = true
		}
		return m
	}
	x, y := set(a), set(b)
	if len(x) != len(y) {
		return false
	}
	for w := range x {
		if !y[w] {
			return false
		}
	}
	return true
}

// FuzzParseJSDate: any string parses or not without panicking, within
// TimeClip's range, and ParseTime agrees.
func FuzzParseJSDate(f *testing.F) {
	for _, s := range jsDateHandPicked {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseJSDate(s)
		if _, tok := ParseTime(s); tok != ok {
			t.Fatalf("ParseTime and ParseJSDate disagree on %q", s)
		}
		if ok && (d.Ms < -864e13 || d.Ms > 864e13) {
			t.Fatalf("%q: %d outside the time range", s, d.Ms)
		}
	})
}
