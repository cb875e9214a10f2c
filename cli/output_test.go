package cli

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteJSON(t *testing.T) {
	raw := []byte("{ \"a\" : [1, 2],\n \"b\": {\"c\": \"é\"} }")
	var buf bytes.Buffer
	if err := writeJSON(&buf, raw, false); err != nil || buf.String() != `{"a":[1,2],"b":{"c":"é"}}`+"\n" {
		t.Errorf("compact: %q, %v", buf.String(), err)
	}
	buf.Reset()
	want := "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {\n    \"c\": \"é\"\n  }\n}\n"
	if err := writeJSON(&buf, raw, true); err != nil || buf.String() != want {
		t.Errorf("pretty: %q, %v", buf.String(), err)
	}
	if err := writeJSON(&buf, []byte("{nope"), false); ExitCode(err) != ExitProtocol {
		t.Errorf("invalid result: %v", err)
	}
}

// On a terminal the result's strings cannot carry what the terminal acts
// on: C1 controls, DEL and bidi overrides are legal raw in JSON strings,
// and are written as \u escapes of the same value; piped output keeps the
// server's bytes.
func TestWriteJSONOnATerminalEscapesControls(t *testing.T) {
	raw := []byte("{\"t\":\"\u009b2J\u202eevil\x7f\"}")
	var buf bytes.Buffer
	if err := writeJSON(&buf, raw, true); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"t\": \"\\u009b2J\\u202eevil\\u007f\"\n}\n"; buf.String() != want {
		t.Fatalf("pretty: %q, want %q", buf.String(), want)
	}
	buf.Reset()
	if err := writeJSON(&buf, raw, false); err != nil || buf.String() != string(raw)+"\n" {
		t.Fatalf("piped: %q, %v", buf.String(), err)
	}
}

func TestListDocument(t *testing.T) {
	doc := listDocument([]string{"resources", "resourceTemplates"},
		[][]json.RawMessage{{json.RawMessage(`{"uri":"a"}`), json.RawMessage(`{"uri":"b"}`)}, nil})
	if string(doc) != `{"resources":[{"uri":"a"},{"uri":"b"}],"resourceTemplates":[]}` {
		t.Errorf("%s", doc)
	}
}

func TestParseRoot(t *testing.T) {
	r, err := parseRoot("file:///srv/project")
	if err != nil || r.URI != "file:///srv/project" || r.Name != "project" {
		t.Errorf("uri: %+v, %v", r, err)
	}
	dir := t.TempDir()
	r, err = parseRoot(dir)
	if err != nil || r.URI != "file://"+filepath.ToSlash(dir) || r.Name != filepath.Base(dir) {
		t.Errorf("path: %+v, %v", r, err)
	}
	if _, err := parseRoot(""); ExitCode(err) != ExitUsage {
		t.Errorf("empty: %v", err)
	}
}

func TestHelpExitsZero(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"call", "--help"}} {
		r := mcpscope(t, args...)
		r.mustExit(t, ExitOK)
		if !strings.Contains(r.stdout, "mcpscope") {
			t.Errorf("%q: help %q", args, r.stdout)
		}
	}
	r := mcpscope(t, "toolz", "--", "x")
	r.mustExit(t, ExitUsage)
	if r.stderr != "error: unknown command \"toolz\"; did you mean \"tool\"?\n" {
		t.Errorf("stderr %q", r.stderr)
	}
}

// A result nested 10,000 deep printed on a terminal stays within a small
// multiple of its size (json.Indent made 20 KB into about 200 MB).
func TestWriteJSONDeepResultStaysProportional(t *testing.T) {
	const depth = 10_000 - 2
	raw := []byte(strings.Repeat("[", depth) + `"` + strings.Repeat("x", 20<<10-2*depth) + `"` + strings.Repeat("]", depth))
	var buf bytes.Buffer
	if err := writeJSON(&buf, raw, true); err != nil {
		t.Fatal(err)
	}
	if limit := 2 * len(raw); buf.Len() > limit {
		t.Fatalf("a %d-byte result nested %d deep printed as %d bytes, over %d", len(raw), depth, buf.Len(), limit)
	}
}
