package pi

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/analysis/source"
)

// ParseCriteria parses criteria.md exactly as upstream resolves it.
//
// The file is split into blocks at H1 and H2 headings; each block is parsed
// on its own with block-relative offsets (so a changed block can later be
// re-parsed alone), then resolve applies upstream's rules across blocks:
// milestones and ungrouped ## VAL-* first, then the "## Criteria" quirk, then
// the flat fallback.
func ParseCriteria(src []byte) *Criteria {
	c, _ := ParseCriteriaContext(context.Background(), src)
	return c
}

// ParseCriteriaContext is ParseCriteria that stops, returning ctx's error,
// when ctx is done (checked per block).
func ParseCriteriaContext(ctx context.Context, src []byte) (*Criteria, error) {
	bounds := splitBlocks(src)
	blocks := make([]placedBlock, len(bounds))
	for i, b := range bounds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		blocks[i] = placedBlock{parseBlock(src[b.start:b.end], b.kind), b.start}
	}
	return resolve(ctx, src, blocks)
}

// CriteriaParser parses successive versions of one criteria.md, reusing
// the parse of every block whose text is unchanged since the previous
// version: a keystroke re-parses one block (in a milestone, from the VAL
// before the edit: parseBlockKept), and the rest is placed at its
// new offset (a Criterion is its block-relative parse and that offset, so
// nothing of the parse is copied). The
// blocks before and after the edit are found by comparing the two
// versions (their common prefix and suffix), or from what the edit kept
// when the caller says (ParseEdited), not by splitting and hashing the
// whole text again; only the blocks around the edit are split anew.
// The result is identical to ParseCriteria's; parsing the same text again
// returns the same *Criteria, which callers therefore must not modify. The
// parser keeps the last text it was given to recognise it (without copying
// 1.7 MB per keystroke): callers must not modify a text once parsed. The
// zero value is ready to use and safe for concurrent use.
type CriteriaParser struct {
	mu sync.Mutex
	// last is the previous version and its result.
	lastSrc []byte
	last    *Criteria
	// bounds are the blocks of the last parsed version and blocks their
	// parses, in order. Parsed blocks are immutable.
	bounds []blockBounds
	blocks []*parsedBlock
}

// Parse parses src as ParseCriteria does.
func (p *CriteriaParser) Parse(src []byte) *Criteria {
	c, _ := p.ParseContext(context.Background(), src)
	return c
}

// ParseContext is Parse that stops, returning ctx's error, when ctx is done
// (checked per block parsed); the parser then keeps its previous state.
func (p *CriteriaParser) ParseContext(ctx context.Context, src []byte) (*Criteria, error) {
	return p.parse(ctx, src, nil, source.Kept{})
}

// ParseEdited is ParseContext for src made by an edit of before that kept
// what kept says (source.ApplyChangesKept): when before is the text the
// parser was given last (the same bytes, not a copy), the two are not
// compared to find the edit.
func (p *CriteriaParser) ParseEdited(ctx context.Context, src, before []byte, kept source.Kept) (*Criteria, error) {
	return p.parse(ctx, src, before, kept)
}

func (p *CriteriaParser) parse(ctx context.Context, src, before []byte, kept source.Kept) (*Criteria, error) {
	p.mu.Lock()
	oldSrc, oldBounds, oldBlocks := p.lastSrc, p.bounds, p.blocks
	// pre and suf are what the previous version and src have in common
	// at either end.
	pre, suf := -1, -1
	if len(before) > 0 && len(before) == len(oldSrc) && &before[0] == &oldSrc[0] {
		pre = min(kept.Prefix, len(oldSrc), len(src))
		suf = min(kept.Suffix, len(oldSrc)-pre, len(src)-pre)
	}
	same := false
	if p.last != nil {
		if pre < 0 {
			same = bytes.Equal(oldSrc, src)
		} else {
			// What the edit did not keep may still read the same.
			same = len(src) == len(oldSrc) && bytes.Equal(oldSrc[pre:len(oldSrc)-suf], src[pre:len(src)-suf])
		}
	}
	if same {
		defer p.mu.Unlock()
		return p.last, nil
	}
	p.mu.Unlock()
	if pre < 0 && len(oldBounds) > 0 {
		pre = source.CommonPrefix(oldSrc, src)
		suf = source.CommonSuffix(oldSrc[pre:], src[pre:])
	}
	bounds, from := splitEdited(oldSrc, oldBounds, src, pre, suf)
	next := make([]*parsedBlock, len(bounds))
	blocks := make([]placedBlock, len(bounds))
	for i, b := range bounds {
		var pb *parsedBlock
		if j := from[i]; j >= 0 {
			pb = oldBlocks[j]
		} else {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			pb = parseBlockKept(src[b.start:b.end], b.kind, keptBlock(oldBounds, oldBlocks, b, pre))
		}
		next[i] = pb
		blocks[i] = placedBlock{pb, b.start}
	}
	out, err := resolve(ctx, src, blocks)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	out.shareIndex(p.last)
	p.bounds, p.blocks, p.lastSrc, p.last = bounds, next, src, out
	p.mu.Unlock()
	return out, nil
}

