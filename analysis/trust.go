package analysis

// Restricted is what a project file may set in an untrusted workspace
// (VS Code's Restricted Mode): only what cannot widen what charter-lsp
// does — severities and the interview's budget. Where freshness is read
// from (source folders, git) is the user's to decide there.
func (c Config) Restricted() Config {
	return Config{Schema: c.Schema, Severity: c.Severity, QuestionBudget: c.QuestionBudget}
}
