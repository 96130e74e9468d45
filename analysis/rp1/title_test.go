package rp1

import "testing"

func TestProjectName(t *testing.T) {
	for _, c := range []struct {
		text        string
		name        string
		placeholder bool
	}{
		{"# Project Charter: [To Be Determined]\n", "", true},
		{"# Project Charter: {Project Name}\n", "", true},
		{"# Project Charter:\n", "", true},
		{"# Project Charter: TBD\n", "", true},
		{"# Project Charter: Ledger Sync\n", "Ledger Sync", false},
		{"# project charter: rp1\n", "rp1", false},
		{"# Tide Tables\n", "Tide Tables", false},
		{"## Problem & Context\n\nA. B.\n", "", false}, // no title: nothing waits for a name
	} {
		name, placeholder := Parse([]byte(c.text)).ProjectName()
		if name != c.name || placeholder != c.placeholder {
			t.Errorf("%q: got %q %v, want %q %v", c.text, name, placeholder, c.name, c.placeholder)
		}
	}
}

// TestNameIn: the name people give what they build in a Brain Dump, and
// the sentences that name something else.
func TestNameIn(t *testing.T) {
	for text, want := range map[string]string{
		"We're building Runbook Radar, a single search box for every runbook.": "Runbook Radar",
		"I'm building Pagefinder to end the wiki hunt.":                        "Pagefinder",
		"Runbook Radar is a search tool for on-call engineers.":                "Runbook Radar",
		"The tool is called **Benchbook**. Teachers book kits.":                "Benchbook",
		`We've been calling it "tide tables" for now.`:                         "tide tables",
		"Name: Benchbook\n- Teachers book kits on paper.":                      "Benchbook",
		"- Project name: Rota\n- Managers plan shifts by hand.":                "Rota",
		"Honestly it's called ferrylog. Crossings are logged on paper.":        "ferrylog",
		"Codename `tidepool`: offline tides for kayakers.":                     "tidepool",
		// Not names:
		"The problem is a mess of wikis.":                                                    "",
		"It is a tool for on-call engineers.":                                                "",
		"We're building a shared on-call handbook for small teams.":                          "",
		"Our team lost a day. Confluence is a graveyard of stale pages.":                     "",
		"Planning rotas is what everyone called chaos.":                                      "",
		"A decision log for small teams.":                                                    "",
		"We're building something called a runbook index for everyone who is on call today.": "",
	} {
		if got := NameIn(text); got != want {
			t.Errorf("NameIn(%q) = %q, want %q", text, got, want)
		}
	}
}

// TestNameFromAnswer: the answer to the project-name question, taken as
// written when it is short, refused when it declines or is a sentence.
func TestNameFromAnswer(t *testing.T) {
	for answer, want := range map[string]string{
		"Runbook Radar":         "Runbook Radar",
		"Runbook Radar.":        "Runbook Radar",
		"It's Pagefinder.":      "Pagefinder",
		"We call it pagefinder": "pagefinder",
		"**Benchbook**":         "Benchbook",
		"- Tailwag":             "Tailwag",
		"I don't know yet":      "",
		"skip":                  "",
		"TBD":                   "",
		"We have not really thought about a name, so anything that sounds friendly will do for now.": "",
	} {
		if got := NameFromAnswer(answer); got != want {
			t.Errorf("NameFromAnswer(%q) = %q, want %q", answer, got, want)
		}
	}
}

// TestDeclines: answers that only decline say nothing; an answer that says
// something, however short, is an answer.
func TestDeclines(t *testing.T) {
	for answer, want := range map[string]bool{
		"I don't know.": true, "I don't know yet, sorry": true, "skip": true, "Skip!": true, "n/a": true,
		"N/A": true, "TBD": true, "no idea": true, "Not sure yet.": true, "Honestly, no idea.": true, "": true,
		"I don't know the exact number, but fewer pages than today.": false, "None of the billing.": false,
		"Accountants.": false, "Pass rates matter most.": false,
	} {
		if got := Declines(answer); got != want {
			t.Errorf("Declines(%q) = %v, want %v", answer, got, want)
		}
	}
}
