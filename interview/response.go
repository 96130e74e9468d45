package interview

import "github.com/charter-lsp/charter-lsp/analysis/rp1"

// Response types, as upstream names them.
const (
	TypeNextQuestion = "next_question"
	TypeSuccess      = "success"
	TypeSkip         = "skip"
	TypeError        = "error"
)

// Response is one interview action. Its JSON is exactly upstream's
// StatelessAgentResponse; the fields tagged "-" are what an editor needs to
// carry the action out and are never marshalled.
type Response struct {
	Type            string          `json:"type"`
	NextQuestion    string          `json:"next_question,omitempty"`
	Message         string          `json:"message,omitempty"`
	CharterComplete bool            `json:"charter_complete,omitempty"`
	CharterContent  *CharterContent `json:"charter_content,omitempty"`
	Metadata        Metadata        `json:"metadata"`

	// Mode is the effective mode: the caller's, else the detected one.
	Mode string `json:"-"`
	// Section is the section the next question (or the skip) is about; ""
	// for the Brain Dump, success and error.
	Section rp1.SectionID `json:"-"`
	// Topic is the "### Q{N}: {Topic}" text for the entry to write.
	Topic string `json:"-"`
	// Pending is the asked-but-unanswered entry a next_question response
	// repeats; nil otherwise. Such a response needs no edit.
	Pending *rp1.Entry `json:"-"`
	// CoveredBy is the answered entry that makes a skip possible.
	CoveredBy *rp1.Entry `json:"-"`
	// Keep lists the sections on success that are COMPLETE in the charter:
	// their content is the existing text and Finish leaves them alone.
	Keep []rp1.SectionID `json:"-"`
	// Title is, on success, the project's name for a title that waits for
	// one ("# Project Charter: [To Be Determined]"); "" leaves the title as
	// it is. upstream's contract has no field for it.
	Title string `json:"-"`
}

// Metadata always carries all three fields; gaps_remaining is [] rather than
// null when nothing remains, and is in priority order.
type Metadata struct {
	QuestionNumber int             `json:"question_number"`
	TotalQuestions int             `json:"total_questions"`
	GapsRemaining  []rp1.SectionID `json:"gaps_remaining"`
}

// CharterContent is one markdown body per section, ready to go under its
// heading.
type CharterContent struct {
	Problem   string `json:"problem,omitempty"`
	Users     string `json:"users,omitempty"`
	ValueProp string `json:"value_prop,omitempty"`
	Scope     string `json:"scope,omitempty"`
	Success   string `json:"success,omitempty"`
}

// Get returns the body for id.
func (c *CharterContent) Get(id rp1.SectionID) string {
	if c == nil {
		return ""
	}
	switch id {
	case rp1.Problem:
		return c.Problem
	case rp1.Users:
		return c.Users
	case rp1.ValueProp:
		return c.ValueProp
	case rp1.Scope:
		return c.Scope
	case rp1.Success:
		return c.Success
	}
	return ""
}

func (c *CharterContent) set(id rp1.SectionID, body string) {
	switch id {
	case rp1.Problem:
		c.Problem = body
	case rp1.Users:
		c.Users = body
	case rp1.ValueProp:
		c.ValueProp = body
	case rp1.Scope:
		c.Scope = body
	case rp1.Success:
		c.Success = body
	}
}
