package main

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPublishedVersion(t *testing.T) {
	big := `[` + strings.Repeat(`{"message":"x"},`, 1000) + `{"message":"y"}]`
	for _, c := range []struct {
		params string
		want   int32
		ok     bool
	}{
		{`{"uri":"file:///a","version":42,"diagnostics":` + big + `}`, 42, true},
		{`{"uri":"file:///a","diagnostics":` + big + `,"version":7}`, 7, true},
		{`{"uri":"file:///a","diagnostics":[]}`, 0, false},
		{`not json`, 0, false},
	} {
		if !json.Valid([]byte(c.params)) && c.ok {
			t.Fatalf("bad case %q", c.params)
		}
		got, ok := publishedVersion([]byte(c.params))
		if got != c.want || ok != c.ok {
			t.Errorf("publishedVersion(%.40q…) = %d, %v; want %d, %v", c.params, got, ok, c.want, c.ok)
		}
	}
}
