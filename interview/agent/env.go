package agent

import (
	"slices"
	"strings"
)

// keep are the variables an agent gets from charter-lsp's own environment
// (the user's: the shell's, or the editor's that started the server; never
// the repository's): what a program needs to find itself, its user's home
// and configuration (where a command-line LLM client keeps its key), the
// locale, the temporary folder and the network's proxies. Everything else
// is left out unless the user names it in CHARTER_LSP_AGENT_ENV.
var keep = []string{
	"PATH", "HOME", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ", "LANG", "LANGUAGE",
	"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR",
	// Windows: what a process needs to start and find its profile.
	"SYSTEMROOT", "SystemRoot", "COMSPEC", "ComSpec", "PATHEXT", "WINDIR", "USERPROFILE", "APPDATA",
	"LOCALAPPDATA", "TEMP", "TMP", "HOMEDRIVE", "HOMEPATH",
}

// Env is the agent's environment, built from environ (os.Environ()): the
// variables in keep, the locale's LC_*, those named in pass, then
// RP1_ROOT (the seed's input: the project's .rp1 folder) and NO_COLOR=1
// (the answer is read as JSON, not shown). CHARTER_LSP_AGENT and its
// siblings are never passed on: an agent that runs charter-lsp gets the
// built-in engine, not itself again.
func Env(environ []string, pass []string, rp1Root string) []string {
	var out []string
	for _, kv := range environ {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" || strings.HasPrefix(k, "CHARTER_LSP_AGENT") || k == "RP1_ROOT" || k == "NO_COLOR" {
			continue
		}
		if slices.Contains(keep, k) || strings.HasPrefix(k, "LC_") || slices.Contains(pass, k) {
			out = append(out, kv)
		}
	}
	return append(out, "RP1_ROOT="+rp1Root, "NO_COLOR=1")
}
