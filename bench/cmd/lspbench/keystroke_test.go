package main

import (
	"errors"
	"testing"
)

func TestMedianKeystrokeTakesEachFieldsMedian(t *testing.T) {
	rounds := []peer[keystroke]{
		{res: keystroke{EditP50Ms: 7, EditP90Ms: 9, DecodeP50Ms: 3, Diagnostics: 1327}},
		{res: keystroke{EditP50Ms: 5, EditP90Ms: 12, DecodeP50Ms: 4, Diagnostics: 1327}},
		{res: keystroke{EditP50Ms: 6, EditP90Ms: 8, DecodeP50Ms: 2, Diagnostics: 1327}},
	}
	m := medianKeystroke(rounds)
	if m.err != nil || m.res.EditP50Ms != 6 || m.res.EditP90Ms != 9 || m.res.DecodeP50Ms != 3 || m.res.Diagnostics != 1327 {
		t.Fatalf("median of three rounds: %+v", m)
	}
	m = medianKeystroke(rounds[:2])
	if m.res.EditP50Ms != median([]float64{7, 5}) || m.res.EditP90Ms != median([]float64{9, 12}) {
		t.Fatalf("two rounds: not the table's median of each field: %+v", m.res)
	}
	failed := append(rounds[:1:1], peer[keystroke]{err: errors.New("no diagnostics for version 7")})
	if m := medianKeystroke(failed); m.err == nil {
		t.Fatal("a failed round must fail the row")
	}
	if m := medianKeystroke(nil); m.err != nil || m.res.EditP50Ms != 0 {
		t.Fatalf("no rounds (no before commit): %+v", m)
	}
}

func TestRoundRatiosAreEachRoundsOwn(t *testing.T) {
	nows := []peer[keystroke]{{res: keystroke{EditP50Ms: 5}}, {res: keystroke{EditP50Ms: 6}}}
	floors := []peer[keystroke]{{res: keystroke{EditP50Ms: 4}}, {res: keystroke{EditP50Ms: 4}}}
	if got, want := roundRatios(nows, floors), "1.25×, 1.50×"; got != want {
		t.Fatalf("roundRatios = %q, want %q", got, want)
	}
	if got := roundRatios(nows[:1], floors[:1]); got != "" {
		t.Fatalf("one round: %q, want none", got)
	}
	if got := roundRatios(nows, floors[:1]); got != "" {
		t.Fatalf("a round without its floor: %q, want none", got)
	}
}
