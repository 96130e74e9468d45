package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
)

// The shell completions and the man page are generated from the commands'
// flag definitions, the ones -h prints and docs/cli.md shows: a test keeps
// the generated files (docs/completion/, docs/charter-lsp.1) in step, and
// `charter-lsp completion SHELL` prints a script.

// cmdModel is one command as its flags define it.
type cmdModel struct {
	name, summary, synopsis, about string
	flags                          []flagModel
	args                           []string // what its positional arguments complete to: "file", or words
}

// flagModel is one flag.
type flagModel struct {
	name, short string
	aliases     []string // other long names
	placeholder string   // "" for a boolean flag
	usage       string   // the help text, `quotes` removed
	values      []string // the values it takes, when fixed
	file        bool     // it takes a file or folder
}

// models describes every command, in help's order.
func models() []cmdModel {
	var out []cmdModel
	for _, c := range commands {
		e := &env{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard}
		c.run(e, []string{"-h"})
		f := e.flags
		m := cmdModel{name: c.name, summary: c.summary, synopsis: f.synopsis, about: strings.TrimSpace(f.about), args: []string{"file"}}
		shorts, longs := map[string]string{}, map[string][]string{}
		for alias, of := range f.aliases {
			switch {
			case len(alias) == 1 && of != "version":
				shorts[of] = alias
			case len(alias) > 1:
				longs[of] = append(longs[of], alias)
			}
		}
		f.VisitAll(func(fl *flag.Flag) {
			if _, alias := f.aliases[fl.Name]; alias || fl.Name == "version" {
				return
			}
			placeholder, usage := flag.UnquoteUsage(fl)
			fm := flagModel{name: fl.Name, short: shorts[fl.Name], aliases: slices.Sorted(slices.Values(longs[fl.Name])), usage: usage}
			if b, ok := fl.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				fm.placeholder = strings.ToUpper(placeholder)
			}
			if ch, ok := fl.Value.(*choice); ok {
				fm.values = ch.options
			}
			if v, ok := f.values[fl.Name]; ok {
				fm.values = v
			}
			switch fm.placeholder {
			case "FILE", "PATH", "DIR", "DIRECTORY":
				fm.file = true
			}
			m.flags = append(m.flags, fm)
		})
		switch c.name {
		case "serve", "version", "rules":
			m.args = nil
		case "explain":
			m.args = codeNames()
		case "completion":
			m.args = shells
		}
		out = append(out, m)
	}
	return out
}

func codeNames() []string {
	names := make([]string, len(diag.Rules))
	for i, r := range diag.Rules {
		names[i] = r.Name
	}
	return names
}

var shells = []string{"bash", "zsh", "fish"}

const completionAbout = `Prints a shell completion script for charter-lsp's commands, flags and their values, made from the
same flag definitions as -h. Load it with:
  bash  source <(charter-lsp completion bash)            (or save it in ~/.local/share/bash-completion/completions/charter-lsp)
  zsh   charter-lsp completion zsh > "${fpath[1]}/_charter-lsp"
  fish  charter-lsp completion fish > ~/.config/fish/completions/charter-lsp.fish
The release archives carry the three scripts and the man page (charter-lsp.1).`

func runCompletion(e *env, args []string) int {
	fl := newFlags("completion", "bash|zsh|fish", completionAbout, e)
	rest, code, ok := fl.parse(args)
	if !ok {
		return code
	}
	if len(rest) != 1 || !slices.Contains(shells, rest[0]) {
		return fl.usageError("give one shell: bash, zsh or fish")
	}
	io.WriteString(e.stdout, completionScript(rest[0]))
	return 0
}

func completionScript(shell string) string {
	switch shell {
	case "bash":
		return bashCompletion(models())
	case "zsh":
		return zshCompletion(models())
	}
	return fishCompletion(models())
}

const generatedNote = "Generated from the flag definitions by `go run ./internal/gendocs`; do not edit."