// splitEdited splits src into blocks as splitBlocks does, given old, the
// version before, and its blocks ob: from[i] is the index in ob of a block
// with the same kind and text as the i-th, or -1. The blocks wholly before
// the edit (the first pre bytes of old and src, which they have in
// common) and after it (their last suf bytes) are ob's, moved; from the block before the one the edit begins
// in to the one it ends in, src is split again. A block of the suffix
// starts past the edit, so the line break before its heading is unchanged;
// the block before the edit's first one ends where a heading line of the
// prefix begins, which the edit may have turned into text, so it is split
// again too.
func splitEdited(old []byte, ob []blockBounds, src []byte, pre, suf int) (nb []blockBounds, from []int) {
	if len(ob) == 0 {
		nb = splitBlocks(src)
		from = make([]int, len(nb))
		for i := range from {
			from[i] = -1
		}
		return nb, from
	}
	delta := len(src) - len(old)
	// holding is the index of the last block starting at or before off.
	holding := func(off int) int {
		return sort.Search(len(ob), func(i int) bool { return ob[i].start > off }) - 1
	}
	k := max(holding(pre)-1, 0)
	m := max(holding(len(old)-suf), k)
	start, end := ob[k].start, ob[m].end+delta
	var mid []blockBounds
	if end > start || start == 0 && len(src) == 0 {
		mid = splitBlocks(src[start:end])
	}
	nb = make([]blockBounds, 0, k+len(mid)+len(ob)-m-1)
	from = make([]int, 0, cap(nb))
	for i := range k {
		nb, from = append(nb, ob[i]), append(from, i)
	}
	// A block split again may still be one of the old ones around the
	// edit (the one before it, always).
	for _, b := range mid {
		b.start, b.end = b.start+start, b.end+start
		j := -1
		for o := k; o <= m; o++ {
			if ob[o].kind == b.kind && bytes.Equal(old[ob[o].start:ob[o].end], src[b.start:b.end]) {
				j = o
				break
			}
		}
		nb, from = append(nb, b), append(from, j)
	}
	for i := m + 1; i < len(ob); i++ {
		b := ob[i]
		b.start, b.end = b.start+delta, b.end+delta
		nb, from = append(nb, b), append(from, i)
	}
	return nb, from
}

type blockKind int

const (
	blockPreamble blockKind = iota // before the first H1 or H2
	blockReset                     // an H1, or an H2 with blank text: upstream drops what follows
	blockH2
)

type blockBounds struct {
	kind       blockKind
	start, end int
}

// splitBlocks cuts src at upstream's H1 (/^#\s+/) and H2 (/^##\s+(.+?)\s*$/) lines.
func splitBlocks(src []byte) []blockBounds {
	var out []blockBounds
	cur := blockBounds{kind: blockPreamble}
	// Only lines starting with '#' can start a block, so look at those
	// alone instead of splitting the whole file into lines.
	for start := 0; start < len(src); {
		nl := bytes.IndexByte(src[start:], '\n')
		l := line{start: start, end: len(src), next: len(src)}
		if nl >= 0 {
			l.end, l.next = start+nl, start+nl+1
			if l.end > start && src[l.end-1] == '\r' {
				l.end--
			}
		}
		if src[start] == '#' {
			if kind, ok := blockStart(src, l); ok {
				cur.end = l.start
				if cur.end > cur.start || cur.kind != blockPreamble {
					out = append(out, cur)
				}
				cur = blockBounds{kind: kind, start: l.start}
			}
		}
		if nl < 0 {
			break
		}
		start = l.next
	}
	cur.end = len(src)
	return append(out, cur)
}

func blockStart(src []byte, l line) (blockKind, bool) {
	if isH1(src, l) {
		return blockReset, true
	}
	if t, ok := heading(src, l, 2); ok {
		if t.Len() == 0 {
			return blockReset, true
		}
		return blockH2, true
	}
	return 0, false
}

