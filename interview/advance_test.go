package interview

import (
	"context"
	"os"
	"testing"
	"time"
)

// Advance records a skip and asks the next question in one step, with one
// edit that turns the original text into the result, and leaves the cursor
// after the new question's **Answer**:.
func TestAdvanceSkipsThenAsks(t *testing.T) {
	text, err := os.ReadFile("testdata/next/skip-users-states-value.md")
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Now: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)}
	st, err := Advance(context.Background(), text, true, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Applied) != 2 || st.Applied[0].Type != TypeSkip || st.Applied[1].Type != TypeNextQuestion {
		t.Fatalf("applied %+v, want a skip then a question", st.Applied)
	}
	if len(st.Edits) != 1 || string(Apply(text, st.Edits)) != string(st.Text) {
		t.Fatalf("%d edits do not turn the text into the result", len(st.Edits))
	}
	if st.Cursor < 0 || st.Cursor > len(st.Text) || string(st.Text[st.Cursor-len("**Answer**: "):st.Cursor]) != "**Answer**: " {
		t.Fatalf("cursor %d is not after an **Answer**:", st.Cursor)
	}
	// Asked again, the question is pending: no edit, the cursor on its answer.
	again, err := Advance(context.Background(), st.Text, true, opts)
	if err != nil {
		t.Fatal(err)
	}
	if again.Response.Pending == nil || len(again.Edits) != 0 || again.Cursor != st.Cursor {
		t.Fatalf("second advance: pending %v, %d edits, cursor %d (want %d)", again.Response.Pending, len(again.Edits), again.Cursor, st.Cursor)
	}
	// A cancelled context stops before any action.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Advance(ctx, text, true, opts); err == nil {
		t.Fatal("a cancelled advance carried out an action")
	}
}
