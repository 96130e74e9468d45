package agent

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema is the contract's JSON schema: StatelessAgentResponse and
// FinalizerResponse in $defs. internal/gendocs writes it to
// docs/interview-agent.schema.json.
//
//go:embed schema.json
var Schema []byte

// SchemaID is the schema's $id.
const SchemaID = "https://github.com/charter-lsp/charter-lsp/blob/main/docs/interview-agent.schema.json"

var (
	compileOnce sync.Once
	compiled    map[Contract]*jsonschema.Schema
	compileErr  error
)

// schemaFor is the compiled schema of a contract.
func schemaFor(c Contract) (*jsonschema.Schema, error) {
	compileOnce.Do(func() {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
		if err != nil {
			compileErr = err
			return
		}
		comp := jsonschema.NewCompiler()
		if err := comp.AddResource(SchemaID, doc); err != nil {
			compileErr = err
			return
		}
		compiled = map[Contract]*jsonschema.Schema{}
		for _, k := range []Contract{Stateless, Finalizer} {
			s, err := comp.Compile(SchemaID + "#/$defs/" + string(k))
			if err != nil {
				compileErr = err
				return
			}
			compiled[k] = s
		}
	})
	return compiled[c], compileErr
}

// decode reads the one JSON object an agent printed, checks it against the
// contract's schema and decodes it into v.
func decode(out []byte, c Contract, v any) error {
	t := bytes.TrimSpace(out)
	switch {
	case len(t) == 0:
		return &Error{Kind: KindEmpty, Reason: "printed nothing on stdout (the contract is one JSON object)"}
	case t[0] != '{':
		if i := bytes.IndexByte(t, '{'); i > 0 {
			return &Error{Kind: KindProse, Reason: fmt.Sprintf("printed text before its JSON answer (%s); the contract is one JSON object and nothing else", quote(t[:i]))}
		}
		return &Error{Kind: KindNotJSON, Reason: fmt.Sprintf("did not print a JSON object: %s", quote(t))}
	}
	dec := json.NewDecoder(bytes.NewReader(t))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return &Error{Kind: KindNotJSON, Reason: fmt.Sprintf("printed something that is not valid JSON: %v", err)}
	}
	if rest := bytes.TrimSpace(t[dec.InputOffset():]); len(rest) > 0 {
		return &Error{Kind: KindProse, Reason: fmt.Sprintf("printed text after its JSON answer (%s); the contract is one JSON object and nothing else", quote(rest))}
	}
	schema, err := schemaFor(c)
	if err != nil {
		return fmt.Errorf("the contract's schema: %w", err) // a bug: the embedded schema is tested
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return &Error{Kind: KindNotJSON, Reason: fmt.Sprintf("printed something that is not valid JSON: %v", err)}
	}
	if err := schema.Validate(inst); err != nil {
		return &Error{Kind: KindContract, Reason: fmt.Sprintf("answered outside the %s contract: %s", c, schemaErrors(err))}
	}
	strict := json.NewDecoder(bytes.NewReader(raw))
	strict.DisallowUnknownFields()
	if err := strict.Decode(v); err != nil {
		return &Error{Kind: KindContract, Reason: fmt.Sprintf("answered outside the %s contract: %v", c, err)}
	}
	return nil
}

// schemaErrors says, in one line, where and how an answer breaks the
// schema: the first three leaf errors.
func schemaErrors(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err.Error()
	}
	var msgs []string
	var walk func(u jsonschema.OutputUnit)
	walk = func(u jsonschema.OutputUnit) {
		if u.Error != nil && len(u.Errors) == 0 {
			at := u.InstanceLocation
			if at == "" {
				at = "/"
			}
			msgs = append(msgs, fmt.Sprintf("at %s: %s", at, u.Error.String()))
		}
		for _, e := range u.Errors {
			walk(e)
		}
	}
	walk(*ve.BasicOutput())
	if len(msgs) == 0 {
		return strings.Join(strings.Fields(ve.Error()), " ")
	}
	if len(msgs) > 3 {
		msgs = append(msgs[:3], fmt.Sprintf("and %d more", len(msgs)-3))
	}
	return strings.Join(msgs, "; ")
}

// quote shows the start of some output, on one line.
func quote(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
