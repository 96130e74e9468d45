package agenttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// childEnv marks the test binary run by TestBuiltinLeavesNothingBehind.
const childEnv = "CHARTER_AGENTTEST_CHILD"

// A test binary that built the built-in agent leaves nothing in the
// temporary folder once it exited: the binary is run again as a child
// with a temporary folder of its own, builds and runs the agent, and the
// folder is empty afterwards.
func TestBuiltinLeavesNothingBehind(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("the child's run")
	}
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestBuiltinChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childEnv+"=1", "TMPDIR="+tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the child test binary: %v\n%s", err, out)
	}
	left, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range left {
		t.Errorf("the test binary left %s behind", filepath.Join(tmp, e.Name()))
	}
}

// TestBuiltinChild builds and runs the built-in agent (only as
// TestBuiltinLeavesNothingBehind's child).
func TestBuiltinChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("run by TestBuiltinLeavesNothingBehind")
	}
	log := filepath.Join(t.TempDir(), "modes")
	script := Builtin(t, log)
	charter := filepath.Join(t.TempDir(), "charter.md")
	if err := os.WriteFile(charter, []byte("# Charter\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(script, charter, "draft").CombinedOutput(); err != nil {
		t.Logf("the agent answered %v: %s", err, out) // its answer is not this test's business
	}
	if b, err := os.ReadFile(log); err != nil || string(b) != "draft\n" {
		t.Fatalf("the agent's script did not run: %q %v", b, err)
	}
}

func TestMain(m *testing.M) { Main(m) }
