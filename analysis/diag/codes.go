package diag

// DocsURL is where docs/diagnostics.md is published; each diagnostic's
// codeDescription links to DocsURL + "#" + code.
const DocsURL = "https://github.com/charter-lsp/charter-lsp/blob/main/docs/diagnostics.md"

// Rule describes one diagnostic code. The catalogue below is the only list of
// codes: checks, configuration validation, docs and SARIF output all read it.
type Rule struct {
	Code     string
	Severity Severity // default severity
	Family   string   // rp1, scratchpad, criteria, verifier, evidence, report, charter, config
	Summary  string   // one line: what triggers it
	Upstream bool     // one of pi-charter's own parse-warning reasons
}

// Rules is the catalogue, grouped by family.
var Rules = []Rule{
	// rp1 charter sections.
	{"section-missing", SeverityWarning, "rp1", "A required charter section has no heading.", false},
	{"section-empty", SeverityWarning, "rp1", "A required charter section has a heading but no content.", false},
	{"section-partial", SeverityWarning, "rp1", "A required section holds a TBD marker, a placeholder or fewer than two sentences.", false},
	{"section-covered-by-qa", SeverityHint, "rp1", "A section is still a gap in the charter but the scratch pad's answers cover it; finishing the interview fills it.", false},
	{"status-complete-with-gaps", SeverityWarning, "rp1", "The charter says **Status**: Complete but still has gaps or a scratch pad.", false},

	// rp1 interview scratch pad.
	{"scratchpad-malformed-entry", SeverityWarning, "scratchpad", "A ### Q entry has none of **Asked**, **Answer**, **Skipped**; the interviewer skips it.", false},
	{"scratchpad-duplicate-number", SeverityWarning, "scratchpad", "Two entries share a question number.", false},
	{"scratchpad-out-of-order", SeverityWarning, "scratchpad", "Question numbers are not increasing.", false},
	{"scratchpad-unknown-topic", SeverityInformation, "scratchpad", "An entry's topic maps to no charter section, so its answer covers nothing.", false},
	{"scratchpad-over-budget", SeverityWarning, "scratchpad", "More entries than the question budget.", false},
	{"scratchpad-mode-mismatch", SeverityInformation, "scratchpad", "The <!-- Mode: --> comment contradicts the file's state.", false},
	{"scratchpad-missing-end", SeverityWarning, "scratchpad", "The scratch pad has no <!-- End scratch pad --> marker.", false},
	{"scratchpad-answer-heading", SeverityWarning, "scratchpad", "An answer contains a '## ' heading, which ends the scratch pad early for rp1.", false},
	{"scratchpad-pending", SeverityInformation, "scratchpad", "A question was asked and awaits an answer.", false},

	// pi-charter charter.md.
	{"malformed-command", SeverityWarning, "charter", "A ## Commands line without a colon, or with an empty key or value.", true},
	{"duplicate-command", SeverityWarning, "charter", "A ## Commands key appears twice; the last one wins.", true},

	// pi-charter criteria.md.
	{"missing-verifier", SeverityWarning, "criteria", "A VAL has no Verifier: line, so upstream treats it as manual.", true},
	{"missing-because", SeverityWarning, "criteria", "An explicit manual verifier without a non-empty Because: line.", true},
	{"invalid-verifier", SeverityWarning, "criteria", "Unknown verifier kind or a bad shape (subagent without Agent/Task, evidence-exists with a bad Kind or FreshSince); upstream degrades it to manual.", true},
	{"weak-verifier-phrase-coupled", SeverityWarning, "verifier", "A JavaScript test command filters by test title with no test file, so it can pass on zero tests.", true},
	{"weak-verifier-title-filter", SeverityWarning, "verifier", "A go/pytest/cargo/… command filters by test name, which passes silently when nothing matches.", false},
	{"val-id-invalid", SeverityError, "criteria", "A VAL heading whose id is not upper-case letters, digits and '-'; upstream silently drops it.", false},
	{"val-id-greedy", SeverityWarning, "criteria", "The id regex swallows part of the title (VAL-X-001-Title reads as id VAL-X-001-T).", false},
	{"duplicate-val-id", SeverityError, "criteria", "Two criteria share an id.", false},
	{"field-not-parsed", SeverityWarning, "criteria", "A field written as a bullet or in bold, which upstream does not read.", false},
	{"val-under-h1", SeverityWarning, "criteria", "A ### VAL directly under an H1, which upstream drops.", false},
	{"val-nested", SeverityWarning, "criteria", "A ### VAL inside an ungrouped ## VAL-* criterion, whose body swallows it; upstream does not read it as a criterion.", false},
	{"field-key-typo", SeverityWarning, "criteria", "An unknown field key that looks like a misspelt known key.", false},
	{"val-title-task", SeverityInformation, "criteria", "A VAL title reads as a task (Implement X) rather than a behaviour.", false},
	{"milestone-size", SeverityInformation, "criteria", "A milestone has fewer than 3 or more than 8 VALs.", false},
	{"legacy-criteria", SeverityInformation, "criteria", "charter.md holds a legacy ## Criteria section that upstream reads because criteria.md is missing or the scaffold.", false},

	// Evidence and sidecars.
	{"stale-evidence", SeverityWarning, "evidence", "A fresh-required VAL's passing evidence predates the newest source change.", false},
	{"evidence-invalid", SeverityError, "evidence", "An evidence row breaks the evidence schema.", false},
	{"evidence-missing-because", SeverityWarning, "evidence", "Manual evidence without a because.", false},
	{"evidence-unknown-val", SeverityWarning, "evidence", "An evidence row names a criterion that criteria.md does not define.", false},
	{"criterion-state-drift", SeverityWarning, "evidence", "criterion-state.json disagrees with the newest evidence row.", false},
	{"json-invalid", SeverityError, "evidence", "A JSON sidecar cannot be parsed.", false},

	// REPORT.md.
	{"report-empty-section", SeverityWarning, "report", "A REPORT.md section is empty or holds only comments.", false},
	{"report-missing-section", SeverityWarning, "report", "REPORT.md lacks one of ## Objective, ## Outcome, ## Notes.", false},

	// Files and configuration.
	{"file-too-large", SeverityWarning, "config", "The file is larger than the analysis limit and was not analysed.", false},
	{"config-invalid", SeverityError, "config", "The charter-lsp configuration file cannot be read.", false},
	{"unknown-disable-code", SeverityWarning, "config", "An inline charter-lsp-disable comment names a code that does not exist.", false},
}

var ruleByCode = func() map[string]*Rule {
	m := make(map[string]*Rule, len(Rules))
	for i := range Rules {
		m[Rules[i].Code] = &Rules[i]
	}
	return m
}()

// Lookup returns the rule for code, or nil.
func Lookup(code string) *Rule { return ruleByCode[code] }

// DefaultSeverity is code's catalogue severity; an unknown code is a warning.
func DefaultSeverity(code string) Severity {
	if r := ruleByCode[code]; r != nil {
		return r.Severity
	}
	return SeverityWarning
}

// DocURL links to code's entry in docs/diagnostics.md.
func DocURL(code string) string { return DocsURL + "#" + code }
