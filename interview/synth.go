package interview

import (
	"regexp"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// TBD is the body written for a section nothing in the interview addressed.
const TBD = "_TBD_"

// synthesize builds charter_content (SPEC §2): a COMPLETE section keeps its
// text (and is listed in keep, so Finish leaves it alone); otherwise the
// answers whose topic names the section, in order, or else the sentences of
// other answers carrying its cue words (this is how the Brain Dump is
// distributed); real text already in a PARTIAL section stays in front; a
// section with nothing gets _TBD_.
func (st *state) synthesize() (*CharterContent, []rp1.SectionID) {
	c := &CharterContent{}
	var keep []rp1.SectionID
	src := st.ch.Index.Source()
	for _, id := range rp1.Priority {
		sec := st.ch.Section(id)
		var existing string
		if sec != nil {
			existing = strings.TrimSpace(strings.ReplaceAll(string(src[sec.BodySpan.Start:sec.BodySpan.End]), "\r\n", "\n"))
			if sec.Status == rp1.StatusComplete {
				c.set(id, existing)
				keep = append(keep, id)
				continue
			}
		}
		var parts []string
		if !onlyPlaceholders(existing) {
			parts = append(parts, existing)
		}
		if body := st.answerBody(id); body != "" {
			parts = append(parts, body)
		}
		if len(parts) == 0 {
			parts = []string{TBD}
		}
		c.set(id, strings.Join(parts, "\n\n"))
	}
	return c, keep
}

// answerBody is the markdown the answers give section id: whole answers when
// their topic names it, else cue sentences joined into one paragraph.
func (st *state) answerBody(id rp1.SectionID) string {
	var whole []string
	for _, e := range st.entries {
		if e.Answered() && topicCovers(e.Topic, id) {
			whole = append(whole, safeMarkdown(e.Answer))
		}
	}
	if len(whole) > 0 {
		return strings.Join(whole, "\n\n")
	}
	return safeMarkdown(strings.Join(st.material[id], " "))
}

// placeholderRe matches what a section holds when it only waits for text.
var placeholderRe = regexp.MustCompile(`(?i)_TBD_|\bTBD\b|\bTODO\b|\[[^\]\n]*\]|<!--.*?-->`)

func onlyPlaceholders(s string) bool {
	return strings.TrimSpace(placeholderRe.ReplaceAllString(s, "")) == ""
}

// headingLineRe finds lines an answer may hold that would end a section
// ("# " or "## ") once the text sits in the charter body.
var headingLineRe = regexp.MustCompile(`(?m)^( {0,3})(#{1,2})([ \t]|$)`)

// safeMarkdown escapes H1/H2 lines so that an answer cannot split the
// charter's sections; deeper headings are fine as subsections.
func safeMarkdown(s string) string {
	s = strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n"))
	return headingLineRe.ReplaceAllString(s, `$1\$2$3`)
}
