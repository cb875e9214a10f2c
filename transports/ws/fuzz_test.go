package ws

import (
	"testing"

	"github.com/mcpscope/mcpscope/capture"
)

// FuzzToolAnswer: whatever a tools-ws server sends, reading it never
// panics, and only an answer to a call in flight is delivered, once.
func FuzzToolAnswer(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"x"}}`,
		`{"type":"ping"}`, `[{"jsonrpc":"2.0","id":1,"result":{}}]`, `{"id":"1","result":{}}`, `{`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr := &Transport{}
		_ = tr.tools.add(1)
		fr := &capture.Frame{}
		m := tr.toolAnswer(data, fr)
		if m == nil {
			if fr.Err == nil {
				t.Fatal("an ignored frame says nothing")
			}
			return
		}
		if n, ok := idOf(m); !ok || n != 1 {
			t.Fatalf("delivered %+v", m)
		}
		if tr.toolAnswer(data, &capture.Frame{}) != nil {
			t.Fatal("the same answer was delivered twice")
		}
	})
}
