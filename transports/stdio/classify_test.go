package stdio

import (
	"errors"
	"testing"

	"github.com/mcpscope/mcpscope/proto"
)

func TestClassifyLine(t *testing.T) {
	for _, c := range []struct {
		name    string
		raw     string
		frame   bool // a frame is reported
		msgs    int  // messages delivered
		lineErr bool // the frame carries a StdoutLineError
		json    bool // …saying the line was JSON
	}{
		{"blank", "\n", false, 0, false, false},
		{"spaces", "  \t\r\n", false, 0, false, false},
		{"request", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", true, 1, false, false},
		{"no LF at EOF", `{"jsonrpc":"2.0","id":"a","result":{}}`, true, 1, false, false},
		{"batch", `[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"result":1}]` + "\r\n", true, 2, false, false},
		{"log line", "INFO listening\n", true, 0, true, false},
		{"JSON not JSON-RPC", `{"level":"info"}` + "\n", true, 0, true, true},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"x"}` + "\n", true, 0, true, true},
		{"bad batch item", `[{"jsonrpc":"2.0","method":"a"},7]` + "\n", true, 0, true, true},
		{"truncated JSON", `{"jsonrpc":"2.0",` + "\n", true, 0, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, msgs := classifyLine([]byte(c.raw))
			if (f != nil) != c.frame || len(msgs) != c.msgs {
				t.Fatalf("frame %v, %d messages; want frame %v, %d messages", f != nil, len(msgs), c.frame, c.msgs)
			}
			if f == nil {
				return
			}
			var le *StdoutLineError
			if errors.As(f.Err, &le) != c.lineErr || (c.lineErr && le.JSON != c.json) {
				t.Fatalf("Err = %v", f.Err)
			}
			if string(f.Raw) != c.raw || f.Size != len(c.raw) {
				t.Fatalf("Raw %q Size %d", f.Raw, f.Size)
			}
			if c.msgs == 1 && (f.Msg == nil || f.Msg != msgs[0]) {
				t.Fatalf("Msg = %v", f.Msg)
			}
		})
	}
}

func FuzzClassifyLine(f *testing.F) {
	for _, s := range []string{
		"\n", "Hello from the server!\n", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\r\n",
		`[{"jsonrpc":"2.0","method":"a"}]`, `{"jsonrpc":"2.0","id":1.5,"result":null}`, "[]\n", "\r",
		`{"jsonrpc":"2.0","id":"x","error":{"code":-32601,"message":"nope"}}` + "\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		fr, msgs := classifyLine(raw)
		if fr == nil {
			if len(msgs) != 0 {
				t.Fatalf("messages without a frame")
			}
			return
		}
		if fr.Err != nil && len(msgs) != 0 {
			t.Fatalf("an error frame delivered %d messages", len(msgs))
		}
		if fr.Err == nil && len(msgs) == 0 {
			t.Fatalf("a good frame delivered nothing")
		}
		if fr.Size != len(raw) || string(fr.Raw) != string(raw) {
			t.Fatalf("frame does not keep the line")
		}
		end := 0
		for _, fl := range fr.Fields {
			if fl.Offset != end || fl.Len < 0 {
				t.Fatalf("fields %+v do not tile the line", fr.Fields)
			}
			end += fl.Len
		}
		if end != len(raw) {
			t.Fatalf("fields cover %d of %d bytes", end, len(raw))
		}
		for _, m := range msgs {
			if m.Validate() != nil || m.Kind() == proto.KindInvalid {
				t.Fatalf("delivered an invalid message %q", m.Raw)
			}
		}
	})
}
