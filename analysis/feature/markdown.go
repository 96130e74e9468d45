package feature

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"go.lsp.dev/uri"
)

// Escape keeps text from charter files from turning into markup (links,
// emphasis, HTML) in a hover.
func Escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_{}[]()<>#+!|~", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CodeSafe makes s safe inside a single-backtick code span.
func CodeSafe(s string) string { return strings.ReplaceAll(s, "`", "'") }

// Link is a markdown link showing text (escaped) that opens the file at
// path (a file: URI as VS Code writes it).
func Link(text, path string) string {
	return fmt.Sprintf("[%s](%s)", Escape(text), uri.File(path))
}

// CodeList is each of ss as a code span, comma-separated.
func CodeList(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "`" + CodeSafe(s) + "`"
	}
	return strings.Join(out, ", ")
}

// Prose makes our prose with `code` spans (which quote the file) safe as
// markdown: outside the spans, markup characters are escaped; inside, the
// text stays as written (a code span shows it literally) on one line.
func Prose(s string) string {
	parts := strings.Split(strings.ReplaceAll(s, "\n", " "), "`")
	if len(parts)%2 == 0 {
		// An unpaired backtick: no span is trusted.
		return Escape(s)
	}
	for i := range parts {
		if i%2 == 0 {
			parts[i] = strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "|", `\|`, "~", `\~`).Replace(parts[i])
		}
	}
	return strings.Join(parts, "`")
}

// Reading is which generation a charter file is read as, and why: the one
// decision of its family (rp1.Era for rp1 charters, charterfile.Era for
// .charters/<id>/ charters, each with its Reading method) in one shape, for
// what says it out loud (`check --verbose`, `status`, hover on a charter's
// title).
type Reading struct {
	Generation string `json:"generation"`
	// Title names the generation for people.
	Title string `json:"title"`
	// Reasons are the evidence that decided, the deciding one first, each
	// with where it is ("state.json:3: …", "line 4: …").
	Reasons []string `json:"reasons"`
	// Otherwise says what would make it another generation.
	Otherwise string `json:"otherwise"`
	// Conflicts are evidence for another generation, which lost (each also
	// a diagnostic: generation-mismatch, generation-conflict).
	Conflicts []string `json:"conflicts"`
}

// Markdown says which generation a charter is read as and why (hover on its
// title), as check --verbose and status print it.
func (r *Reading) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "**Read as %s**, because:\n\n", Prose(r.Title))
	for _, x := range r.Reasons {
		fmt.Fprintf(&b, "- %s\n", Prose(x))
	}
	for _, x := range r.Conflicts {
		fmt.Fprintf(&b, "- despite %s\n", Prose(x))
	}
	fmt.Fprintf(&b, "\nOtherwise: %s.\n", Prose(r.Otherwise))
	return b.String()
}

// RelTo shows path relative to dir when inside it (slashes), else as it
// is.
func RelTo(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}

// Count is n and the word, plural when n is not 1: "1 place", "3 places".
func Count(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Resolve is where the relative, slash-separated path p written in a
// charter leads: the first of bases (folders; "" is skipped) under which
// it names a path accept takes, else "" (also for an absolute p). Go to
// definition and document links resolve paths here.
func Resolve(p string, accept func(string) bool, bases ...string) string {
	if p == "" || path.IsAbs(p) {
		return ""
	}
	for _, base := range bases {
		if base == "" {
			continue
		}
		if t := filepath.Join(base, filepath.FromSlash(path.Clean(p))); accept(t) {
			return t
		}
	}
	return ""
}
