package interview

import (
	"regexp"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// TBD is the body written for a section nothing in the interview addressed.
const TBD = rp1.TBDMarker

// synthesize builds charter_content (SPEC §2): a COMPLETE section keeps its
// text (and is listed in keep, so Finish leaves it alone); otherwise the real
// text a PARTIAL section already has, then what the answers say about the
// section (rp1.QA.Said: each answer about it whole, or the sentences of
// the Brain Dump and of other answers that belong to it, none of them
// written in two sections); a section with nothing gets _TBD_.
func (st *state) synthesize() (*CharterContent, []rp1.SectionID) {
	c := &CharterContent{}
	var keep []rp1.SectionID
	src := st.ch.Index.Source()
	for _, id := range rp1.Priority {
		var parts []string
		if sec := st.ch.Section(id); sec != nil {
			existing := strings.TrimSpace(strings.ReplaceAll(string(src[sec.BodySpan.Start:sec.BodySpan.End]), "\r\n", "\n"))
			switch sec.Status {
			case rp1.StatusComplete:
				c.set(id, existing)
				keep = append(keep, id)
				continue
			case rp1.StatusPartial:
				if t := dropPlaceholderLines(existing); t != "" {
					parts = append(parts, t)
				}
			}
		}
		for _, s := range st.qa.Said(id) {
			parts = append(parts, rp1.AnswerMarkdown(s.Text))
		}
		if len(parts) == 0 {
			parts = []string{TBD}
		}
		c.set(id, strings.Join(parts, "\n\n"))
	}
	return c, keep
}

// placeholderLineRe matches a line that only waits for text.
var placeholderLineRe = regexp.MustCompile(`(?i)^\s*(?:[-*+]\s+)?(?:_TBD_|\*TBD\*|TBD|TODO|\[[^\]\n]*\]|<!--.*?-->)\s*$`)

// dropPlaceholderLines removes lines that hold only a placeholder, keeping
// every line with real text.
func dropPlaceholderLines(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if !placeholderLineRe.MatchString(line) {
			out = append(out, line)
		}
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}
