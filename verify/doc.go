// Package verify runs a criterion's own check on request and records what
// it printed: pi-charter's contract is criterion → verification → evidence
// → status, and this is the middle step done for the user, never on its
// own.
//
// Nothing in this package decides that a command may run: the caller
// (charter-lsp verify, the language server's charter.verify) has shown the
// user the command verbatim and the user has said yes. A command comes
// from the repository, so that confirmation is the only gate; nothing runs
// on open, save or any other event.
//
// How a command runs (Run):
//   - through /bin/sh -c on Unix (cmd.exe /d /s /c on Windows): charters
//     write their commands as shell lines (`go test ./... && go vet ./...`),
//     and a fixed POSIX shell reads them the same for everyone, whatever the
//     user's login shell;
//   - in the project folder (the folder holding .pi/ or .charters/), with
//     the environment charter-lsp itself was started with (the editor's or
//     the terminal's) and stdin empty, so a command that asks a question
//     gets end-of-file instead of waiting;
//   - in a process group of its own: cancelling, the timeout, or the
//     command ending with children still running, signals the whole group
//     (SIGTERM, then SIGKILL after a grace period), so no process it
//     started is left behind;
//   - stdout and stderr merged in one pipe, as a terminal shows them,
//     streamed to the caller as they arrive and kept up to MaxOutput bytes:
//     the beginning and the end, with the bytes left out counted between.
//
// What is recorded (Result.PiEntry, Result.ChartersRecord): the outcome
// from the exit status (0 pass, anything else fail), a summary holding the
// command and the tail of its output, details {command, exitCode,
// durationMs}, and the output as an artifact file in the run folder. A run
// that was cancelled or timed out records nothing.
package verify
