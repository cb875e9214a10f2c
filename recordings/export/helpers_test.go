package export

import (
	"bytes"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/recordings"
)

// at is the time of the first frame of the test recordings.
var at = time.Date(2026, 11, 25, 1, 2, 3, 456789000, time.UTC)

// record writes a recording of a session over transport with fill and
// returns its bytes.
func record(t testing.TB, transport string, fill func(w *recordings.Writer)) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := recordings.NewWriter(&buf, recordings.Header{Mcpscope: "test", Target: "http://127.0.0.1:3000/mcp", Transport: transport, Started: at}, recordings.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fill(w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// reader reads a recording from its bytes.
func reader(t testing.TB, b []byte) *recordings.Reader {
	t.Helper()
	r, err := recordings.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// control returns a control frame carrying the JSON-RPC message body,
// decoded as a transport decodes it, framed by suffix.
func control(t testing.TB, dir capture.Dir, conn, body, suffix string, ms int) *capture.Frame {
	t.Helper()
	raw := []byte(body + suffix)
	f := &capture.Frame{Time: at.Add(time.Duration(ms) * time.Millisecond), Dir: dir, Conn: conn, Raw: raw, Size: len(raw), Enc: proto.EncJSON,
		Fields: []proto.Field{{Offset: 0, Len: len(body), Name: "body", Kind: proto.FieldBody}}}
	m, err := jsonrpc.DecodeMessage([]byte(body))
	if err != nil {
		f.Err = err
	} else {
		f.Msg = m
	}
	return f
}
