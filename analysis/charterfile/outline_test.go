package charterfile

import (
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/outline"
)

func TestOutline(t *testing.T) {
	for _, tc := range []struct {
		name string
		gen  Generation
		src  string
		want string
	}{
		{"fi15", FI15, `# Charter: Offline sync

## Objective

Ship offline sync.

### Background
Why now.

## References

- ` + "`docs/sync.md`" + `

## Criteria

### C1. Edits survive a restart
Status: pass — 30/30 restored

### C2. Concurrent edits merge
Depends: C1
Status: in-progress — two failures left

### C3 Toolbar shows state
Status: pending

### C1. Again
Status: fail

## Notes

Remember the cache.
`, `Charter: Offline sync title 1-31
  Objective section 3-8
    Background heading 7-8
  References section 10-12
  Criteria [1/2 pass] section 14-27
    C1. Edits survive a restart [pass] criterion 16-17
    C2. Concurrent edits merge [in-progress · after C1] criterion 19-21
    C3 Toolbar shows state heading 23-24
    C1. Again [duplicate id: ignored] criterion 26-27
  Notes [not read by pi-charter] heading 29-31
`},
		{"fi14", FI14, `## Objective
Migrate the parser.
## Criteria
### C1. Nested blocks parse
Evidence: pass — 42/42
### C2. Docs updated
Depends: C1
`, `Objective section 1-2
Criteria [1/2 pass] section 3-7
  C1. Nested blocks parse [pass] criterion 4-5
  C2. Docs updated [none (no Evidence line) · after C1] criterion 6-7
`},
		{"phases", PH, `# Objective
Ship account recovery.
## Notes
In the Objective for this parser.
## Phases
1. Explore — done
   Confirmed the flow.
2. Build
3. Verify — upcoming
## Later
` + "```sh\n# not a heading\n```\n", `Objective section 1-4
  Notes [part of the Objective] heading 3-4
Phases [phase 2 of 3] section 5-9
  1. Explore [done] phase 6-7
  2. Build [current (inferred)] phase 8-8
  3. Verify [upcoming] phase 9-9
Later [not read by pi-charter] heading 10-13
`},
		{"objective", OBJ, `# Objective
Ship it.
## Constraints
Do not change login.
## Scope
Core only.
## Phases
1. Old — done
## Notes
Remember the cache.
`, `Objective section 1-4
  Constraints [part of the Objective] heading 3-4
Scope section 5-6
Phases [notes] heading 7-8
Notes [notes] heading 9-10
`},
		{"empty sections", OBJ, "# Objective\n\n## References\n<!-- none yet -->\n## Scope\n", `Objective [empty] section 1-1
References [empty] section 3-3
Scope [empty] section 5-5
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Parse(tc.gen, []byte(tc.src))
			if got := outline.Dump([]byte(tc.src), Outline(c)); got != tc.want {
				t.Errorf("got\n%swant\n%s", got, tc.want)
			}
		})
	}
}