func bashCompletion(ms []cmdModel) string {
	var b strings.Builder
	b.WriteString("# bash completion for charter-lsp. " + generatedNote + "\n")
	b.WriteString("_charter_lsp() {\n")
	b.WriteString("  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= i\n")
	b.WriteString("  for ((i = 1; i < COMP_CWORD; i++)); do\n")
	b.WriteString("    case ${COMP_WORDS[i]} in -*) ;; *) cmd=${COMP_WORDS[i]}; break ;; esac\n")
	b.WriteString("  done\n")
	var names []string
	for _, m := range ms {
		names = append(names, m.name)
	}
	fmt.Fprintf(&b, "  if [[ -z $cmd ]]; then\n    COMPREPLY=($(compgen -W '%s help -h --help -V --version' -- \"$cur\"))\n    return\n  fi\n", strings.Join(names, " "))
	b.WriteString("  case $cmd in\n")
	for _, m := range ms {
		fmt.Fprintf(&b, "  %s)\n    case $prev in\n", m.name)
		var words []string
		for _, f := range m.flags {
			forms := "--" + f.name
			words = append(words, "--"+f.name)
			for _, a := range f.aliases {
				forms += "|--" + a
				words = append(words, "--"+a)
			}
			if f.short != "" {
				forms += "|-" + f.short
				words = append(words, "-"+f.short)
			}
			switch {
			case f.placeholder == "":
			case len(f.values) > 0:
				fmt.Fprintf(&b, "    %s) COMPREPLY=($(compgen -W '%s' -- \"$cur\")); return ;;\n", forms, strings.Join(f.values, " "))
			case f.file:
				fmt.Fprintf(&b, "    %s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", forms)
			default:
				fmt.Fprintf(&b, "    %s) return ;;\n", forms)
			}
		}
		words = append(words, "-h", "--help", "-V", "--version")
		b.WriteString("    esac\n")
		fmt.Fprintf(&b, "    if [[ $cur == -* ]]; then\n      COMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n", strings.Join(words, " "))
		switch {
		case len(m.args) == 1 && m.args[0] == "file":
			b.WriteString("    else\n      COMPREPLY=($(compgen -f -- \"$cur\"))\n")
		case len(m.args) > 0:
			fmt.Fprintf(&b, "    else\n      COMPREPLY=($(compgen -W '%s' -- \"$cur\"))\n", strings.Join(m.args, " "))
		}
		b.WriteString("    fi\n    ;;\n")
	}
	b.WriteString("  esac\n}\ncomplete -o filenames -F _charter_lsp charter-lsp\n")
	return b.String()
}

// brief is the first clause of a usage text, for the shells' one-line
// descriptions, without the characters their syntaxes give a meaning.
func brief(s string) string {
	s = strings.NewReplacer("[", "(", "]", ")", ":", " -", "'", "", "\"", "", "\\", "", "`", "", "$", "").Replace(s)
	if i := strings.IndexAny(s, ";("); i > 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if len(s) > 70 {
		cut := strings.LastIndex(s[:70], " ")
		s = s[:max(cut, 40)] + "…"
	}
	return s
}

func zshCompletion(ms []cmdModel) string {
	var b strings.Builder
	b.WriteString("#compdef charter-lsp\n# zsh completion for charter-lsp. " + generatedNote + "\n")
	b.WriteString("_charter_lsp() {\n  local -a commands\n  commands=(\n")
	for _, m := range ms {
		fmt.Fprintf(&b, "    '%s:%s'\n", m.name, brief(m.summary))
	}
	b.WriteString("  )\n  if (( CURRENT == 2 )); then\n    _describe 'command' commands\n    return\n  fi\n")
	b.WriteString("  local cmd=${words[2]}\n  (( CURRENT-- )); shift words\n  case $cmd in\n")
	for _, m := range ms {
		fmt.Fprintf(&b, "  %s)\n    _arguments -s \\\n", m.name)
		for _, f := range m.flags {
			spec := "--" + f.name
			if f.short != "" {
				spec = fmt.Sprintf("(-%s --%s)'{-%s,--%s}'", f.short, f.name, f.short, f.name)
			}
			action := ""
			switch {
			case f.placeholder == "":
			case len(f.values) > 0:
				action = fmt.Sprintf(":%s:(%s)", strings.ToLower(f.placeholder), strings.Join(f.values, " "))
			case f.file:
				action = fmt.Sprintf(":%s:_files", strings.ToLower(f.placeholder))
			default:
				action = fmt.Sprintf(":%s: ", strings.ToLower(f.placeholder))
			}
			fmt.Fprintf(&b, "      '%s[%s]%s' \\\n", spec, brief(f.usage), action)
		}
		b.WriteString("      '(-h --help)'{-h,--help}'[show the help]' \\\n      '(-V --version)'{-V,--version}'[print the version]'")
		switch {
		case len(m.args) == 1 && m.args[0] == "file":
			b.WriteString(" \\\n      '*:path:_files'")
		case len(m.args) > 0:
			fmt.Fprintf(&b, " \\\n      '1:argument:(%s)'", strings.Join(m.args, " "))
		}
		b.WriteString("\n    ;;\n")
	}
	b.WriteString("  esac\n}\n_charter_lsp \"$@\"\n")
	return b.String()
}