// isH1 is upstream's /^#\s+/ (no text needed).
func isH1(src []byte, l line) bool {
	if l.end-l.start < 2 || src[l.start] != '#' {
		return false
	}
	r, _ := utf8.DecodeRune(src[l.start+1 : l.end])
	return isJSSpace(r)
}

// placedBlock is a parsed block at its offset in the version being
// resolved; the parsed block itself is shared and unmodified.
type placedBlock struct {
	*parsedBlock
	start int
}

// parsedBlock is one block's content, with spans relative to its start.
type parsedBlock struct {
	kind        blockKind
	headingLine source.Span
	heading     source.Span // trimmed heading text (H2 only)
	// ungrouped is set for an H2 whose text is a valid VAL heading; its body
	// is the whole block, ### lines included.
	ungrouped *parsedCriterion
	// sections are the valid ### VAL-* criteria inside the block.
	sections []*parsedCriterion
	// invalid are VAL-like ### headings upstream rejects.
	invalid []DroppedVAL
	// invalidHeading is set for an H2 whose text is a rejected VAL id.
	invalidHeading *DroppedVAL
	// placed is its criteria at the offset of the version that last
	// placed it; held in the block, whose memory resolve reads anyway,
	// not behind a pointer of its own.
	placed placement
	// milestone and title are the milestone's id and heading text.
	milestone, title string
	// found are the findings of the criteria the block holds (its
	// ungrouped VAL's, or its sections' and its milestone's size),
	// located in its text (locateChecks).
	found diag.Carried
}

func parseBlock(text []byte, kind blockKind) *parsedBlock {
	return parseBlockKept(text, kind, kept{})
}

// kept is what a block being parsed keeps of the parse of the block it
// was in the version before: its first n bytes are that block's.
type kept struct {
	old *parsedBlock
	n   int
}

// keptBlock is what the block b of a new version, made by an edit that
// kept the first pre bytes of the old one (whose blocks were ob, parsed
// as op), keeps of the old block that started where b does.
func keptBlock(ob []blockBounds, op []*parsedBlock, b blockBounds, pre int) kept {
	if pre <= b.start {
		return kept{}
	}
	i := sort.Search(len(ob), func(i int) bool { return ob[i].start >= b.start })
	if i == len(ob) || ob[i].start != b.start || ob[i].kind != b.kind {
		return kept{}
	}
	return kept{op[i], pre - b.start}
}

// sections is how many of the old block's ### VALs the block keeps, and
// where the rest of its text begins: a section's parse reads its lines up
// to the next ### heading, so those of an H2 milestone before a ###
// heading line that lies wholly in the kept bytes (its line break too)
// are the old parse's. Its heading line is then kept too.
func (k kept) sections(kind blockKind) (n, rest int) {
	old := k.old
	if old == nil || kind != blockH2 || old.kind != kind || old.ungrouped != nil {
		return 0, 0
	}
	for n+1 < len(old.sections) && old.sections[n+1].heading.End+2 <= k.n {
		n++
	}
	if n == 0 {
		return 0, 0
	}
	return n, old.sections[n].heading.Start
}

