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
		Example: "# Project Charter: Tidepool\n\n## Problem & Context\n…\n(no `## Success Criteria` heading; `### Success Criteria` under the title counts)",
		Fix:     "Add the section, or run the interview (code action \"Ask next interview question\") to fill it.",
	},
	SectionEmpty: {
		Example: "## Success Criteria\n_TBD_\n\n## Assumptions & Risks",
		Fix:     "Write the section's content, or run the interview to fill it. A section holding only `_TBD_`, `- _TBD_`, `TBD`, `[To Be Determined]` or another placeholder is unfilled.",
	},
	SectionPartial: {
		Example: "## Target Users\n\nEngineering leads. TODO: segments.",
		Fix:     "Replace the placeholder and write at least two sentences (a list of two items counts). Placeholders are marker forms only: \"a TODO app\" is content, \"TODO:\" or a line that is only \"TODO\" is not.",
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
	RegionHeadingVariant: {
		Example: "## Scope Guardrails\n\n### Will Do\n- Import CSV\n\n### Won’t\n- Billing",
		Fix:     "Rename the heading to the one rp1 reads (`## Vision`, `## Problem & Context`, `## Target Users`, `## Business Rationale`, `### Will` / `### Won't` under `## Scope Guardrails`, `## Success Criteria`); the quick fix does it.",
	},
	StatusNoncanonical: {
		Example: "**Version**: 1.0.0 | **Status**: Final | **Created**: 2026-02-06",
		Fix:     "Write `**Status**: Draft` or `**Status**: Complete` on its own line, as rp1's template does; the quick fix writes the status the gaps call for.",
	},
	StatusMismatch: {
		Example: "**Status**: Complete\n…\n## Vision\n_TBD_",
		Fix:     "Fill the gaps, or set the status the gaps call for (Complete only when no required region is a gap); the quick fix sets it.",
	},
	PlaceholderVariant: {
		Example: "## Vision\nTBD",
		Fix:     "Write the region, or mark it unfilled with rp1's own placeholder `_TBD_` (`- _TBD_` under Will and Won't); the quick fix does the latter.",
	},
	DuplicateRegion: {
		Example: "## Vision\n_TBD_\n\n## Vision\nEvery crossing logged once.",
		Fix:     "Merge the two into the first heading and delete the second; rp1 finds the first and never looks further.",
	},
	MixedPlaceholder: {
		Example: "## Target Users\nRenters in cities. Segments _TBD_ pending review.",
		Fix:     "Finish the sentence that holds `_TBD_`; rp1 treats the region as written.",
	},
	LegacyScratchPad: {
		Example: "## Vision\n_TBD_\n…\n## Scratch Pad\n### Q1: Brain Dump\n**Answer**: …",
		Fix:     "Move the answers into their regions (the quick fix migrates them: each answer into its region, the Brain Dump kept for you to place, the scratch pad removed once every answer is placed).",
	},
	LegacySections: {
		Example: "## Value Proposition\n…\n## Scope\n**In scope**:\n- …\n**Out of scope**:\n- …",
		Fix:     "Rename `## Value Proposition` to `## Business Rationale`; turn `## Scope` into `## Scope Guardrails` with `### Will` and `### Won't` (the quick fix does both).",
	},
	FinalizerJSON: {
		Example: "```json\n{\"status\":\"complete\",\"gaps\":[],\"artifact\":\"…\",\"warnings\":[]}\n```",
		Fix:     "Answer with exactly one raw JSON object (no fence or prose) with the keys status, artifact, gaps, warnings in that order; `charter-lsp interview --contract finalizer` prints the expected answer.",
	},
	GenerationConflict: {
		Example: "# Project Charter: quillmark\n**Version**: 1.0.0 | **Status**: Final\n\n## Vision\n…\n## Scope Guardrails\n### Will Do",
		Fix:     "Nothing is wrong for rp1, which reads the regions and keeps the rest; the diagnostic says which generation charter-lsp reads the file as (checks, hover, the interview) and what would change it. Remove the **Version** line from a skeleton charter to say it is one; finish or migrate a scratch-pad interview to move to the skeleton. `charter-lsp check --verbose` prints every file's reading.",
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
	CriteriaScaffold: {
		Example: "## m0-example Example milestone (delete me)\n### VAL-EXAMPLE Example criterion (delete me)",
		Fix:     "Replace VAL-EXAMPLE with your own milestones and VALs; until then upstream reads charter.md's ## Criteria (often nothing).",
	},
	FreshSinceLoose: {
		Example: "Verifier: evidence-exists\nKind: review\nFreshSince: Nov 2026",
		Fix:     "Write an ISO 8601 date or time (2026-11-01, 2026-11-01T09:00:00Z); the message says how Node reads the value as written.",
	},
	StaleEvidence: {
		Example: "Fresh evidence required: true   (pass at 2026-11-11T10:15Z, src/auth/token.go changed later)",
		Fix:     "Re-run the verifier and record fresh evidence (code action \"Record evidence\").",
	},
	FreshnessUnknown: {
		Example: "a CI checkout of depth 1 (actions/checkout's default): its one commit holds src/ as if added there; or reading the history took longer than 5s on a busy machine",
		Fix:     "Shallow clone: fetch the full history (`fetch-depth: 0` on actions/checkout, or `git fetch --unshallow`). Timed out: the editor reads the history again shortly, `check` on its next run. A history over budget or unreadable: repair it, or date the sources by file times (`\"freshness\": \"mtime\"`).",
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
	AnalysisCapped: {
		Example: "## Problem & Context\n\n> > > > > > > > > > > > > > > > > > > > (300,000 levels on one line)",
		Fix:     "Nest less: no real document needs 16 levels. What lies deeper is read as plain text, so the section's status may differ from what a renderer shows.",
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
	UnusedDisableComment: {
		Example: "<!-- charter-lsp-disable-next-line val-title-task -->\n### VAL-SESS-003 — Token refresh returns a new token",
		Fix:     "Remove the comment (the quick fix does; `check --fix` too), or point it at the code and line it is meant for. Reported as information; `--severity unused-disable-comment=warning` makes CI fail on it.",
	},

	// pi-charter .charters/<id>/charter.md.
	ObjectiveMissing: {
		Example: "# Charter: Ship the export\n\n## Criteria\n…\n(no ## Objective; since ADR-0016 no # Objective)",
		Fix:     "Add the Objective heading of the charter's grammar: `## Objective` in a file-interface charter, `# Objective` since ADR-0016.",
	},
	ObjectiveEmpty: {
		Example: "# Objective\n\n## References",
		Fix:     "Write the Objective: the outcome, why it matters, the constraints.",
	},
	CriteriaSectionMissing: {
		Example: "## Objective\nShip the export.\n### C1. Exports run on the worker\nStatus: pending",
		Fix:     "Add a `## Criteria` heading above the criteria (quick fix).",
	},
	PhasesSectionMissing: {
		Example: "# Objective\nShip the export.\n## Phase 1: discovery\n(no ## Phases heading)",
		Fix:     "Nothing: the phases grammar is chosen only for a charter with a level-2 `## Phases` section, so a charter without one is read as today's pi-charter (ADR-0018) reads it, without this warning: pi-charter itself has not given it since ADR-0018.",
	},
	CriterionPassEmptyNote: {
		Example: "### C2. Large exports finish\nStatus: pass",
		Fix:     "Say what was run and what it showed: `Status: pass — 50k rows in 41 s on staging`.",
	},
	CriterionStatusUnknown: {
		Example: "Status: done\nStatus: in progress — testing\nEvidence: pass—ok",
		Fix:     "Start the value with a token (pending, in-progress, blocked, pass, fail; pass, fail, none for Evidence:), then ` — ` and the note. Quick fix: the nearest token.",
	},
	CriterionStatusMissing: {
		Example: "### C3. The old route is gone\nDepends: C1\n(no Status: line)",
		Fix:     "Add `Status: pending` (`Evidence: none` in an ADR-0014 charter; in a CRLF file only an empty `Status:` is read) (quick fix).",
	},
	CriterionStatusDuplicate: {
		Example: "Status: in-progress — half done\nStatus: pass — done",
		Fix:     "Keep one Status line; upstream reads the first.",
	},
	CriterionStatusAndEvidence: {
		Example: "Status: in-progress\nEvidence: fail — line breaks wrong",
		Fix:     "Delete the Evidence line, or move its note into the Status line.",
	},
	CriterionDuplicateID: {
		Example: "### C2. Memory stays flat\n…\n### C2. Docs updated",
		Fix:     "Give the later criterion a free id; upstream ignores it until then.",
	},
	DependsUnknown: {
		Example: "### C3. Alerts\nDepends: C1, C7   (there is no C7)",
		Fix:     "Name existing criteria, or add the missing one.",
	},
	DependsSelf: {
		Example: "### C4. Dashboard\nDepends: C4",
		Fix:     "Remove the criterion's own id (quick fix).",
	},
	DependsCycle: {
		Example: "### C1. A\nDepends: C2\n### C2. B\nDepends: C1",
		Fix:     "Break the cycle: one of the criteria does not really wait for the other.",
	},
	CriterionHeadingNearMiss: {
		Example: "### C4 Rejects empty files\n### c5. Logs the uploader\n#### C6: Scans uploads",
		Fix:     "Write `### C<n>. Title`: three #, an upper-case C, the number, a period, a space, the title (quick fix).",
	},
	CriterionLabelVariant: {
		Example: "**Status**: pass — 0.8 s\n- Status: in-progress\n  Status: pending\nDepends : C1",
		Fix:     "Write the label at the start of the line, plain: `Status: pass — 0.8 s` (quick fix).",
	},
	CriterionLineCRLF: {
		Example: "Status: pass — make notes: 0 warnings⏎  (CRLF line endings)",
		Fix:     "Save the file with LF line endings (quick fix per line: remove the carriage return).",
	},
	DependsToken: {
		Example: "Depends: none\nDepends: C1 and c3",
		Fix:     "List ids only, separated by commas (`Depends: C1, C3`); a criterion without dependencies has no Depends line (quick fix).",
	},
	NoteContinuation: {
		Example: "Status: fail — peak RSS 340 MB\n(measured on the 500 MB fixture)\n\n(ADR-0014: Evidence: none\nDepends: C1)",
		Fix:     "Keep the note on the Status line, or leave a blank line before body text; in ADR-0014 put Depends: above Evidence: (quick fix).",
	},
	CriterionOutsideCriteria: {
		Example: "## Objective\n…\n### C1. Limits documented\n…\n## Criteria",
		Fix:     "Move the criterion under ## Criteria, or, in a code example, indent it so it is not a heading for upstream.",
	},
	LegacyEvidenceLine: {
		Example: "### C1. German strings\nEvidence: pass — reviewed by a native speaker",
		Fix:     "Rewrite as `Status:` (none becomes pending; quick fix when the note is one line).",
	},
	DuplicateObjective: {
		Example: "## Objective\nAn early draft.\n## Objective\nThe real objective.",
		Fix:     "Keep one Objective heading; merge the texts.",
	},
	PhaseSuffixVariant: {
		Example: "2. Sandbox integration – done\n3. Shadow traffic—current\n4. Cut over — in progress",
		Fix:     "End the item with ` — upcoming`, ` — current` or ` — done`: a space, an em dash, the word (quick fix).",
	},
	PhaseItemShape: {
		Example: "7) Write the postmortem\n 8. Archive the old keys\n- Tell support\n2.Rollback plan",
		Fix:     "Write phases as `N. Title` at the start of the line (quick fix where the shape is clear).",
	},
	NotesInObjective: {
		Example: "# Objective\nReplace the provider.\n## Notes\nKeep the old webhooks.\n## Phases",
		Fix:     "Move the notes below ## Phases, or upgrade to the ADR-0018 grammar, where ## Notes ends the Objective.",
	},
	PhaseBodyBreak: {
		Example: "1. Dry run — done\n   Ran on Monday.\nResult: clean.\n   Second run on Tuesday.",
		Fix:     "Indent the line like the rest of the body (quick fix).",
	},
	ObjectiveHeadingShape: {
		Example: "## Objective\n# Objective:\nObjective\n=========",
		Fix:     "Write `# Objective` (`## Objective` in a file-interface charter) as its own line (quick fix).",
	},
	ReservedHeadingInFence: {
		Example: "```sh\n# restore last night's dump\n./restore.sh\n```\nStatus: pass — restored",
		Fix:     "Indent the code block instead of fencing it, or drop the # line: no pi-charter parser knows code fences.",
	},
	DuplicateSection: {
		Example: "## Scope\nAdmin roles.\n## Scope\nAlso guest roles.",
		Fix:     "Merge the two sections into the first.",
	},
	InertGrammar: {
		Example: "# Objective\n…\n## Criteria\n### C1. Clients warned\nStatus: pass — banner shipped",
		Fix:     "Run `charter-lsp migrate` to rewrite the criteria as an Acceptance list and notes, or delete them.",
	},

	// pi-charter .charters/<id>/ state.json and events.jsonl.
	StateInvalid: {
		Example: "{\"charterId\": \"20260702-101500-ship-it\", \"schemaVersion\": \"phases\", \"objective\": \"Ship it\", \"status\": \"planning\"}",
		Fix:     "Give state.json a non-empty charterId, a string objective, a status of active, paused, completed or abandoned, and schemaVersion \"phases\" (or \"file-interface\") (quick fix for known old values).",
	},
	CharterIDShape: {
		Example: ".charters/ship-it/   or   \"charterId\": \"20260701-090000-ship-it\" in .charters/20260702-101500-ship-it/",
		Fix:     "Name the folder YYYYMMDD-HHMMSS-slug and set charterId to the folder name (quick fix for charterId).",
	},
	EventsLineInvalid: {
		Example: "{\"type\":\"charter_resumed\",\"ts\":\"2026-07-   (a write cut short)",
		Fix:     "Repair or remove the line; until then upstream sees no history at all.",
	},
	GenerationMismatch: {
		Example: "state.json: \"schemaVersion\": \"phases\"\ncharter.md: ## Objective … ### C1. … Status: pending\n\nstate.json: \"criteriaSnapshot\": [{\"evidence\": …, \"evidenceSeq\": 0}]\ncharter.md: ### C1. … Status: pass — ran it",
		Fix:     "Run `charter-lsp migrate` to write a current charter, or correct schemaVersion if the file is what you meant. For Status: lines under an ADR-0014 state, run pi-charter ADR-0015 or later once (it rewrites the snapshot), or write Evidence: lines. `charter-lsp check --verbose` says which generation each file is read as and why.",
	},
}
