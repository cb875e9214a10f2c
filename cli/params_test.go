package cli

import (
	"strings"
	"testing"
)

func TestParseParams(t *testing.T) {
	got, err := parseParams(` {"name":"greet","arguments":{"name":"Ada"}} `, nil)
	if err != nil || string(got) != `{"name":"greet","arguments":{"name":"Ada"}}` {
		t.Errorf("object: %s, %v", got, err)
	}
	if got, err := parseParams(`[1,2]`, nil); err != nil || string(got) != `[1,2]` {
		t.Errorf("array: %s, %v", got, err)
	}
	if got, err := parseParams("", nil); err != nil || got != nil {
		t.Errorf("empty: %s, %v", got, err)
	}
	if got, err := parseParams("-", strings.NewReader(`{"a":1}`+"\n")); err != nil || string(got) != `{"a":1}` {
		t.Errorf("stdin: %s, %v", got, err)
	}
	for _, bad := range []string{`{"name":`, `"just a string"`, `42`, `nope`} {
		_, err := parseParams(bad, nil)
		if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "PARAMS_JSON") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := parseParams("-", nil); ExitCode(err) != ExitUsage {
		t.Errorf("stdin without input: %v", err)
	}
}

func FuzzParseParams(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":[1,{"b":null}]}`, `nope`, "", `"x"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseParams(s, nil)
		if err == nil && got != nil && got[0] != '{' && got[0] != '[' {
			t.Fatalf("accepted %q as params", got)
		}
		if err != nil && ExitCode(err) != ExitUsage {
			t.Fatalf("error %v is not a usage error", err)
		}
	})
}
