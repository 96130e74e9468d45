package analysis

import (
	"reflect"
	"sort"
	"strings"
	"testing"
)

// Every key of Config is either kept by Restricted (a project file may set
// it in an untrusted workspace) or listed by RestrictedAway (it is the
// user's there): a key added later must be placed on one side.
func TestRestrictedKeysAreAccountedFor(t *testing.T) {
	var full Config
	v := reflect.ValueOf(&full).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Int:
			f.SetInt(1)
		case reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
			f.SetMapIndex(reflect.ValueOf("k"), reflect.ValueOf("v"))
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		default:
			t.Fatalf("field %s: kind %s not covered by this test", v.Type().Field(i).Name, f.Kind())
		}
	}
	kept := reflect.ValueOf(full.Restricted())
	var dropped []string
	for i := 0; i < v.NumField(); i++ {
		if kept.Field(i).IsZero() {
			name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			dropped = append(dropped, name)
		}
	}
	away := full.RestrictedAway()
	sort.Strings(dropped)
	sort.Strings(away)
	if strings.Join(dropped, ",") != strings.Join(away, ",") {
		t.Fatalf("Restricted drops %v but RestrictedAway reports %v", dropped, away)
	}
	if len(full.Restricted().RestrictedAway()) != 0 {
		t.Fatal("a restricted config still has restricted keys")
	}
}
