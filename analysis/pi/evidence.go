package pi

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// EvidenceRow is one row of an evidence.json file: the typed fields hold
// its string properties, SchemaProblems what upstream's schema says of the
// whole object, and the spans where diagnostics point. A history holds a
// hundred thousand runs, so the object itself is not kept.
type EvidenceRow struct {
	Span source.Span // the object
	// IDSpan, SourceSpan and BecauseSpan are the values of criterionId,
	// source and because (the last of each, as JSON.parse reads them);
	// empty when the property is absent.
	IDSpan, SourceSpan, BecauseSpan source.Span

	CriterionID   string
	Outcome       Outcome
	Summary       string
	TS            string
	CharterID     string
	FeatureID     string
	Because       string
	Source        Source
	RecordedBy    string
	NarrativePath string

	schema []JSONProblem // SchemaProblems, found when the row was read
}

// Time is the row's ts; ok is false when it does not parse.
func (r *EvidenceRow) Time() (time.Time, bool) { return ParseTime(r.TS) }

// Evidence row properties (upstream's schema; no others are allowed).
var (
	evidenceRequired = []string{"criterionId", "outcome", "summary", "ts"}
	evidenceTypes    = map[string]string{
		"criterionId": "string", "outcome": "string", "summary": "string", "ts": "string",
		"charterId": "string", "featureId": "string", "because": "string", "artifacts": "array",
		"details": "object", "source": "string", "recordedBy": "string", "narrativePath": "string",
		"verifier": "string|object",
	}
)

// EvidenceProperties lists the allowed property names, required first.
func EvidenceProperties() []string {
	return []string{"criterionId", "outcome", "summary", "ts", "charterId", "featureId", "because",
		"artifacts", "details", "source", "recordedBy", "narrativePath", "verifier"}
}

// ParseEvidence reads an evidence.json file: one row object or an array of
// them. Unreadable JSON and non-object rows come back as problems (code
// json-invalid or evidence-invalid); schema checks are SchemaProblems'.
func ParseEvidence(src []byte) ([]EvidenceRow, []JSONProblem) {
	return parseEvidence(src, nil)
}

// parseEvidence is ParseEvidence; strings repeated from run to run (ids,
// outcomes, sources, recorders, property names) are taken from in when it
// is not nil, so a long history holds each once.
func parseEvidence(src []byte, in *interner) ([]EvidenceRow, []JSONProblem) {
	span, p := checkJSON(src)
	if p != nil {
		return nil, []JSONProblem{*p}
	}
	var spans []source.Span
	switch src[span.Start] {
	case '{':
		spans = []source.Span{span}
	case '[':
		var err error
		if spans, err = readArray(src, span); err != nil {
			return nil, []JSONProblem{{Span: span, Message: "invalid JSON: " + err.Error(), Code: diag.JSONInvalid}}
		}
	default:
		return nil, []JSONProblem{{Span: span, Message: "evidence.json must hold a row object or an array of rows, found " + jsonType(src[span.Start:span.End]), Code: diag.EvidenceInvalid}}
	}
	var rows []EvidenceRow
	var problems []JSONProblem
	for i, s := range spans {
		if src[s.Start] != '{' {
			problems = append(problems, JSONProblem{Span: s, Message: fmt.Sprintf("row %d is a JSON %s, not an evidence object", i+1, jsonType(src[s.Start:s.End])), Code: diag.EvidenceInvalid})
			continue
		}
		obj, err := readObject(src, s)
		if err != nil {
			problems = append(problems, JSONProblem{Span: s, Message: "invalid JSON: " + err.Error(), Code: diag.JSONInvalid})
			continue
		}
		row := EvidenceRow{
			Span: s, IDSpan: valueSpan(obj, "criterionId"), SourceSpan: valueSpan(obj, "source"), BecauseSpan: valueSpan(obj, "because"),
			CriterionID: in.str(obj.Str("criterionId")), Outcome: Outcome(in.str(obj.Str("outcome"))), Summary: obj.Str("summary"),
			TS: obj.Str("ts"), CharterID: in.str(obj.Str("charterId")), FeatureID: in.str(obj.Str("featureId")),
			Because: obj.Str("because"), Source: Source(in.str(obj.Str("source"))), RecordedBy: in.str(obj.Str("recordedBy")),
			NarrativePath: obj.Str("narrativePath"),
		}
		row.schema = schemaProblems(obj)
		rows = append(rows, row)
	}
	return rows, problems
}

