package rp1

import (
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/outline"
)

func TestSkeletonOutline(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"template", `# Project Charter: relay
**Created**: 2026-07-20
**Status**: Draft

## Vision
_TBD_

## Problem & Context
Leaf-owned answers can be lost between sessions.

## Target Users

## Business Rationale
Durable recovery. _TBD_ numbers.

## Scope Guardrails
### Will
- Keep questions in the parent
  - Persist answers
### Won't
- _TBD_

## Success Criteria
TBD

## Open Questions
Who owns the finalizer?
`, `Project Charter: relay [4/7 regions filled · Draft] title 1-27
  Vision [gap: _TBD_ only] region 5-6
  Problem & Context [filled] region 8-9
  Target Users [gap: empty] region 11-11
  Business Rationale [filled, _TBD_ left] region 13-14
  Scope Guardrails [1 gap] section 16-21
    Will [filled] region 17-19
    Won't [gap: _TBD_ only] region 20-21
  Success Criteria [filled with placeholders only] region 23-24
  Open Questions [not a region: kept as it is] heading 26-27
`},
		{"variants and leftovers", `# Project Charter: relay
**Status**: Complete

## Vision Statement
Predictable setup.

## Value Proposition
Durable recovery.

## Scope Guardrails
### Will Do
- Keep questions
### Won't
- Session state

## Scratch Pad
### Q1: Brain Dump
**Asked**: Tell me.
**Answer**: Relay things.
<!-- End scratch pad -->
`, `Project Charter: relay [1/7 regions filled · **Status** Complete, should be Draft] title 1-20
  Vision Statement [not read as Vision: rp1 looks for ## Vision] heading 4-5
  Value Proposition [scratch-pad era name: rp1 reads ## Business Rationale] heading 7-8
  Scope Guardrails [1 gap] section 10-14
    Will Do [not read as Scope Guardrails / Will: rp1 looks for ### Will] heading 11-12
    Won't [filled] region 13-14
  Scratch Pad [legacy scratch pad: rp1 ignores it] heading 16-20
    Q1: Brain Dump heading 17-20
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := Parse([]byte(tc.src))
			if got := outline.Dump([]byte(tc.src), SkeletonOutline(ch)); got != tc.want {
				t.Errorf("got\n%swant\n%s", got, tc.want)
			}
		})
	}
}