func fishCompletion(ms []cmdModel) string {
	var b strings.Builder
	b.WriteString("# fish completion for charter-lsp. " + generatedNote + "\n")
	b.WriteString("complete -c charter-lsp -f\n")
	var names []string
	for _, m := range ms {
		names = append(names, m.name)
	}
	for _, m := range ms {
		fmt.Fprintf(&b, "complete -c charter-lsp -n '__fish_use_subcommand' -a %s -d '%s'\n", m.name, brief(m.summary))
	}
	for _, m := range ms {
		cond := fmt.Sprintf("-n '__fish_seen_subcommand_from %s'", m.name)
		for _, f := range m.flags {
			line := fmt.Sprintf("complete -c charter-lsp %s -l %s", cond, f.name)
			if f.short != "" {
				line += " -s " + f.short
			}
			switch {
			case f.placeholder == "":
			case len(f.values) > 0:
				line += fmt.Sprintf(" -x -a '%s'", strings.Join(f.values, " "))
			case f.file:
				line += " -r -F"
			default:
				line += " -x"
			}
			for _, a := range f.aliases {
				line += " -l " + a
			}
			fmt.Fprintf(&b, "%s -d '%s'\n", line, brief(f.usage))
		}
		switch {
		case len(m.args) == 1 && m.args[0] == "file":
			fmt.Fprintf(&b, "complete -c charter-lsp %s -F\n", cond)
		case len(m.args) > 0:
			fmt.Fprintf(&b, "complete -c charter-lsp %s -a '%s'\n", cond, strings.Join(m.args, " "))
		}
	}
	return b.String()
}

// manPage is charter-lsp(1) in roff: every command's synopsis, what it does
// and its flags, as -h shows them.
func manPage(ms []cmdModel) string {
	var b strings.Builder
	b.WriteString(".\\\" " + generatedNote + "\n")
	b.WriteString(".TH CHARTER-LSP 1 \"\" \"charter-lsp\" \"User Commands\"\n")
	b.WriteString(".SH NAME\ncharter\\-lsp \\- a language server and linter for charter files\n")
	b.WriteString(".SH SYNOPSIS\n.B charter\\-lsp\n[\\fICOMMAND\\fR] [\\fIFLAGS\\fR] [\\fIARGS\\fR]\n")
	b.WriteString(".SH DESCRIPTION\n")
	b.WriteString(roff("charter-lsp checks charter files: rp1's charter.md, pi-charter's .pi/charters/<id>/ and .charters/<id>/ folders. Editors run it as a language server (charter-lsp serve, or bare charter-lsp with stdin a pipe); the commands below run the same engine from a shell and in CI. Every command takes -h (--help) and -V (--version); flags go before or after the arguments, as --flag value, --flag=value or -flag value, and -- ends them."))
	b.WriteString("\n.SH COMMANDS\n")
	for _, m := range ms {
		fmt.Fprintf(&b, ".SS \"%s\"\n", roff("charter-lsp "+m.name+" "+strings.SplitN(m.synopsis, "\n", 2)[0]))
		fmt.Fprintf(&b, "%s\n.PP\n.nf\n%s\n.fi\n", roff(m.summary+"."), roff(m.about))
		for _, f := range m.flags {
			b.WriteString(".TP\n")
			forms := "\\fB\\-\\-" + roff(f.name) + "\\fR"
			for _, a := range f.aliases {
				forms += ", \\fB\\-\\-" + roff(a) + "\\fR"
			}
			if f.short != "" {
				forms = "\\fB\\-" + f.short + "\\fR, " + forms
			}
			if f.placeholder != "" {
				forms += " \\fI" + roff(f.placeholder) + "\\fR"
			}
			fmt.Fprintf(&b, "%s\n%s\n", forms, roff(f.usage))
		}
	}
	b.WriteString(".SH EXIT STATUS\n")
	b.WriteString(roff("0: fine (check: no error, and no more warnings than --max-warnings); 1: findings, or a refused action; 2: a usage or I/O error, or a PATH that holds no charter. Each command's help says its own."))
	b.WriteString("\n.SH ENVIRONMENT\n.TP\n.B NO_COLOR\n" + roff("set (to anything but empty): check's --color auto colours nothing.") + "\n")
	b.WriteString(".TP\n.B FORCE_COLOR\n" + roff("set (but not to 0 or false): --color auto colours output that is not a terminal too, over NO_COLOR.") + "\n")
	b.WriteString(".SH FILES\n.TP\n.I .charter\\-lsp.jsonc\n" + roff("the project configuration, found in a file's folder or above it, up to the repository root (charter-lsp init writes one).") + "\n")
	b.WriteString(".SH SEE ALSO\n" + roff("docs/cli.md, docs/diagnostics.md (charter-lsp rules, charter-lsp explain CODE), "+diag.DocsURL) + "\n")
	return b.String()
}

// roff escapes text for roff: backslashes, a leading dot or quote, and
// dashes as minus signs (so options copy as typed).
func roff(s string) string {
	s = strings.NewReplacer("\\", "\\e", "-", "\\-").Replace(s)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = "\\&" + l
		}
	}
	return strings.Join(lines, "\n")
}
