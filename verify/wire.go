package verify

// What the editors get from the language server's charter.verify command
// and its output notification. The shapes are in docs/status.schema.json
// with the status, and the VS Code extension's types are generated from
// it.

// OutputMethod is the notification that streams a run's output to the
// editor (VS Code: an output channel; Neovim: a scratch buffer).
const OutputMethod = "charter/verifyOutput"

// RunAnswer is charter.verify's answer: how the run ended and where it
// was recorded.
type RunAnswer struct {
	CriterionID string `json:"criterionId"`
	// Dir is the charter folder, absolute.
	Dir string `json:"dir"`
	// Command is the command as it ran (as shown to the user).
	Command string `json:"command"`
	// Run names the run in the output notifications ("" when nothing ran).
	Run string `json:"run"`
	// Declined: the user did not confirm the command; nothing ran.
	Declined bool `json:"declined"`
	// Cancelled and TimedOut: the run was stopped; nothing was recorded.
	Cancelled bool `json:"cancelled"`
	TimedOut  bool `json:"timedOut"`
	// Outcome is pass (exit 0) or fail; "" when the run did not finish.
	Outcome    string `json:"outcome,omitempty"`
	ExitCode   *int   `json:"exitCode,omitempty"`
	DurationMs int64  `json:"durationMs"`
	// Recorded is the file the result was recorded in: the new evidence.json
	// (pi-charter) or charter.md (.charters); "" when nothing was.
	Recorded string `json:"recorded,omitempty"`
	// Artifact is the output file, absolute; "" when nothing was recorded.
	Artifact string `json:"artifact,omitempty"`
	// Weak says why the command can pass on zero tests; "" when it cannot.
	Weak string `json:"weak,omitempty"`
}

// RunOutput is one piece of a run's output (the charter/verifyOutput
// notification): escape sequences removed, in order. The first piece of a
// run says what runs where; the last one how it ended.
type RunOutput struct {
	Run         string `json:"run"`
	CriterionID string `json:"criterionId"`
	Text        string `json:"text"`
	// Done is set on the run's last piece.
	Done bool `json:"done"`
	// Recorded is, on the last piece, the file the result was recorded in
	// (as RunAnswer.Recorded): an editor saves it when the record was an
	// edit of an open document.
	Recorded string `json:"recorded,omitempty"`
}