var subagentRecorder = regexp.MustCompile(`^subagent:[^:\s]+:\S+$`)

// SchemaProblems checks r against upstream's evidence schema: required
// properties, no extra properties, property types, outcome, ISO ts, source,
// recordedBy shape and a relative narrativePath. Each problem has code
// evidence-invalid and sits on the offending key or value.
func (r *EvidenceRow) SchemaProblems() []JSONProblem { return r.schema }

// HasBecause reports whether the row has a because property.
func (r *EvidenceRow) HasBecause() bool { return r.BecauseSpan != source.Span{} }

func valueSpan(o *JSONObject, name string) source.Span {
	if m := o.Get(name); m != nil {
		return m.ValueSpan
	}
	return source.Span{}
}

func schemaProblems(obj *JSONObject) []JSONProblem {
	var out []JSONProblem
	add := func(span source.Span, format string, args ...any) {
		out = append(out, JSONProblem{Span: span, Message: fmt.Sprintf(format, args...), Code: diag.EvidenceInvalid})
	}
	for _, name := range evidenceRequired {
		if obj.Get(name) == nil {
			add(obj.openSpan(), "evidence row lacks the required property %q; add it", name)
		}
	}
	for i := range obj.Members {
		m := &obj.Members[i]
		want, known := evidenceTypes[m.Name]
		if !known {
			add(m.KeySpan, "property %q is not allowed in an evidence row (upstream's schema forbids extra properties); remove it or move it under \"details\"", m.Name)
			continue
		}
		if !strings.Contains(want, m.Type()) {
			add(m.ValueSpan, "property %q must be a %s, not a %s", m.Name, strings.ReplaceAll(want, "|", " or "), m.Type())
			continue
		}
		v, _ := m.String()
		switch m.Name {
		case "outcome":
			if !Outcome(v).Valid() {
				add(m.ValueSpan, "outcome %q is not pass, fail or partial", v)
			}
		case "ts":
			if !IsISOTime(v) {
				add(m.ValueSpan, "ts %q is not an ISO 8601 time (e.g. 2026-05-15T03:00:00.000Z)", v)
			}
		case "source":
			if !Source(v).Valid() {
				add(m.ValueSpan, "source %q is not manual, verifier or subagent", v)
			}
		case "recordedBy":
			if v != "user" && v != "agent:root" && !subagentRecorder.MatchString(v) {
				add(m.ValueSpan, "recordedBy %q is not agent:root, user or subagent:<agent>:<session>", v)
			}
		case "narrativePath":
			if isAbsPath(v) {
				add(m.ValueSpan, "narrativePath %q must be relative to the run directory", v)
			}
		case "criterionId", "summary":
			if strings.TrimSpace(v) == "" {
				add(m.ValueSpan, "%s is empty", m.Name)
			}
		}
	}
	return out
}

// openSpan is the object's opening brace, where "missing property" goes.
func (o *JSONObject) openSpan() source.Span {
	return source.Span{Start: o.Span.Start, End: o.Span.Start + 1}
}

func isAbsPath(p string) bool {
	return strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) ||
		len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && (p[2] == '/' || p[2] == '\\')
}

// IsISOTime reports an ISO 8601 date-time as toISOString writes it (a zone
// or offset required; fraction optional).
func IsISOTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// interner hands out one copy of each string it is given: the strings that
// repeat across the runs of one load. A nil interner returns s as it is.
type interner struct{ m map[string]string }

func (in *interner) str(s string) string {
	if in == nil || s == "" {
		return s
	}
	if t, ok := in.m[s]; ok {
		return t
	}
	if in.m == nil {
		in.m = map[string]string{}
	}
	in.m[s] = s
	return s
}
