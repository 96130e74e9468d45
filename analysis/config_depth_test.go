package analysis

import (
	"os"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// A project file nested two million deep (4 MB, under the size limit)
// made hujson recurse until the goroutine's stack overflowed: a fatal
// error no recover catches, which ended `check` and the language server.
// It is refused with an error now. The parse runs in a child process, as a
// stack overflow cannot be caught in this one.
func TestDeeplyNestedConfigIsRefused(t *testing.T) {
	if os.Getenv("CHARTER_DEEP_CONFIG_CHILD") == "1" {
		debug.SetMaxStack(64 << 20) // overflow fast if it still recurses
		for _, src := range []string{
			`{"severity":` + strings.Repeat("[", 2_000_000) + strings.Repeat("]", 2_000_000) + `}`,
			`{"sourceDirs": [` + strings.Repeat(`{"a":`, 500_000) + "1" + strings.Repeat("}", 500_000) + `]}`,
		} {
			_, err := ParseConfig([]byte(src))
			if err == nil || !strings.Contains(err.Error(), "nested") {
				os.Stdout.WriteString("unexpected error: " + err.Error()[:min(len(err.Error()), 200)] + "\n")
				os.Exit(3)
			}
		}
		os.Stdout.WriteString("refused\n")
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDeeplyNestedConfigIsRefused$")
	cmd.Env = append(os.Environ(), "CHARTER_DEEP_CONFIG_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "refused") {
		head := string(out)
		if len(head) > 300 {
			head = head[:300]
		}
		t.Fatalf("parsing a deeply nested config: %v\n%s", err, head)
	}

	// Nesting a real config could have is fine, and brackets in strings
	// and comments are not nesting.
	ok := `{"sourceDirs": ["[[[[", "{{{{"], /* [[[[{{{{ */ "severity": {} // ]]]]` + "\n}"
	if _, err := ParseConfig([]byte(ok)); err != nil {
		t.Errorf("ParseConfig(%s): %v", ok, err)
	}
}
