package proxy

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

const faultsYAML = `# faults for a host test
faults:
  - match: {method: tools/call, tool: echo, dir: host}
    delay: 2s
  - match: {method: tools/list}
    drop: true
  - match: {method: notifications/progress, dir: server}
    duplicate: true
  - match: {tool: echo}
    corrupt: true
    times: 1
  - match: {method: tools/call, tool: slow}
    error: {code: -32000, message: "injected failure", data: {why: [on, purpose], when: 2026-12-24}}
  - cut: true
    after: 10
    times: 1
  - drop: false
    error: {code: 7}
`

func TestParseFaults(t *testing.T) {
	want := []Fault{
		{Match: Filter{Method: "tools/call", Tool: "echo", Dir: "host"}, Action: FaultDelay, Delay: 2 * time.Second},
		{Match: Filter{Method: "tools/list"}, Action: FaultDrop},
		{Match: Filter{Method: "notifications/progress", Dir: "server"}, Action: FaultDuplicate},
		{Match: Filter{Tool: "echo"}, Action: FaultCorrupt, Times: 1},
		{Match: Filter{Method: "tools/call", Tool: "slow"}, Action: FaultError,
			Error: &jsonrpc.Error{Code: -32000, Message: "injected failure", Data: []byte(`{"when":"2026-12-24","why":["on","purpose"]}`)}},
		{Action: FaultCut, After: 10, Times: 1},
		{Action: FaultError, Error: &jsonrpc.Error{Code: 7, Message: DefaultFaultMessage}},
	}
	got, err := ParseFaults([]byte(faultsYAML))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%+v\nwant\n%+v", got, want)
	}
	// The same rules in JSON, and as a bare list.
	js := `{"faults":[{"match":{"method":"tools/list"},"drop":true},{"cut":true,"after":3}]}`
	got, err = ParseFaults([]byte(js))
	if err != nil || len(got) != 2 || got[0].Action != FaultDrop || got[1].After != 3 {
		t.Fatalf("JSON: %+v, %v", got, err)
	}
	got, err = ParseFaults([]byte("- drop: true\n"))
	if err != nil || len(got) != 1 {
		t.Fatalf("a bare list: %+v, %v", got, err)
	}
	for _, empty := range []string{"", "# nothing\n", "faults:\n", "faults: []\n"} {
		if got, err := ParseFaults([]byte(empty)); err != nil || len(got) != 0 {
			t.Errorf("%q: %+v, %v", empty, got, err)
		}
	}
}

// A bad rule is refused, naming the rule (from 1), its line and the fault.
func TestParseFaultsRefusesBadRules(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{"faults:\n  - drop: true\n  - dleay: 2s\n", `fault rule 2 (line 3): dleay (line 3): unknown key`},
		{"faults:\n  - delay: soon\n", `fault rule 1 (line 2): delay (line 2): "soon" is not a duration`},
		{"faults:\n  - delay: 2\n", `"2" is not a duration`},
		{"faults:\n  - delay: -1s\n", `a delay is longer than zero`},
		{"faults:\n  - drop: true\n    after: -1\n", `fault rule 1 (line 2): after (line 3): -1: a count is zero or more`},
		{"faults:\n  - drop: true\n    times: many\n", `times (line 3): "many" is not a whole number`},
		{"faults:\n  - match: {method: \"[\"}\n    drop: true\n", `fault rule 1 (line 2): match: method "[" is not a valid pattern`},
		{"faults:\n  - match: {dir: up}\n    drop: true\n", `direction "up"`},
		{"faults:\n  - match: {name: x}\n    drop: true\n", `unknown key "name"`},
		{"faults:\n  - error: {message: oops}\n", `fault rule 1 (line 2): error (line 2): an error answer needs a code`},
		{"faults:\n  - error: {code: x}\n", `code: "x" is not a whole number`},
		{"faults:\n  - error: {code: 1, extra: 2}\n", `extra: unknown key`},
		{"faults:\n  - drop: true\n    cut: true\n", `drop and cut: a rule does one action`},
		{"faults:\n  - match: {tool: echo}\n", `no action`},
		{"faults:\n  - drop: true\n    drop: true\n", `drop is given twice`},
		{"faults:\n  - drop\n", `fault rule 1 (line 2): a rule is a mapping`},
		{"faults: {drop: true}\n", `line 1: faults is a list`},
		{"rules: []\n", `unknown key "rules"`},
		{"42\n", `line 1: a faults file holds faults:`},
		{"faults:\n  - &a {drop: true}\n  - *a\n", `no anchors or aliases`},
		{"faults: [\n", `not YAML or JSON`},
		{"faults:\n  - error: {code: 1, data: {[1]: x}}\n", `a key of data is a text`},
	} {
		_, err := ParseFaults([]byte(c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.file, err, c.want)
		}
	}
	if _, err := ParseFaults(make([]byte, maxFaultsFile+1)); err == nil {
		t.Error("an oversized file was taken")
	}
}

func TestLoadFaults(t *testing.T) {
	p := filepath.Join(t.TempDir(), "faults.yaml")
	if err := os.WriteFile(p, []byte(faultsYAML), 0o600); err != nil {
		t.Fatal(err)
	}
	rules, err := LoadFaults(p)
	if err != nil || len(rules) != 7 {
		t.Fatalf("%d rules, %v", len(rules), err)
	}
	if err := os.WriteFile(p, []byte("faults:\n  - nap: 1s\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFaults(p); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "fault rule 1") {
		t.Fatalf("a bad file: %v", err)
	}
	if _, err := LoadFaults(filepath.Join(t.TempDir(), "none.yaml")); err == nil || !strings.Contains(err.Error(), "reading the faults file") {
		t.Fatalf("a missing file: %v", err)
	}
}

func TestFaultString(t *testing.T) {
	for _, c := range []struct {
		f    Fault
		want string
	}{
		{Fault{Action: FaultDelay, Delay: 2 * time.Second, Match: Filter{Tool: "echo"}}, "delay 2s on tool=echo"},
		{Fault{Action: FaultCut, After: 10, Times: 1}, "cut on every message, after 10, 1 time"},
		{Fault{Action: FaultError, Error: &jsonrpc.Error{Code: -32000, Message: "x"}, Times: 3}, `error -32000 "x" on every message, 3 times`},
	} {
		if got := c.f.String(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// What MarshalFaults writes, ParseFaults reads back the same.
func TestMarshalFaultsRoundTrips(t *testing.T) {
	rules, err := ParseFaults([]byte(faultsYAML))
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range [][]Fault{rules, nil} {
		b, err := MarshalFaults(rs)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseFaults(b)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !reflect.DeepEqual(back, rs) {
			t.Fatalf("%s read back as\n%+v\nwant\n%+v", b, back, rs)
		}
	}
	if _, err := MarshalFaults([]Fault{{Action: "nap"}}); err == nil {
		t.Fatal("a bad rule was written")
	}
}
