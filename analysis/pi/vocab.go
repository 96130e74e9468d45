package pi

// The words of upstream's evidence schema, typed: a misspelt outcome or
// source is a compile error, not a record that never counts as a pass.

// Outcome is a recorded result of a VAL's verification.
type Outcome string

const (
	Pass    Outcome = "pass"
	Fail    Outcome = "fail"
	Partial Outcome = "partial"
)

// Outcomes are the valid outcomes, in the order tools offer them.
var Outcomes = []Outcome{Pass, Fail, Partial}

// Meaning says what o records, for people choosing one (the editors'
// pickers show it beside the word).
func (o Outcome) Meaning() string {
	switch o {
	case Pass:
		return "the behaviour holds"
	case Fail:
		return "the behaviour does not hold"
	case Partial:
		return "holds in part"
	}
	return ""
}

// Valid reports whether o is one of upstream's outcomes (a row's outcome is
// kept as written, so it may be anything).
func (o Outcome) Valid() bool { return o == Pass || o == Fail || o == Partial }

// Names are the words of a vocabulary as strings (flag choices, messages).
func Names[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// Source says who produced a piece of evidence.
type Source string

const (
	SourceManual   Source = "manual"
	SourceVerifier Source = "verifier"
	SourceSubagent Source = "subagent"
)

// Sources are the valid sources.
var Sources = []Source{SourceManual, SourceVerifier, SourceSubagent}

// Valid reports whether s is one of upstream's sources.
func (s Source) Valid() bool { return s == SourceManual || s == SourceVerifier || s == SourceSubagent }

// EvidenceSource is the source of evidence a person records for c (from
// an editor, say): manual when c's verifier is manual — nothing but a
// person's judgement verifies it, and upstream refuses manual evidence
// without a because — else the verifier's.
func (c *Criterion) EvidenceSource() Source {
	if c.Verifier.Kind == VerifierManual {
		return SourceManual
	}
	return SourceVerifier
}

// Mark is the mark shown beside an outcome, everywhere: ✓ pass, ✗ fail,
// ◐ partial, · nothing recorded ("").
func (o Outcome) Mark() string {
	switch o {
	case Pass:
		return "✓"
	case Fail:
		return "✗"
	case Partial:
		return "◐"
	case "":
		return "·"
	}
	return "?"
}
