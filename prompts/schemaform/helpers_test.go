package schemaform_test

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/prompts/schemaform"
)

// press sends named keys and returns the action of the last one.
func press(t *testing.T, f interface {
	Update(tea.Msg) (schemaform.Action, tea.Cmd)
}, keys ...string) schemaform.Action {
	t.Helper()
	var a schemaform.Action
	for _, k := range keys {
		msg, ok := keytest.Key(k)
		if !ok {
			t.Fatalf("no key named %q in the test table", k)
		}
		a, _ = f.Update(msg)
	}
	return a
}

// typeText types s one key at a time, as a terminal would deliver it.
func typeText(f interface {
	Update(tea.Msg) (schemaform.Action, tea.Cmd)
}, s string) {
	for _, r := range s {
		if r == ' ' {
			f.Update(keytest.Keys("space")[0])
			continue
		}
		f.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// newForm builds a form and fails the test on error.
func newForm(t *testing.T, schema string, opts schemaform.Options) *schemaform.Form {
	t.Helper()
	f, err := schemaform.New(json.RawMessage(schema), opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return f
}

// value returns Value() as a string and fails the test on error.
func value(t *testing.T, f *schemaform.Form) string {
	t.Helper()
	v, err := f.Value()
	if err != nil {
		t.Fatalf("Value: %v", err)
	}
	return string(v)
}

// wantValue checks Value() byte for byte.
func wantValue(t *testing.T, f *schemaform.Form, want string) {
	t.Helper()
	if got := value(t, f); got != want {
		t.Errorf("Value() = %s\nwant      %s", got, want)
	}
}

// golden compares a render, ANSI stripped, with testdata/NAME.golden;
// -update rewrites the file.
func golden(t *testing.T, name, render string) {
	t.Helper()
	goldentest.Check(t, name, goldentest.Plain(render)+"\n")
}

// hasError reports whether errs holds an error at path whose message
// contains msg.
func hasError(errs []schemaform.FieldError, path, msg string) bool {
	for _, e := range errs {
		if e.Path == path && strings.Contains(e.Message, msg) {
			return true
		}
	}
	return false
}
