package analysis

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

func TestConfigSchemaIsGenerated(t *testing.T) {
	got, err := os.ReadFile("../docs/charter-lsp.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, ConfigSchema()) {
		t.Fatal("docs/charter-lsp.schema.json is out of date: run `go run ./internal/gendocs`")
	}
}

// The schema and ParseConfig must agree on the keys: every property the
// schema lists is a Config field (DisallowUnknownFields would reject it otherwise).
func TestConfigSchemaMatchesConfig(t *testing.T) {
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(ConfigSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	for key := range schema.Properties {
		if _, err := ParseConfig([]byte(`{"` + key + `": null}`)); err != nil {
			t.Errorf("schema property %q is not accepted by ParseConfig: %v", key, err)
		}
	}
}
