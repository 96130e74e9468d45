package interview

import (
	"regexp"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/rp1"
)

// TBD is the body written for a section nothing in the interview addressed.
const TBD = rp1.TBDMarker

// synthesize builds charter_content (SPEC §2): a COMPLETE section keeps its
// text (and is listed in keep, so Finish leaves it alone); otherwise what
// the answers say about that section (answerBody), after the real text a
// PARTIAL section already has; a section with nothing gets _TBD_.
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

// answerBody is the markdown the answers give section id: the Brain Dump's
// sentences about it, then each answer about it, whole (lists, sub-headings
// and all). A section with no answer of its own and too little in the Brain
// Dump takes the sentences of another answer that says enough about it (the
// answer its question was skipped for). No text is taken from an answer about
// another section otherwise.
func (st *state) answerBody(id rp1.SectionID) string {
	var parts []string
	share := st.shares[id]
	if len(share) > 0 {
		parts = append(parts, rp1.FormatSentences(share))
	}
	own := false
	for _, e := range st.ch.Answered() {
		if !rp1.IsBrainDump(e.Topic) && e.About(id) {
			parts = append(parts, safeMarkdown(e.Answer))
			own = true
		}
	}
	if !own && !rp1.Writable(share) {
		if _, cover := st.ch.OtherAnswerCovering(id); len(cover) > 0 {
			parts = append(parts, rp1.FormatSentences(cover))
		}
	}
	return strings.Join(parts, "\n\n")
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

// safeMarkdown normalises an answer's line endings, demotes the headings
// that would end a "## " section once the text sits under it ("# x", "## x"
// become "### x") and closes a code fence the answer left open, so an
// answer's structure survives whole and cannot swallow the next section.
func safeMarkdown(s string) string {
	return rp1.CloseFence(rp1.DemoteHeadings(strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")), 2))
}
