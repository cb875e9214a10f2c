package bench

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// A recorded request is repeated with its method and params, its _meta
// (the session's progress token, a modern request's triple) dropped.
func TestFromRequestDropsMeta(t *testing.T) {
	m, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"},"_meta":{"progressToken":7}}}`))
	if err != nil {
		t.Fatal(err)
	}
	c, err := FromRequest(m)
	if err != nil {
		t.Fatal(err)
	}
	if c.Method != "tools/call" || c.Tool != "echo" || string(c.Params) != `{"arguments":{"message":"hi"},"name":"echo"}` {
		t.Errorf("call %+v params %s", c, c.Params)
	}
	m, _ = jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":"a","method":"tools/list"}`))
	if c, err := FromRequest(m); err != nil || c.Method != "tools/list" || c.Params != nil || c.Tool != "" {
		t.Errorf("tools/list without params: %+v, %v", c, err)
	}
}

// What is no request of the client's, or cannot be repeated, is refused,
// saying why.
func TestFromRequestRefuses(t *testing.T) {
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`:                               "pick a request frame",
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`:             "pick a request frame",
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`:         "initialize is the handshake",
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1,2]}`:      "params are a JSON object",
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}`: "",
	} {
		m, err := jsonrpc.DecodeMessage([]byte(body))
		if err != nil {
			t.Fatal(err)
		}
		_, err = FromRequest(m)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", body, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one saying %q", body, err, want)
		}
	}
	if _, err := FromRequest(nil); err == nil {
		t.Error("no message was benched")
	}
}

// FuzzFromRequest feeds FromRequest the requests a capture or a recording
// holds: it never panics, and the params it keeps are a JSON object
// without _meta.
func FuzzFromRequest(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","_meta":{"progressToken":7}}}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"x","params":null}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"_meta":1,"a":"\u001b]0;x\u0007"}}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		m, err := jsonrpc.DecodeMessage(body)
		if err != nil {
			return
		}
		c, err := FromRequest(m)
		if err != nil || c.Params == nil {
			return
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal(c.Params, &members); err != nil {
			t.Fatalf("params %s are no object: %v", c.Params, err)
		}
		if _, ok := members["_meta"]; ok {
			t.Fatalf("params %s keep _meta", c.Params)
		}
		_ = c.summary()
	})
}
