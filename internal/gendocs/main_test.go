package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/analysis/diag"
	"github.com/charter-lsp/charter-lsp/internal/jsonenc"
)

// Every generated file is committed as generate writes it.
func TestGeneratedFilesInStep(t *testing.T) {
	files, err := generate("../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedNames(files) {
		got, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
		if err != nil {
			t.Errorf("%s: %v (run `go run ./internal/gendocs`)", name, err)
			continue
		}
		if !bytes.Equal(got, files[name]) {
			t.Errorf("%s is out of date: run `go run ./internal/gendocs`", name)
		}
	}
}

// Sample types for the generator: what encoding/json does with each
// construct must be what the schema says.

type sampleInner struct {
	// N counts.
	N int `json:"n"`
}

type sampleEmbedded struct {
	E string `json:"e"` // an embedded field
}

type sample struct {
	sampleEmbedded
	Name     string            `json:"name"`
	Opt      string            `json:"opt,omitempty"`
	Ptr      *int64            `json:"ptr"`
	OptPtr   *string           `json:"optPtr,omitempty"`
	Inner    sampleInner       `json:"inner"`
	List     []sampleInner     `json:"list"`
	Labels   map[string]string `json:"labels"`
	Any      map[string]any    `json:"any,omitempty"`
	Code     diag.Code         `json:"code"`
	Skipped  string            `json:"-"`
	internal int
	Either   sampleEither `json:"either"`
}

// sampleEither writes itself as a sampleInner or as its own fields.
type sampleEither struct {
	Flag  bool         `json:"flag"`
	Other *sampleInner `json:"-"`
}

func (s sampleEither) MarshalJSON() ([]byte, error) {
	if s.Other != nil {
		return json.Marshal(s.Other)
	}
	type plain sampleEither
	return json.Marshal(plain(s))
}

func TestSchemaOfGoTypes(t *testing.T) {
	g := newSchemaGen("../..")
	if _, err := g.of(reflect.TypeFor[sample]()); err == nil || !strings.Contains(err.Error(), "MarshalJSON") {
		t.Fatalf("a type with a MarshalJSON and no declared shapes: err = %v", err)
	}

	g = newSchemaGen("../..")
	g.oneOf[reflect.TypeFor[sampleEither]()] = []reflect.Type{reflect.TypeFor[sampleEither](), reflect.TypeFor[sampleInner]()}
	root, err := g.of(reflect.TypeFor[sample]())
	if err != nil {
		t.Fatal(err)
	}
	got, err := jsonenc.Indent(obj{{"root", root}, {"$defs", g.defs}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "root": {
    "$ref": "#/$defs/sample"
  },
  "$defs": {
    "sample": {
      "type": "object",
      "properties": {
        "e": {
          "description": "an embedded field",
          "type": "string"
        },
        "name": {
          "type": "string"
        },
        "opt": {
          "type": "string"
        },
        "ptr": {
          "type": [
            "integer",
            "null"
          ]
        },
        "optPtr": {
          "type": "string"
        },
        "inner": {
          "$ref": "#/$defs/sampleInner"
        },
        "list": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/sampleInner"
          }
        },
        "labels": {
          "type": "object",
          "additionalProperties": {
            "type": "string"
          }
        },
        "any": {
          "type": "object"
        },
        "code": {
          "type": "string"
        },
        "either": {
          "$ref": "#/$defs/sampleEither"
        }
      },
      "required": [
        "e",
        "name",
        "ptr",
        "inner",
        "list",
        "labels",
        "code",
        "either"
      ],
      "additionalProperties": false
    },
    "sampleInner": {
      "type": "object",
      "properties": {
        "n": {
          "description": "N counts.",
          "type": "integer"
        }
      },
      "required": [
        "n"
      ],
      "additionalProperties": false
    },
    "sampleEither": {
      "description": "sampleEither writes itself as a sampleInner or as its own fields.",
      "oneOf": [
        {
          "type": "object",
          "properties": {
            "flag": {
              "type": "boolean"
            }
          },
          "required": [
            "flag"
          ],
          "additionalProperties": false
        },
        {
          "$ref": "#/$defs/sampleInner"
        }
      ]
    }
  }
}
`
	if string(got) != want {
		t.Errorf("schema:\n%s", got)
	}

	ts, err := typescript(obj{{"type", "array"}, {"items", root}, {"$defs", g.defs}}, "sample", "Samples")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		"export interface sample {",
		"  /** an embedded field */\n  e: string;",
		"  opt?: string;",
		"  ptr: number | null;",
		"  optPtr?: string;",
		"  list: sampleInner[];",
		"  labels: Record<string, string>;",
		"  any?: Record<string, unknown>;",
		"export type sampleEither = {\n  flag: boolean;\n} | sampleInner;",
		"export type Samples = sample[];",
	} {
		if !strings.Contains(ts, line) {
			t.Errorf("TypeScript lacks %q:\n%s", line, ts)
		}
	}
}
