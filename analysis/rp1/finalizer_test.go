package rp1

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// TestFinalize: the expected finalizer answer of the corpus's skeletons.
func TestFinalize(t *testing.T) {
	cases := []struct{ file, want string }{
		{"testdata/corpus/skeleton-complete.md", `{"status":"complete","artifact":"/p/.rp1/context/charter.md","gaps":[],"warnings":[]}`},
		{"testdata/corpus/skeleton-new.md", `{"status":"draft","artifact":"/p/.rp1/context/charter.md","gaps":["Vision","Problem & Context","Target Users","Business Rationale","Scope Guardrails / Will","Scope Guardrails / Won't","Success Criteria"],"warnings":[]}`},
		{"testdata/corpus/skeleton-single-dispatch.md", `{"status":"complete","artifact":"/p/.rp1/context/charter.md","gaps":[],"warnings":["line 4: **Status** \"{Draft | Complete}\" is not one of rp1's values (Draft or Complete), so rp1 rewrites it; no required region is a gap, so set it to Complete."]}`},
	}
	for _, c := range cases {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(MarshalFinalizer(Finalize(Parse(src), "/p/.rp1/context/charter.md"))); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.file, got, c.want)
		}
	}
	// A scratch pad with answers: rewriting would lose them.
	src, _ := os.ReadFile("testdata/legacy-scratch-pad.md")
	if r := Finalize(Parse(src), "c.md"); r.Status != FinalizerError || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "migrate") {
		t.Errorf("legacy pad: %+v", r)
	}
}

// TestCheckFinalizerAnswer: finalizer-json's triggers, each with its near
// miss (the same answer, right).
func TestCheckFinalizerAnswer(t *testing.T) {
	want := FinalizerResponse{Status: FinalizerDraft, Artifact: "/p/.rp1/context/charter.md", Gaps: []string{"Vision"}, Warnings: []string{}}
	ok := `{"status":"draft","artifact":"/p/.rp1/context/charter.md","gaps":["Vision"],"warnings":[]}`
	cases := []struct {
		name, answer, finding string // finding: "" for a near miss with no finding
	}{
		{"the answer itself", ok, ""},
		{"with spaces and a final newline", "\n  " + strings.ReplaceAll(ok, ",", ", ") + "\n", ""},
		{"pretty-printed", "{\n  \"status\": \"draft\",\n  \"artifact\": \"/p/.rp1/context/charter.md\",\n  \"gaps\": [\"Vision\"],\n  \"warnings\": [\"line 3: note\"]\n}", ""},
		{"a code fence", "```json\n" + ok + "\n```", "starts with a code fence"},
		{"a tilde fence", "~~~json\n" + ok + "\n~~~", "starts with a code fence"},
		{"prose before", "Here is the result: " + ok, "starts with text"},
		{"prose after", ok + "\nDone.", "Text follows the JSON object"},
		{"keys out of order", `{"status":"draft","gaps":["Vision"],"artifact":"/p/.rp1/context/charter.md","warnings":[]}`, `Key "gaps" comes where "artifact" belongs`},
		{"an extra key", strings.Replace(ok, `,"warnings"`, `,"next_question":"x","warnings"`, 1), `Key "next_question" is not part`},
		{"a missing key", `{"status":"draft","artifact":"/p/.rp1/context/charter.md","gaps":["Vision"]}`, `Key "warnings" is missing`},
		{"complete with gaps", strings.Replace(ok, `"draft"`, `"complete"`, 1), `status is "complete" but the charter still has gaps`},
		{"an unknown status", strings.Replace(ok, `"draft"`, `"Draft"`, 1), `status must be`},
		{"another artifact", strings.Replace(ok, `/p/.rp1/context/charter.md`, `charter.md`, 1), `is not the charter's path`},
		{"gaps out of document order", strings.Replace(ok, `["Vision"]`, `["Target Users","Vision"]`, 1), `do not match the charter's gaps`},
		{"null warnings", strings.Replace(ok, `"warnings":[]`, `"warnings":null`, 1), `warnings must be an array`},
		{"not JSON", `{"status":"draft",}`, `not valid JSON`},
		{"empty", "", `The answer is empty`},
	}
	for _, c := range cases {
		ds := CheckFinalizerAnswer([]byte(c.answer), want)
		switch {
		case c.finding == "" && len(ds) > 0:
			t.Errorf("%s: unexpected %s", c.name, ds[0].Message)
		case c.finding != "" && (len(ds) == 0 || !strings.Contains(ds[0].Message, c.finding)):
			t.Errorf("%s: want %q, got %+v", c.name, c.finding, ds)
		}
		for _, d := range ds {
			if d.Code.String() != "finalizer-json" || d.Span.End > len(c.answer) || d.Span.Start > d.Span.End {
				t.Errorf("%s: bad diagnostic %+v", c.name, d)
			}
		}
	}
	// The span points at the offending key.
	ans := `{"status":"draft","gaps":["Vision"],"artifact":"/p/.rp1/context/charter.md","warnings":[]}`
	d := CheckFinalizerAnswer([]byte(ans), want)[0]
	if got := ans[d.Span.Start:d.Span.End]; got != `"gaps"` {
		t.Errorf("span %q", got)
	}
	// What Finalize prints passes its own check.
	src, _ := os.ReadFile("testdata/corpus/skeleton-hand-edited.md")
	r := Finalize(Parse(src), "/p/c.md")
	if ds := CheckFinalizerAnswer(MarshalFinalizer(r), r); len(ds) != 0 {
		t.Errorf("Finalize's own answer fails: %+v", ds)
	}
}