// parseBlockKept is parseBlock for a block that keeps what k says of the
// block it was: the ### VALs it keeps (kept.sections) are not parsed
// again, nor the lines they span.
func parseBlockKept(text []byte, kind blockKind, k kept) *parsedBlock {
	pb := &parsedBlock{kind: kind}
	var sizeCheck *diag.Diagnostic // the milestone's, when it has too few or too many VALs
	reuse, rest := k.sections(kind)
	var lines, body []line
	if reuse > 0 {
		// The heading line, then the lines from the first section
		// parsed again: an H2 milestone's lines between are not read.
		body = splitLines(text, rest, len(text))
		hl := k.old.headingLine
		lines = []line{{start: hl.Start, end: hl.End, next: bytes.IndexByte(text[hl.End:], '\n') + hl.End + 1}}
	} else {
		lines = splitLines(text, 0, len(text))
		body = lines
		if kind != blockPreamble {
			body = lines[1:]
		}
	}
	if kind != blockPreamble {
		pb.headingLine = lines[0].span()
	}
	if kind == blockH2 {
		pb.heading, _ = heading(text, lines[0], 2)
		if id, title, greedy, ok := matchVALHeading(text, pb.heading); ok {
			pb.ungrouped = parseCriterion(text, lines[0], pb.heading, id, title, greedy, body, 2)
		} else if tok, ok := looksLikeVALID(text, pb.heading); ok {
			pb.invalidHeading = &DroppedVAL{Reason: DropInvalidID, Text: string(text[pb.heading.Start:pb.heading.End]),
				HeadingSpan: pb.headingLine, IDSpan: tok}
		}
	}
	pb.sections, pb.invalid = parseSections(text, body)
	if reuse > 0 {
		// The kept sections, and the rejected VAL headings among them,
		// first: they are the old block's, read only.
		old := k.old
		pb.sections = append(slices.Clip(old.sections[:reuse]), pb.sections...)
		dropped := 0
		for dropped < len(old.invalid) && old.invalid[dropped].HeadingSpan.Start < rest {
			dropped++
		}
		if dropped > 0 {
			pb.invalid = append(slices.Clip(old.invalid[:dropped]), pb.invalid...)
		}
	}
	if kind == blockH2 && pb.ungrouped == nil && len(pb.sections) > 0 {
		pb.title = string(text[pb.heading.Start:pb.heading.End])
		pb.milestone = pb.title[:firstToken(text, pb.heading).End-pb.heading.Start]
		for _, c := range pb.sections[reuse:] { // the kept ones have it: the heading is kept
			c.MilestoneID = pb.milestone
		}
		if note := milestoneSizeNote(pb.milestone, len(pb.sections)); note != "" {
			dg := diag.Written(diag.MilestoneSize, pb.headingLine, note)
			sizeCheck = &dg
		}
	}
	pb.locateChecks(text, sizeCheck)
	return pb
}

// locateChecks locates the findings of the criteria the block holds, and
// its milestone's size one (sizeCheck, if any), in its text
// (diag.Carry), in the order of the text. A block starts a line, so they
// are where they say in every version that holds the block: the check
// places them without locating them again. A ### VAL under an ungrouped
// ## VAL is not a criterion: its findings are not the block's.
func (pb *parsedBlock) locateChecks(text []byte, sizeCheck *diag.Diagnostic) {
	var ds []diag.Diagnostic
	if pb.ungrouped != nil {
		ds = slices.Clone(pb.ungrouped.checks)
	} else {
		n := 0
		if sizeCheck != nil {
			n++
		}
		for _, c := range pb.sections {
			n += len(c.checks)
		}
		if n == 0 {
			return
		}
		ds = make([]diag.Diagnostic, 0, n)
		if sizeCheck != nil {
			ds = append(ds, *sizeCheck)
		}
		for _, c := range pb.sections {
			ds = append(ds, c.checks...)
		}
	}
	if len(ds) > 0 {
		pb.found = diag.Carry(ds, source.NewIndex(text))
	}
}

// parseSections splits lines at upstream's ### headings (/^###\s+(.+?)\s*$/)
// and parses each valid VAL heading with the lines up to the next ### heading.
func parseSections(src []byte, lines []line) (crits []*parsedCriterion, invalid []DroppedVAL) {
	type open struct {
		hl     line
		text   source.Span
		bodyAt int
	}
	var cur *open
	flush := func(end int) {
		if cur == nil || cur.text.Len() == 0 {
			return
		}
		if id, title, greedy, ok := matchVALHeading(src, cur.text); ok {
			crits = append(crits, parseCriterion(src, cur.hl, cur.text, id, title, greedy, lines[cur.bodyAt:end], 3))
		} else if tok, ok := looksLikeVALID(src, cur.text); ok {
			invalid = append(invalid, DroppedVAL{Reason: DropInvalidID, Text: string(src[cur.text.Start:cur.text.End]),
				HeadingSpan: cur.hl.span(), IDSpan: tok})
		}
	}
	for i, l := range lines {
		t, ok := heading(src, l, 3)
		if !ok {
			continue
		}
		flush(i)
		cur = &open{hl: l, text: t, bodyAt: i + 1}
	}
	flush(len(lines))
	return crits, invalid
}

