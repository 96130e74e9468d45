package main

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/jsonenc"
)

// A JSON schema (draft 2020-12) of what Go values marshal to, read from
// their types by reflection and their json tags, with the types' and
// fields' doc comments as descriptions. Every struct type becomes one
// $defs entry; the schema is strict (no additional properties, every field
// without omitempty required), so a test validating real output against it
// finds any field the types do not declare or a nil slice sent as null.

// obj is a JSON object that keeps its keys in the order they were added.
type obj []kv

type kv struct {
	key   string
	value any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := jsonenc.Marshal(e.key)
		b.Write(k)
		b.WriteByte(':')
		v, err := jsonenc.Marshal(e.value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (o obj) get(key string) (any, bool) {
	for _, e := range o {
		if e.key == key {
			return e.value, true
		}
	}
	return nil, false
}

// schemaGen builds the $defs of a schema.
type schemaGen struct {
	root string // the module's root folder, to read the types' source
	// oneOf says a type marshals as one of several shapes (it has a
	// MarshalJSON choosing): its own fields (the type itself listed) or
	// the others'.
	oneOf map[reflect.Type][]reflect.Type

	defs   obj
	named  map[reflect.Type]string
	docs   map[string]string // "pkgpath.Type" and "pkgpath.Type.Field" → doc
	parsed map[string]bool   // package paths read
}

func newSchemaGen(root string) *schemaGen {
	return &schemaGen{root: root, oneOf: map[reflect.Type][]reflect.Type{},
		named: map[reflect.Type]string{}, docs: map[string]string{}, parsed: map[string]bool{}}
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// of is the schema of what a value of type t marshals to.
func (g *schemaGen) of(t reflect.Type) (obj, error) {
	if t == reflect.TypeFor[time.Time]() {
		return obj{{"type", "string"}, {"format", "date-time"}}, nil
	}
	if _, ok := g.oneOf[t]; ok {
		if _, err := g.define(t); err != nil {
			return nil, err
		}
		return obj{{"$ref", "#/$defs/" + g.named[t]}}, nil
	}
	if t.Kind() != reflect.Pointer && (t.Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler)) {
		return nil, fmt.Errorf("%s has a MarshalJSON: say which shapes it writes (schemaGen.oneOf)", t)
	}
	if t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		return obj{{"type", "string"}}, nil // a text form, as diag.Code's name
	}
	switch t.Kind() {
	case reflect.String:
		return obj{{"type", "string"}}, nil
	case reflect.Bool:
		return obj{{"type", "boolean"}}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return obj{{"type", "integer"}}, nil
	case reflect.Float32, reflect.Float64:
		return obj{{"type", "number"}}, nil
	case reflect.Interface:
		return obj{}, nil // any JSON value
	case reflect.Pointer:
		return g.of(t.Elem())
	case reflect.Slice, reflect.Array:
		items, err := g.of(t.Elem())
		if err != nil {
			return nil, err
		}
		return obj{{"type", "array"}, {"items", items}}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%s: map keys must be strings", t)
		}
		values, err := g.of(t.Elem())
		if err != nil {
			return nil, err
		}
		if len(values) == 0 {
			return obj{{"type", "object"}}, nil
		}
		return obj{{"type", "object"}, {"additionalProperties", values}}, nil
	case reflect.Struct:
		if _, err := g.define(t); err != nil {
			return nil, err
		}
		return obj{{"$ref", "#/$defs/" + g.named[t]}}, nil
	}
	return nil, fmt.Errorf("%s: no JSON schema for kind %s", t, t.Kind())
}

// define adds t's $defs entry (once) and returns its name.
func (g *schemaGen) define(t reflect.Type) (string, error) {
	if name, ok := g.named[t]; ok {
		return name, nil
	}
	name := t.Name()
	for _, e := range g.defs {
		if e.key == name {
			return "", fmt.Errorf("two types named %s", name)
		}
	}
	g.named[t] = name
	slot := len(g.defs)
	g.defs = append(g.defs, kv{name, nil}) // reserve the place: definitions follow discovery order
	if err := g.readDocs(t.PkgPath()); err != nil {
		return "", err
	}
	def := obj{}
	if doc := g.docs[t.PkgPath()+"."+name]; doc != "" {
		def = append(def, kv{"description", doc})
	}
	body, err := g.structBody(t)
	if err != nil {
		return "", err
	}
	if alts, ok := g.oneOf[t]; ok {
		shapes := []any{}
		for _, a := range alts {
			if a == t {
				shapes = append(shapes, body)
				continue
			}
			s, err := g.of(a)
			if err != nil {
				return "", err
			}
			shapes = append(shapes, s)
		}
		def = append(def, kv{"oneOf", shapes})
	} else {
		def = append(def, body...)
	}
	g.defs[slot].value = def
	return name, nil
}

