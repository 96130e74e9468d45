package feature

// CommandName names a command the server runs (workspace/executeCommand).
// These are the only names: the server advertises them, lenses and actions
// carry them, and the editors take them from the files generated from
// Commands (go run ./internal/gendocs), never typing them again.
type CommandName string

// The server's commands.
const (
	CmdInterviewStart  CommandName = "charter.interview.start"
	CmdInterviewNext   CommandName = "charter.interview.next"
	CmdInterviewSkip   CommandName = "charter.interview.skip"
	CmdInterviewFinish CommandName = "charter.interview.finish"
	CmdInterviewRegion CommandName = "charter.interview.region"
	CmdInterviewTurn   CommandName = "charter.interview.turn"
	CmdStatus          CommandName = "charter.status"
	CmdValAt           CommandName = "charter.valAt"
	CmdRecordEvidence  CommandName = "charter.recordEvidence"
	CmdVerify          CommandName = "charter.verify"
)

// Commands lists every command with the key the editors' generated sources
// give it.
var Commands = []struct {
	Key  string
	Name CommandName
}{
	{"interviewStart", CmdInterviewStart},
	{"interviewNext", CmdInterviewNext},
	{"interviewSkip", CmdInterviewSkip},
	{"interviewFinish", CmdInterviewFinish},
	{"interviewRegion", CmdInterviewRegion},
	{"interviewTurn", CmdInterviewTurn},
	{"status", CmdStatus},
	{"valAt", CmdValAt},
	{"recordEvidence", CmdRecordEvidence},
	{"verify", CmdVerify},
}
