package rp1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/codefence"
	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/internal/jsonenc"
)

// FinalizerResponse is the answer of rp1's charter finalizer (PR #436,
// plugins/dev/agents/charter-interviewer.md; tests/interview-composition.
// test.ts@0c25ba0c asserts "Return exactly one raw JSON object with these
// keys in this order: `status`, `artifact`, `gaps`, `warnings`"). The
// struct's field order is that key order.
type FinalizerResponse struct {
	Status   string   `json:"status"`   // complete, draft or error
	Artifact string   `json:"artifact"` // the exact CHARTER_PATH
	Gaps     []string `json:"gaps"`     // region names in document order
	Warnings []string `json:"warnings"` // never null
}

// Finalizer statuses.
const (
	FinalizerComplete = "complete"
	FinalizerDraft    = "draft"
	FinalizerError    = "error"
)

// finalizerKeys are the keys, in the required order.
var finalizerKeys = []string{"status", "artifact", "gaps", "warnings"}

// Finalize is what a faithful finalizer answers for a charter at artifact:
// the gaps of the skeleton reading, complete only without one, and a warning
// for each thing rp1 will read differently from what the author meant
// (headings it will not find, placeholders it counts as text, a status it
// rewrites). A charter whose scratch pad still holds answers is an error:
// rewriting it as a skeleton would lose them (the finalizer's "parse would
// risk content loss"); migrate it first.
//
// The skeleton reading is Check's for a skeleton charter (checkSkeleton,
// one reading of the regions): a charter of the scratch-pad generation
// (Format), which Check reads by its five sections with no Vision, Will or
// Won't, is an error here too, rather than a second verdict on the same
// file; migrating it makes it a skeleton charter.
func Finalize(ch *Charter, artifact string) FinalizerResponse {
	r := FinalizerResponse{Status: FinalizerComplete, Artifact: artifact, Gaps: []string{}, Warnings: []string{}}
	if ch.Format != FormatSkeleton && len(bytes.TrimSpace(ch.Index.Source())) > 0 {
		r.Status = FinalizerError
		r.Warnings = append(r.Warnings, "the charter is in rp1's scratch-pad format (five sections; charter-lsp check reads it so, with no Vision, Will or Won't regions), not the skeleton the finalizer reads: migrate it first (charter-lsp migrate), or use the stateless interview (--contract stateless)")
		return r
	}
	sk := ReadSkeleton(ch)
	for _, g := range sk.Gaps() {
		r.Gaps = append(r.Gaps, string(g))
	}
	if len(r.Gaps) > 0 {
		r.Status = FinalizerDraft
	}
	if n := len(ch.Answered()); n > 0 {
		r.Status = FinalizerError
		r.Warnings = append(r.Warnings, fmt.Sprintf(
			"the charter holds a ## Scratch Pad with %d answer%s that rp1 no longer reads; rewriting it would lose them: migrate them into their regions first (charter-lsp migrate)", n, plural(n)))
	}
	var f found
	checkSkeleton(ch, sk, &f)
	for _, d := range f.ds {
		switch d.Code {
		case diag.RegionHeadingVariant, diag.PlaceholderVariant, diag.MixedPlaceholder, diag.StatusNoncanonical, diag.StatusMismatch, diag.LegacySections:
			line := ch.Index.Position(d.Span.Start).Line + 1
			r.Warnings = append(r.Warnings, fmt.Sprintf("line %d: %s", line, d.Message))
		}
	}
	return r
}

// MarshalFinalizer writes r as rp1 wants it: one raw JSON object, keys in
// order, no fence, no prose, no trailing newline.
func MarshalFinalizer(r FinalizerResponse) []byte {
	if r.Gaps == nil {
		r.Gaps = []string{}
	}
	if r.Warnings == nil {
		r.Warnings = []string{}
	}
	b, _ := jsonenc.Marshal(r) // strings and slices of strings always encode
	return b
}

