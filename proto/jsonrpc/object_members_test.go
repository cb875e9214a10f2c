package jsonrpc

import "testing"

// TestObjectMembers: the members of an object come back in order, values
// as written; an object cut short gives its complete members, not ok.
func TestObjectMembers(t *testing.T) {
	ms, ok := ObjectMembers([]byte(` {"data": {"a":"}\""}, "le\u0076el" : "info"} `))
	if !ok || len(ms) != 2 || ms[0].Key != "data" || string(ms[0].Value) != `{"a":"}\""}` || ms[1].Key != "level" || string(ms[1].Value) != `"info"` {
		t.Fatalf("ObjectMembers = %q, %v", ms, ok)
	}
	for _, cut := range []string{`{"level":"info","data":"x`, `{"level":"info"} x`, `[1]`, ``} {
		if ms, ok := ObjectMembers([]byte(cut)); ok || len(ms) > 1 {
			t.Errorf("ObjectMembers(%q) = %q, %v", cut, ms, ok)
		}
	}
}