// TestVisionOneVerdict: check and the finalizer contract read a charter
// without "## Vision" the same way: as a skeleton charter, both report the
// Vision gap (and the status it calls for); as a five-section charter,
// neither does (the finalizer answers error and says to migrate).
func TestVisionOneVerdict(t *testing.T) {
	corpus, err := os.ReadFile("testdata/corpus/front-matter-will-wont.md")
	if err != nil {
		t.Fatal(err)
	}
	skeletonBytes, err := os.ReadFile("testdata/skeleton-no-vision.md")
	if err != nil {
		t.Fatal(err)
	}
	skeleton := string(skeletonBytes)
	for _, c := range []struct{ name, text string }{
		{"a skeleton charter without Vision, stored Complete", skeleton},
		{"the same with a one-line header", strings.Replace(skeleton, "**Created**: 2026-07-20\n**Status**: Complete", "**Created**: 2026-07-20 | **Status**: Complete", 1)},
		{"a five-section charter with front matter and ### Will / ### Won't (corpus)", string(corpus)},
		{"a five-section charter without Vision", "# Project Charter: x\n\n**Version**: 1.0.0\n**Status**: Complete\n\n## Problem & Context\nA. B.\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ch := Parse([]byte(c.text))
			var checkSays []string
			for _, d := range Check(ch, Options{RP1Style: true}) {
				if d.Data["region"] == string(RegionVision) || d.Code == diag.StatusMismatch || d.Code == diag.StatusNoncanonical {
					checkSays = append(checkSays, d.Code.String())
				}
			}
			fin := Finalize(ch, "/p/.rp1/context/charter.md")
			finSays := slices.Contains(fin.Gaps, string(RegionVision))
			if (len(checkSays) > 0) != finSays {
				t.Fatalf("two verdicts on Vision: check %v, finalizer %+v", checkSays, fin)
			}
			if finSays && (fin.Status != FinalizerDraft || !(slices.Contains(checkSays, "status-mismatch") || slices.Contains(checkSays, "status-noncanonical"))) {
				t.Errorf("a Vision gap keeps the charter Draft in both: check %v, finalizer %+v", checkSays, fin)
			}
			if !finSays && ch.Format != FormatSkeleton && fin.Status != FinalizerError {
				t.Errorf("the finalizer on a five-section charter: %+v", fin)
			}
		})
	}
}