// resolve applies upstream's cross-block rules and places the blocks'
// criteria at their file offsets.
func resolve(ctx context.Context, src []byte, blocks []placedBlock) (*Criteria, error) {
	out := &Criteria{Mode: ModeMilestones}
	n, found, holding, milestones := 0, 0, 0, 0
	for _, b := range blocks {
		if b.kind == blockH2 && b.holds() > 0 {
			n += b.holds()
			holding++
			if b.ungrouped == nil {
				milestones++
			}
		}
		if b.kind == blockH2 && len(b.found) > 0 {
			found++
		}
	}
	if n > 0 {
		out.Criteria = make([]*Criterion, 0, n)
		out.runs = make([]criteriaRun, 0, holding)
	}
	if milestones > 0 {
		out.Milestones = make([]*Milestone, 0, milestones)
	}
	if found > 0 {
		out.found = make([]blockFindings, 0, found)
	}
	var room arena
	for _, b := range blocks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, d := range b.invalid {
			out.Dropped = append(out.Dropped, d.shift(b.start))
		}
		if b.kind != blockH2 {
			continue
		}
		switch {
		case b.ungrouped != nil || len(b.sections) > 0:
			// A block placed anew has its criteria's pointers written
			// where they go in out.Criteria (the block's slice is that
			// part of it): only a block placed before is copied.
			have := len(out.Criteria)
			room.left, room.ptrs = n-have, out.Criteria[have:n]
			crits, m := b.place(&room)
			if len(crits) > 0 && have+len(crits) <= n && &crits[0] == &out.Criteria[:n][have] {
				out.Criteria = out.Criteria[:have+len(crits)]
			} else {
				out.Criteria = append(out.Criteria, crits...)
			}
			out.runs = append(out.runs, b.run())
			if m != nil {
				out.Milestones = append(out.Milestones, m)
			}
			if len(b.found) > 0 {
				out.found = append(out.found, blockFindings{b.start, b.found})
			}
		case b.invalidHeading != nil:
			out.Dropped = append(out.Dropped, b.invalidHeading.shift(b.start))
		}
	}
	if len(out.Criteria) == 0 {
		if hasCriteriaH2(src, blocks) {
			out.Mode = ModeCriteriaSection
		} else {
			out.Mode = ModeFlat
			out.Criteria, out.found, out.runs = flatCriteria(src, blocks)
		}
	}
	if out.Mode != ModeFlat {
		for _, b := range blocks {
			reason := DropUnderH1
			if b.kind == blockH2 {
				if b.ungrouped == nil {
					continue
				}
				reason = DropNested
			}
			for _, s := range b.sections {
				out.Dropped = append(out.Dropped, DroppedVAL{Reason: reason, Text: s.headingText(src, b.start),
					HeadingSpan: s.heading.Shift(b.start), IDSpan: s.id.Shift(b.start)})
			}
		}
	}
	sortDropped(out.Dropped)
	return out, nil
}

// flatCriteria is every ### VAL-* of the file, each running to the next
// ### heading, and their findings and runs (as Criteria.found and runs:
// nil runs for criteria parsed from the whole file). When
// every ### heading that is a VAL, or looks like one, lies in the last
// block (a file of "# Criteria" then VALs), those are the block's own
// criteria, already parsed: a register of 150,000 VALs is not parsed
// twice.
func flatCriteria(src []byte, blocks []placedBlock) ([]*Criterion, []blockFindings, []criteriaRun) {
	if n := len(blocks); n > 0 {
		last := blocks[n-1]
		alone := true
		for _, b := range blocks[:n-1] {
			alone = alone && len(b.sections) == 0 && len(b.invalid) == 0 && b.ungrouped == nil
		}
		if alone && last.ungrouped == nil {
			if len(last.sections) == 0 {
				return nil, nil, nil
			}
			crits, _ := last.place(new(arena))
			var found []blockFindings
			if len(last.found) > 0 {
				found = []blockFindings{{last.start, last.found}}
			}
			return crits, found, []criteriaRun{last.run()}
		}
	}
	crits, _ := parseSections(src, splitLines(src, 0, len(src)))
	return new(arena).place(crits, 0), nil, nil
}

// holds is how many criteria the block gives when it is a milestone or
// an ungrouped VAL (or the flat register's last block).
func (pb *parsedBlock) holds() int {
	if pb.ungrouped != nil {
		return 1
	}
	return len(pb.sections)
}

// run is the criteria the block gives, as Criteria.runs has them; the
// block holds some.
func (pb *parsedBlock) run() criteriaRun {
	if pb.ungrouped != nil {
		return criteriaRun{&pb.ungrouped, 1}
	}
	return criteriaRun{&pb.sections[0], len(pb.sections)}
}

// placement remembers a block's criteria (and milestone) placed at the
// offset of the version that last used it. Blocks before an edit keep their
// offset, so their criteria are reused as they are instead of placed again.
type placement struct {
	mu        sync.Mutex
	valid     bool
	start     int
	criteria  []*Criterion
	milestone *Milestone
}