// structBody is the object schema of a struct's fields, embedded structs'
// fields included, as encoding/json writes them.
func (g *schemaGen) structBody(t reflect.Type) (obj, error) {
	props := obj{}
	var required []string
	var walk func(t reflect.Type) error
	walk = func(t reflect.Type) error {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" || !f.IsExported() && !f.Anonymous {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				et := f.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					if err := g.readDocs(et.PkgPath()); err != nil {
						return err
					}
					if err := walk(et); err != nil {
						return err
					}
					continue
				}
			}
			if name == "" {
				name = f.Name
			}
			if strings.Contains(","+opts+",", ",string,") {
				return fmt.Errorf("%s.%s: the ,string option is not supported", t, f.Name)
			}
			s, err := g.of(f.Type)
			if err != nil {
				return fmt.Errorf("%s.%s: %w", t.Name(), f.Name, err)
			}
			omitempty := strings.Contains(","+opts+",", ",omitempty,")
			if f.Type.Kind() == reflect.Pointer && !omitempty {
				s = nullable(s) // a nil pointer is written as null
			}
			if doc := g.docs[t.PkgPath()+"."+t.Name()+"."+f.Name]; doc != "" {
				s = append(obj{{"description", doc}}, s...)
			}
			props = append(props, kv{name, s})
			if !omitempty {
				required = append(required, name)
			}
		}
		return nil
	}
	if err := walk(t); err != nil {
		return nil, err
	}
	body := obj{{"type", "object"}, {"properties", props}}
	if len(required) > 0 {
		body = append(body, kv{"required", required})
	}
	return append(body, kv{"additionalProperties", false}), nil
}

// nullable lets s also be null.
func nullable(s obj) obj {
	if typ, ok := s.get("type"); ok {
		out := obj{}
		for _, e := range s {
			if e.key == "type" {
				e.value = []any{typ, "null"}
			}
			out = append(out, e)
		}
		return out
	}
	return obj{{"anyOf", []any{s, obj{{"type", "null"}}}}}
}

// readDocs collects the doc comments of the struct types of a package of
// this module and of their fields (the comment above a field, then the one
// after it), each flattened to one paragraph.
func (g *schemaGen) readDocs(pkgPath string) error {
	if g.parsed[pkgPath] {
		return nil
	}
	g.parsed[pkgPath] = true
	rel, ok := strings.CutPrefix(pkgPath, modulePath+"/")
	if !ok {
		return nil // not ours: no source to read
	}
	dir := filepath.Join(g.root, filepath.FromSlash(rel))
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if !strings.HasSuffix(f.Name.Name, "_test") { // an external test package's types are not the package's
			g.fileDocs(pkgPath, f)
		}
	}
	return nil
}

// fileDocs collects the doc comments of one file's types and their fields.
func (g *schemaGen) fileDocs(pkgPath string, f *ast.File) {
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil && len(gd.Specs) == 1 {
				doc = gd.Doc
			}
			g.docs[pkgPath+"."+ts.Name.Name] = paragraph(doc)
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			for _, fl := range st.Fields.List {
				text := strings.TrimSpace(paragraph(fl.Doc) + " " + paragraph(fl.Comment))
				for _, n := range fl.Names {
					g.docs[pkgPath+"."+ts.Name.Name+"."+n.Name] = text
				}
			}
		}
	}
}

// paragraph is a comment's text on one line.
func paragraph(c *ast.CommentGroup) string {
	if c == nil {
		return ""
	}
	return strings.Join(strings.Fields(c.Text()), " ")
}

const modulePath = "github.com/charter-lsp/charter-lsp"