// CheckFinalizerAnswer checks a finalizer's raw answer against rp1's
// contract and against want, the answer the charter calls for (Finalize):
// exactly one raw JSON object (no fence, no prose), exactly the four keys in
// order, a known status, the exact artifact path, the gaps in document
// order, string warnings, and never "complete" with gaps. Spans are byte
// offsets into answer; every finding is finalizer-json (an error: it breaks
// the parent's parse or its verification).
func CheckFinalizerAnswer(answer []byte, want FinalizerResponse) []diag.Diagnostic {
	var ds []diag.Diagnostic
	bad := func(span source.Span, format string, args ...any) {
		ds = append(ds, diag.New(diag.FinalizerJSON, span, format, args...))
	}
	trimmed := bytes.TrimSpace(answer)
	start := bytes.Index(answer, trimmed)
	if len(trimmed) == 0 {
		bad(source.Span{}, "The answer is empty; rp1 expects one raw JSON object {\"status\",\"artifact\",\"gaps\",\"warnings\"}.")
		return ds
	}
	if trimmed[0] != '{' {
		end := bytes.IndexByte(trimmed, '{')
		if end < 0 {
			end = len(trimmed)
		}
		what := "text"
		if first, _, _ := bytes.Cut(trimmed, []byte("\n")); codefence.Opens(string(first)) {
			what = "a code fence"
		}
		bad(source.Span{Start: start, End: start + end}, "The answer starts with %s; rp1 parses exactly one raw JSON object, with no fence or prose around it.", what)
		return ds
	}
	dec := json.NewDecoder(bytes.NewReader(answer[start:]))
	dec.UseNumber()
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		bad(source.Span{Start: start, End: start + len(trimmed)}, "The answer is not valid JSON (%v); rp1 cannot parse it.", err)
		return ds
	}
	objEnd := start + int(dec.InputOffset())
	if rest := bytes.TrimSpace(answer[objEnd:]); len(rest) > 0 {
		at := objEnd + bytes.Index(answer[objEnd:], rest)
		bad(source.Span{Start: at, End: at + len(rest)}, "Text follows the JSON object; rp1 parses exactly one raw JSON object and nothing else.")
	}

	// Walk the keys in order, with their offsets.
	keys, values := objectKeys(answer[start:objEnd], start)
	var got FinalizerResponse
	seen := map[string]bool{}
	next := 0
	for i, k := range keys {
		name := k.name
		switch {
		case !isFinalizerKey(name):
			bad(k.span, "Key %q is not part of the finalizer contract (status, artifact, gaps, warnings).", name)
			continue
		case seen[name]:
			bad(k.span, "Key %q appears twice.", name)
			continue
		}
		seen[name] = true
		if want := finalizerKeys[min(next, len(finalizerKeys)-1)]; name != want && next < len(finalizerKeys) {
			bad(k.span, "Key %q comes where %q belongs; rp1 requires the keys in the order status, artifact, gaps, warnings.", name, want)
		}
		next++
		v := values[i]
		switch name {
		case "status":
			if json.Unmarshal(v.raw, &got.Status) != nil || (got.Status != FinalizerComplete && got.Status != FinalizerDraft && got.Status != FinalizerError) {
				bad(v.span, "status must be \"complete\", \"draft\" or \"error\", not %s.", v.raw)
			}
		case "artifact":
			if json.Unmarshal(v.raw, &got.Artifact) != nil {
				bad(v.span, "artifact must be a string: the exact CHARTER_PATH.")
			} else if want.Artifact != "" && got.Artifact != want.Artifact {
				bad(v.span, "artifact %q is not the charter's path %q.", got.Artifact, want.Artifact)
			}
		case "gaps":
			if json.Unmarshal(v.raw, &got.Gaps) != nil || got.Gaps == nil {
				bad(v.span, "gaps must be an array of region names (empty when none).")
			} else if strings.Join(got.Gaps, "\x00") != strings.Join(want.Gaps, "\x00") {
				bad(v.span, "gaps %s do not match the charter's gaps %s (region names in document order).", jsonList(got.Gaps), jsonList(want.Gaps))
			}
		case "warnings":
			if json.Unmarshal(v.raw, &got.Warnings) != nil || got.Warnings == nil {
				bad(v.span, "warnings must be an array of strings (empty when none).")
			}
		}
	}
	for _, k := range finalizerKeys {
		if !seen[k] {
			bad(source.Span{Start: start, End: start + 1}, "Key %q is missing; rp1 requires status, artifact, gaps and warnings.", k)
		}
	}
	if got.Status == FinalizerComplete && len(want.Gaps) > 0 {
		bad(source.Span{Start: start, End: start + 1}, "status is \"complete\" but the charter still has gaps (%s); the parent would keep it Draft.", strings.Join(want.Gaps, ", "))
	}
	diag.Sort(ds)
	return ds
}

func isFinalizerKey(k string) bool {
	for _, f := range finalizerKeys {
		if f == k {
			return true
		}
	}
	return false
}

func jsonList(ss []string) string {
	b, _ := json.Marshal(ss)
	return string(b)
}

type keyAt struct {
	name string
	span source.Span
}

type valueAt struct {
	raw  json.RawMessage
	span source.Span
}

// objectKeys lists the top-level keys of a JSON object (valid JSON) with
// their spans and their values, offsets shifted by base.
func objectKeys(obj []byte, base int) ([]keyAt, []valueAt) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	var keys []keyAt
	var values []valueAt
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil
	}
	for dec.More() {
		before := int(dec.InputOffset())
		t, err := dec.Token()
		if err != nil {
			break
		}
		name, _ := t.(string)
		after := int(dec.InputOffset())
		// the key's quotes lie between before (after the previous value
		// or comma) and after
		ks := before + bytes.IndexByte(obj[before:after], '"')
		keys = append(keys, keyAt{name, source.Span{Start: base + ks, End: base + after}})
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break
		}
		end := int(dec.InputOffset())
		vs := after + bytes.Index(obj[after:end], bytes.TrimSpace(v))
		values = append(values, valueAt{v, source.Span{Start: base + vs, End: base + end}})
	}
	return keys, values
}
