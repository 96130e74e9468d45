package diag

// Doc is the documentation of one code: an example that triggers it and the
// fix. docs/diagnostics.md is generated from Rules and Docs
// (go run ./internal/gendocs), and a test keeps the file in step.
type Doc struct {
	Example string // a snippet of the file that triggers the code
	Fix     string // what to do
}

// Docs documents every code in Rules.
var Docs = map[Code]Doc{
	SectionMissing: {
		Example: "# Project Charter: Tidepool\n\n## Problem & Context\n…\n(no `## Success Criteria` heading)",
		Fix:     "Add the section, or run the interview (code action \"Ask next interview question\") to fill it.",
	},
	SectionEmpty: {
		Example: "## Success Criteria\n\n## Assumptions & Risks",
		Fix:     "Write the section's content, or run the interview to fill it.",
	},
	SectionPartial: {
		Example: "## Business Rationale\n\nTBD",
		Fix:     "Replace the TBD marker or placeholder and write at least two sentences (a list of two items counts).",
	},
	SectionCoveredByQA: {
		Example: "## Scratch Pad\n### Q2: Target Users\n**Asked**: Who are the primary users?\n**Answer**: Renters in cities with 5-30 plants.",
		Fix:     "Finish the interview (code action \"Finish interview\") to write the answers into the section.",
	},
	StatusCompleteWithGaps: {
		Example: "**Status**: Complete\n…\n## Success Criteria\n\nTBD",
		Fix:     "Fill the gaps (or finish the interview), or set **Status**: Draft.",
	},
	ScratchpadMalformedEntry: {
		Example: "### Q3: Value Proposition\nWe save them time.",
		Fix:     "Add **Asked**:, **Answer**: or **Skipped**: lines; rp1's interviewer ignores the entry otherwise.",
	},
	ScratchpadDuplicateNumber: {
		Example: "### Q2: Target Users\n…\n### Q2: Value Proposition",
		Fix:     "Renumber the entries Q1, Q2, Q3, … in the order they were asked.",
	},
	ScratchpadOutOfOrder: {
		Example: "### Q3: Scope\n…\n### Q2: Target Users",
		Fix:     "Renumber the entries so numbers increase down the file; the next question number is the last one + 1.",
	},
	ScratchpadUnknownTopic: {
		Example: "### Q2: Pricing",
		Fix:     "Use a topic the interviewer maps to a section: Brain Dump, Problem & Context, Target Users, Value Proposition, Scope, Success Criteria.",
	},
	ScratchpadOverBudget: {
		Example: "### Q6: Success Criteria   (budget: 5 questions)",
		Fix:     "Finish the interview; raise questionBudget in .charter-lsp.jsonc if more questions are intended.",
	},
	ScratchpadModeMismatch: {
		Example: "<!-- Mode: CREATE -->   (in a charter whose sections are already written)",
		Fix:     "Correct the Mode comment (UPDATE for an existing charter); the caller's mode wins anyway.",
	},
	ScratchpadMissingEnd: {
		Example: "## Scratch Pad\n…\n### Q2: Target Users\n…\n(no <!-- End scratch pad -->)",
		Fix:     "Add <!-- End scratch pad --> after the last entry, so finishing the interview removes exactly the scratch pad.",
	},
	ScratchpadAnswerHeading: {
		Example: "**Answer**: Our users:\n## Segments",
		Fix:     "Use ### or bold text inside answers: a '## ' line ends the scratch pad for rp1, losing the rest of the interview.",
	},
	ScratchpadPending: {
		Example: "### Q3: Value Proposition\n**Asked**: For renters dealing with …?\n**Answer**:",
		Fix:     "Type the answer after **Answer**:, then ask the next question.",
	},
	MalformedCommand: {
		Example: "## Commands\n\nlint go vet ./...",
		Fix:     "Write one `key: value` per line (`lint: go vet ./...`).",
	},
	DuplicateCommand: {
		Example: "test: go test ./...\ntest: go test -race ./...",
		Fix:     "Keep one line per key; upstream uses the last one.",
	},
	MissingVerifier: {
		Example: "### VAL-AUTH-001 — Login returns a token\nA successful login responds with a token.",
		Fix:     "Add a `Verifier:` line (command, hook, prompt, manual, subagent or evidence-exists).",
	},
	MissingBecause: {
		Example: "### VAL-SESS-003 — Token refresh keeps the session\nVerifier: manual",
		Fix:     "Add `Because:` saying why this cannot be checked automatically.",
	},
	InvalidVerifier: {
		Example: "Verifier: commnad",
		Fix:     "Use a known kind (command, hook, prompt, manual, subagent, evidence-exists; review/qa/readiness are evidence-exists) with its required fields.",
	},
	WeakVerifierPhraseCoupled: {
		Example: "Verifier: command\nCommand: bun test -t 'rejects expired token'",
		Fix:     "Name the test file too (`bun test src/auth/token.test.ts -t '…'`), so a renamed test fails instead of passing on zero tests.",
	},
	WeakVerifierTitleFilter: {
		Example: "Verifier: command\nCommand: go test ./... -run TestAuditLog",
		Fix:     "Make zero matches fail: name the package and check the test ran (e.g. `go test -run '^TestAuditLog$' -v ./src/export | grep -q '^--- PASS'`), or use the runner's exact/strict mode.",
	},
	VALIDInvalid: {
		Example: "### VAL-auth-002 — Dashboard shows the share of token sessions",
		Fix:     "Use upper-case letters, digits and '-' only (VAL-AUTH-002); upstream drops the criterion otherwise.",
	},
	VALIDGreedy: {
		Example: "### VAL-X-001-Title rejects bad input",
		Fix:     "Separate id and title with ' — ' (VAL-X-001 — Title …).",
	},
	DuplicateVALID: {
		Example: "### VAL-SESS-001 — …\n…\n### VAL-SESS-001 — …",
		Fix:     "Give each criterion its own id; evidence for one id cannot tell them apart.",
	},
	FieldNotParsed: {
		Example: "- Verifier: subagent\n**Agent:** qa",
		Fix:     "Write fields as plain `Key: value` lines; upstream ignores bullet and bold forms (quick fix available).",
	},
	VALUnderH1: {
		Example: "# Criteria\n\n### VAL-AUTH-001 — …   (before any ## heading)",
		Fix:     "Put the criterion under a `## <milestone>` heading; upstream drops text between an H1 and the next H2.",
	},
	VALNested: {
		Example: "## VAL-TOP-001 Ungrouped criterion\nVerifier: manual\n\n### VAL-TOP-002 Swallowed by the body above",
		Fix:     "Give the criteria a `## <milestone>` heading (turning `## VAL-TOP-001` into `### VAL-TOP-001`), or move the ### VAL under another milestone.",
	},
	FieldKeyTypo: {
		Example: "Verfier: command",
		Fix:     "Correct the key (Verifier); upstream reads unknown keys as nothing.",
	},
	VALTitleTask: {
		Example: "### VAL-SESS-003 — Implement token refresh endpoint",
		Fix:     "State the behaviour that will be true (\"An expired session can be refreshed without logging in again\").",
	},
	MilestoneSize: {
		Example: "## m1-sessions Token sessions   (with 1 VAL, or 12)",
		Fix:     "Aim for 3–8 VALs per milestone: split a large milestone, or merge a thin one.",
	},
	LegacyCriteria: {
		Example: "charter.md:\n## Criteria\n### VAL-EXAMPLE — …",
		Fix:     "Move the criteria into criteria.md; upstream reads charter.md's ## Criteria only while criteria.md is missing or the scaffold.",
	},
	StaleEvidence: {
		Example: "Fresh evidence required: true   (pass at 2026-11-11T10:15Z, src/auth/token.go changed later)",
		Fix:     "Re-run the verifier and record fresh evidence (code action \"Record evidence\").",
	},
	EvidenceInvalid: {
		Example: "{\"criterionId\": \"VAL-ROLL-009\", \"outcome\": \"ok\", \"confidence\": \"high\"}",
		Fix:     "Keep to the evidence schema: criterionId, outcome (pass|fail|partial), summary, ts required; no other properties.",
	},
	EvidenceMissingBecause: {
		Example: "{\"source\": \"manual\", \"outcome\": \"pass\", …}   (no because)",
		Fix:     "Add a non-empty `because` to manual evidence.",
	},
	EvidenceUnknownVAL: {
		Example: "{\"criterionId\": \"VAL-ROLL-009\", …}   (criteria.md has no VAL-ROLL-009)",
		Fix:     "Fix the id, or add the criterion to criteria.md.",
	},
	CriterionStateDrift: {
		Example: "criterion-state.json says pass; the newest evidence row says fail",
		Fix:     "Record evidence through charter_record (or charter-lsp record), which updates both files together.",
	},
	JSONInvalid: {
		Example: "{\"criterionId\": \"VAL-1\",, }",
		Fix:     "Fix the JSON syntax at the position shown.",
	},
	ReportEmptySection: {
		Example: "## Outcome\n\n<!-- What shipped, with links to evidence. -->",
		Fix:     "Write at least one line that is not a comment; upstream blocks completion otherwise.",
	},
	ReportMissingSection: {
		Example: "# Report\n\n## Objective\n…\n(no ## Outcome)",
		Fix:     "Add the ## Objective, ## Outcome and ## Notes sections.",
	},
	FileUnreadable: {
		Example: "criterion-state.json (mode 000, or a broken disk)",
		Fix:     "Make the file readable by the user running charter-lsp, or remove it.",
	},
	FileTooLarge: {
		Example: "a 20 MB criteria.md",
		Fix:     "Split the file; charter-lsp analyses files up to 16 MB.",
	},
	FileNotRegular: {
		Example: "criteria.md is a named pipe (mkfifo), or a folder called criterion-state.json",
		Fix:     "Replace it with a regular file (or remove it); charter-lsp never reads from pipes, devices or sockets.",
	},
	ConfigInvalid: {
		Example: "{\"severity\": {\"stale-evidence\": \"loud\"}}",
		Fix:     "Use known codes and the severities error, warning, information, hint or off.",
	},
	UnknownDisableCode: {
		Example: "<!-- charter-lsp-disable-next-line stale-evidnce -->",
		Fix:     "Name an existing code (see the table above).",
	},
}
