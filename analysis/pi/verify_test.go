package pi

import (
	"strings"
	"testing"
)

func TestVerification(t *testing.T) {
	ch := ParseCharter([]byte("# Charter: x\n\n## Commands\n\ntest: go test ./...\nunit: go test -run TestUnit ./...\n"))
	for _, tc := range []struct {
		name, body, command, key, weak, err string
	}{
		{name: "own command", body: "Verifier: command\nCommand: go vet ./...", command: "go vet ./..."},
		{name: "a ## Commands key", body: "Verifier: command\nCommand: test", command: "go test ./...", key: "test"},
		{name: "a key in capitals", body: "Verifier: command\nCommand: TEST", command: "go test ./...", key: "test"},
		{name: "a weak entry", body: "Verifier: command\nCommand: unit", command: "go test -run TestUnit ./...", key: "unit", weak: "-run"},
		{name: "weak, upstream's rule", body: "Verifier: command\nCommand: npx vitest -t 'expired'", command: "npx vitest -t 'expired'", weak: "-t"},
		{name: "more than a key", body: "Verifier: command\nCommand: test ./x", command: "test ./x"},
		{name: "manual", body: "Verifier: manual\nBecause: eyes", err: "is verified by manual, not by a command"},
		{name: "no verifier", body: "Command: go test ./...", err: "is verified by manual"},
		{name: "no command", body: "Verifier: command", err: "no Command: line"},
		{name: "degraded", body: "Verifier: commnad\nCommand: go test ./...", err: "upstream reads it as manual"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cr := ParseCriteria([]byte("# Criteria\n\n### VAL-X-001 — it works\n" + tc.body + "\n")).Lookup("VAL-X-001")
			v, err := cr.Verification(ch)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || v.Command != tc.command || v.Key != tc.key {
				t.Fatalf("got %+v %v, want %q key %q", v, err, tc.command, tc.key)
			}
			if (v.Weak != nil) != (tc.weak != "") || v.Weak != nil && v.Weak.TitleFlag != tc.weak {
				t.Errorf("weak %+v, want %q", v.Weak, tc.weak)
			}
		})
	}
}
