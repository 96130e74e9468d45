package rp1

import (
	"testing"
)

// TestCues pins the documented cue words (interview/README.md): each row is a text and
// the sections it must address; every other section must not match.
func TestCues(t *testing.T) {
	cases := []struct {
		text string
		want []SectionID
	}{
		{"Runbooks are out of date.", []SectionID{Problem}},
		{"Right now it's done by hand.", []SectionID{Problem}},
		{"Error-prone spreadsheets.", []SectionID{Problem}},
		{"The people using it are on-call engineers.", []SectionID{Users}},
		{"For our users' sake.", []SectionID{Users}},
		{"We reuse nothing.", nil}, // "user" must start a word
		{"It saves an hour compared to the wiki.", []SectionID{ValueProp}},
		{"We won't do billing.", []SectionID{Scope}},
		{"We won’t do billing.", []SectionID{Scope}}, // typographic apostrophe
		{"Non-goals: billing.", []SectionID{Scope}},
		{"The v1 ships boards.", []SectionID{Scope}},
		{"Close 80% of tasks on time.", []SectionID{Success}},
		{"We measure weekly retention.", []SectionID{Success}},
		{"Plain words about a garden.", nil},
		{"Teams will measure success; it is faster than chat.", []SectionID{Users, ValueProp, Success}},
	}
	for _, c := range cases {
		for _, id := range Priority {
			want := false
			for _, w := range c.want {
				want = want || w == id
			}
			if got := Addresses(c.text, id); got != want {
				t.Errorf("Addresses(%q, %s) = %v, want %v", c.text, id, got, want)
			}
		}
	}
}
