package stdio

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

func TestClassifyLine(t *testing.T) {
	for _, c := range []struct {
		name       string
		raw        string
		frame      bool // a frame is reported
		msgs       int  // messages delivered
		violations int  // …of which carry a Violation
		lineErr    bool // the frame carries a StdoutLineError
		json       bool // …saying the line was JSON
		warning    bool // the frame carries a TextWarning
	}{
		{"blank", "\n", false, 0, 0, false, false, false},
		{"spaces", "  \t\r\n", false, 0, 0, false, false, false},
		{"request", `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", true, 1, 0, false, false, false},
		{"no LF at EOF", `{"jsonrpc":"2.0","id":"a","result":{}}`, true, 1, 0, false, false, false},
		{"batch", `[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"result":1}]` + "\r\n", true, 2, 0, false, false, false},
		{"log line", "INFO listening\n", true, 0, 0, true, false, false},
		{"JSON not JSON-RPC", `{"level":"info"}` + "\n", true, 0, 0, true, true, false},
		{"wrong version", `{"jsonrpc":"1.0","id":1,"method":"x"}` + "\n", true, 1, 1, true, true, false},
		{"broken answer", `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}` + "\n", true, 1, 1, true, true, false},
		{"trailing garbage", `{"jsonrpc":"2.0","id":1,"result":{}} x` + "\n", true, 1, 1, true, true, false},
		{"nested too deep", `{"jsonrpc":"2.0","id":1,"result":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + "}\n", true, 1, 1, true, true, false},
		{"bad batch item", `[{"jsonrpc":"2.0","method":"a"},7]` + "\n", true, 1, 0, true, true, false},
		{"truncated JSON", `{"jsonrpc":"2.0",` + "\n", true, 0, 0, true, false, false},
		{"byte order mark", "\uFEFF" + `{"jsonrpc":"2.0","id":1,"result":{}}` + "\n", true, 1, 0, false, false, true},
		{"invalid UTF-8", `{"jsonrpc":"2.0","id":1,"result":"` + "\xff" + `"}` + "\n", true, 1, 0, false, false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, msgs := classifyLine([]byte(c.raw))
			if (f != nil) != c.frame || len(msgs) != c.msgs {
				t.Fatalf("frame %v, %d messages; want frame %v, %d messages", f != nil, len(msgs), c.frame, c.msgs)
			}
			if f == nil {
				return
			}
			violations := 0
			for _, m := range msgs {
				if m.Violation != nil {
					violations++
				}
			}
			if violations != c.violations {
				t.Fatalf("%d violations, want %d", violations, c.violations)
			}
			var le *StdoutLineError
			if errors.As(f.Err, &le) != c.lineErr || (c.lineErr && le.JSON != c.json) {
				t.Fatalf("Err = %v", f.Err)
			}
			var tw *jsonrpc.TextWarning
			if errors.As(f.Err, &tw) != c.warning {
				t.Fatalf("Err = %v, want a text warning: %v", f.Err, c.warning)
			}
			if string(f.Raw) != c.raw || f.Size != len(c.raw) {
				t.Fatalf("Raw %q Size %d", f.Raw, f.Size)
			}
			if c.msgs == 1 && !c.lineErr && (f.Msg == nil || f.Msg != msgs[0]) {
				t.Fatalf("Msg = %v", f.Msg)
			}
		})
	}
}

func TestClassifyStdoutLineOverTheLimit(t *testing.T) {
	for _, c := range []struct {
		name, head string
		id         string // the id the violation names, "" for none
	}{
		{"answer", `{"jsonrpc":"2.0","id":12,"result":{"content":[{"text":"xxxx`, "12"},
		{"id after a short member", `{"result":"abc","jsonrpc":"2.0","id":"q","x":"xxxx`, `"q"`},
		{"request", `{"jsonrpc":"2.0","id":12,"method":"sampling/createMessage","params":{"x":"xxxx`, "12"},
		{"id beyond the head", `{"jsonrpc":"2.0","result":{"content":[{"text":"xxxx`, ""},
		{"not JSON", `xxxxxxxxxxxx`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ln := line{raw: []byte(c.head), size: 1 << 20, tooLong: true}
			f, msgs := classifyStdout(ln, 4096)
			var long *LineTooLongError
			if f == nil || !errors.As(f.Err, &long) || long.Size != 1<<20 || string(f.Raw) != c.head {
				t.Fatalf("frame %+v", f)
			}
			if c.id == "" {
				if len(msgs) != 0 {
					t.Fatalf("delivered %+v", msgs)
				}
				return
			}
			if len(msgs) != 1 || msgs[0].ID.String() != c.id || !errors.As(msgs[0].Violation, &long) {
				t.Fatalf("delivered %+v, want one violation for id %s", msgs, c.id)
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
		var lineErr *StdoutLineError
		if fr.Err != nil && !errors.As(fr.Err, &lineErr) && len(msgs) == 0 {
			t.Fatalf("a frame that only warns delivered nothing")
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
			if m.Violation != nil {
				if m.ID == nil || fr.Err == nil || m.Kind() != jsonrpc.KindInvalid {
					t.Fatalf("delivered a violation %+v for a frame with error %v", m, fr.Err)
				}
				continue
			}
			if m.Validate() != nil || m.Kind() == jsonrpc.KindInvalid {
				t.Fatalf("delivered an invalid message %q", m.Raw)
			}
		}
	})
}
