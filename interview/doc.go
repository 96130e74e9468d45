// Package interview is the stateless rp1 charter interviewer (SPEC §2): a pure
// function from a charter's text to the next interview action, and the text
// edits that carry that action out.
//
// All state lives in the charter's scratch pad; Next reads it with the rp1
// parser and returns exactly one Response, which marshals to upstream's
// StatelessAgentResponse. The edit builders (AskNext, RecordSkip, Finish,
// Start) return small edits against the original text, so an editor can apply
// and undo them; Apply applies them for the CLI and tests.
//
// The package never imports protocol packages: the language server and the
// CLI are thin callers.
package interview
