package rp1

import (
	"slices"
	"testing"
)

func TestSectionForHeading(t *testing.T) {
	tests := []struct {
		heading string
		want    SectionID
		ok      bool
	}{
		{"Problem & Context", Problem, true},
		{"problem and context", Problem, true},
		{"PROBLEM", Problem, true},
		{"1. Problem & Context:", Problem, true},
		{"Target Users", Users, true},
		{"Users", Users, true},
		{"Business Rationale", ValueProp, true},
		{"Value Proposition", ValueProp, true},
		{"Scope Guardrails", Scope, true},
		{"  scope  ", Scope, true},
		{"Success Criteria", Success, true},
		{"Success Metrics", Success, true},
		{"Vision", "", false},
		{"Assumptions & Risks", "", false},
		{"Scratch Pad", "", false},
		{"Problems we won't solve today", "", false},
	}
	for _, tt := range tests {
		got, ok := SectionForHeading(tt.heading)
		if got != tt.want || ok != tt.ok {
			t.Errorf("SectionForHeading(%q) = %q, %v; want %q, %v", tt.heading, got, ok, tt.want, tt.ok)
		}
	}
}

func TestTopicSections(t *testing.T) {
	tests := []struct {
		topic string
		want  []SectionID
	}{
		{"Brain Dump", nil}, // what it covers follows from what it says
		{"Skipped", nil},
		{"Problem & Context", []SectionID{Problem}},
		{"Target Users", []SectionID{Users}},
		{"Audience", []SectionID{Users}},
		{"Customer Value", []SectionID{Users, ValueProp}},
		{"Value Proposition", []SectionID{ValueProp}},
		{"Benefits", []SectionID{ValueProp}},
		{"Scope", []SectionID{Scope}},
		{"Success Criteria", []SectionID{Success}},
		{"Metrics", []SectionID{Success}},
		{"Timeline", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := TopicSections(tt.topic); !slices.Equal(got, tt.want) {
			t.Errorf("TopicSections(%q) = %v, want %v", tt.topic, got, tt.want)
		}
	}
}

func TestCountSentences(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"...", 0},
		{"One sentence.", 1},
		{"No terminator", 1},
		{"One. Two!", 2},
		{"Is it? Yes. And more", 3},
		{`He said "stop." Then left.`, 2},
		{"Version 3.5 ships soon.", 1},
		{"Weniger Debatten 🗣️. Schnelleres Onboarding.", 2},
	}
	for _, tt := range tests {
		if got := countSentences(tt.text); got != tt.want {
			t.Errorf("countSentences(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}