// place returns the criteria of a block holding VALs placed at its offset,
// and its milestone (nil for an ungrouped ## VAL-* or a block that is no
// H2). The result is shared by every version that has the block at the
// same offset.
func (b placedBlock) place(room *arena) ([]*Criterion, *Milestone) {
	memo := &b.placed
	memo.mu.Lock()
	defer memo.mu.Unlock()
	if memo.valid && memo.start == b.start {
		return memo.criteria, memo.milestone
	}
	var m *Milestone
	var crits []*Criterion
	switch {
	case b.ungrouped != nil:
		crits = room.place([]*parsedCriterion{b.ungrouped}, b.start)
	case b.kind == blockH2:
		m = room.milestone()
		m.HeadingSpan = b.headingLine.Shift(b.start)
		m.ID, m.Title = b.milestone, b.title
		m.IDSpan = source.Span{Start: b.start + b.heading.Start, End: b.start + b.heading.Start + len(m.ID)}
		crits = room.place(b.sections, b.start)
		m.Criteria = crits
	default:
		crits = room.place(b.sections, b.start)
	}
	memo.valid, memo.start, memo.criteria, memo.milestone = true, b.start, crits, m
	return crits, m
}

// arena hands out the criteria and milestones of one version's placement
// from a few larger allocations: a keystroke places every block after the
// edit, and a first parse every block.
type arena struct {
	crits []Criterion
	// ptrs is where the next criteria's pointers go: the room left in the
	// version's Criteria, when resolve gives it.
	ptrs       []*Criterion
	milestones []Milestone
	// left is how many criteria may still be asked for, when known.
	left int
}

const arenaChunk = 256

// chunk is the size of a new allocation for n criteria (or milestones).
func (a *arena) chunk(n int) int {
	return max(n, min(arenaChunk, a.left))
}

// place places the parsed criteria ps at offset at.
func (a *arena) place(ps []*parsedCriterion, at int) []*Criterion {
	n := len(ps)
	if n == 0 {
		return nil
	}
	if len(a.crits) < n {
		a.crits = make([]Criterion, a.chunk(n))
	}
	if len(a.ptrs) < n {
		a.ptrs = make([]*Criterion, a.chunk(n))
	}
	crits, out := a.crits[:n:n], a.ptrs[:n:n]
	a.crits, a.ptrs, a.left = a.crits[n:], a.ptrs[n:], a.left-n
	for i, p := range ps {
		crits[i] = Criterion{parsedCriterion: p, at: at}
		out[i] = &crits[i]
	}
	return out
}

func (a *arena) milestone() *Milestone {
	if len(a.milestones) == 0 {
		a.milestones = make([]Milestone, max(1, a.chunk(1)/8))
	}
	m := &a.milestones[0]
	a.milestones = a.milestones[1:]
	return m
}

// hasCriteriaH2: upstream looks up a "criteria" H2 section when milestones
// yield nothing.
func hasCriteriaH2(src []byte, blocks []placedBlock) bool {
	for _, b := range blocks {
		if b.kind == blockH2 && normalizeKey(src[b.start+b.heading.Start:b.start+b.heading.End]) == "criteria" {
			return true
		}
	}
	return false
}

func firstToken(src []byte, t source.Span) source.Span {
	e := t.Start
	for e < t.End {
		r, n := utf8.DecodeRune(src[e:t.End])
		if isJSSpace(r) {
			break
		}
		e += n
	}
	return source.Span{Start: t.Start, End: e}
}

// headingText is c's heading text after the ###, c placed at at in src.
func (c *parsedCriterion) headingText(src []byte, at int) string {
	return strings.TrimFunc(string(src[c.heading.Start+at+3:c.heading.End+at]), isJSSpace)
}

func (d DroppedVAL) shift(delta int) DroppedVAL {
	d.HeadingSpan = d.HeadingSpan.Shift(delta)
	d.IDSpan = d.IDSpan.Shift(delta)
	return d
}

func (f Field) shift(delta int) Field {
	f.LineSpan = f.LineSpan.Shift(delta)
	f.KeySpan = f.KeySpan.Shift(delta)
	f.ValueSpan = f.ValueSpan.Shift(delta)
	return f
}

func sortDropped(ds []DroppedVAL) {
	sort.SliceStable(ds, func(i, j int) bool { return ds[i].HeadingSpan.Start < ds[j].HeadingSpan.Start })
}
