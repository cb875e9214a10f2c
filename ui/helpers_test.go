package ui

import (
	"encoding/binary"
	"encoding/json"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/keytest"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// t0 is the time of the first test frame.
var t0 = screentest.T0

// clock hands out frame times 5 ms apart.
type clock struct{ n int }

func (c *clock) next() time.Time {
	c.n++
	return t0.Add(time.Duration(c.n) * 5 * time.Millisecond)
}

// controlFrame frames a JSON-RPC message as MCP-Flow does: a 4-byte length
// prefix and the body in enc, with the framer's annotations.
func controlFrame(t testing.TB, dir capture.Dir, at time.Time, enc proto.Encoding, m *jsonrpc.Message) *capture.Frame {
	t.Helper()
	jsonBody, err := m.EncodeJSON()
	if err != nil {
		t.Fatal(err)
	}
	body := jsonBody
	if enc == proto.EncCBOR {
		if body, err = jsonrpc.JSONToCBOR(jsonBody); err != nil {
			t.Fatal(err)
		}
	}
	raw := flow.AppendControlFrame(nil, body)
	_, _, fields, err := flow.ParseControlFrame(raw, flow.DefaultMaxControlFrame)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := jsonrpc.DecodeMessage(jsonBody)
	if err != nil {
		t.Fatal(err)
	}
	return &capture.Frame{Time: at, Dir: dir, Conn: "wt", Chan: capture.Channel{Kind: capture.Control},
		Raw: raw, Size: len(raw), Fields: fields, Enc: enc, Msg: decoded}
}

// request, result and errorResponse build messages.
func request(t testing.TB, id int64, method string, params any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(id), method, params)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func result(t testing.TB, id int64, res any) *jsonrpc.Message {
	t.Helper()
	m, err := jsonrpc.NewResult(jsonrpc.IntID(id), res)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func notification(t testing.TB, method string, params any) *jsonrpc.Message {
	t.Helper()
	return screentest.Notification(t, method, params)
}

// datagramFrame builds an MCP-Flow datagram on channel ch for request id.
func datagramFrame(t testing.TB, at time.Time, ch flow.DatagramChannel, id uint32, payload []byte, enc proto.Encoding) *capture.Frame {
	t.Helper()
	raw := flow.DatagramHeader{Channel: ch, RequestID: id}.Append(nil)
	raw = append(raw, payload...)
	_, _, fields, err := flow.ParseDatagramHeader(raw)
	if err != nil {
		t.Fatal(err)
	}
	return &capture.Frame{Time: at, Dir: capture.In, Conn: "wt",
		Chan: capture.Channel{Kind: capture.Datagram, Ch: uint8(ch), ReqID: id},
		Raw:  raw, Size: len(raw), Fields: fields, Enc: enc}
}

// encode marshals a datagram payload in enc.
func encode(t testing.TB, enc proto.Encoding, v any) []byte {
	t.Helper()
	b, err := jsonrpc.Marshal(enc, v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pcm is n samples of a constant PCM s16le level.
func pcm(n int, level int16) []byte {
	b := make([]byte, 2*n)
	for i := range n {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(level))
	}
	return b
}

// streamChunk builds a payload chunk of an execution stream.
func streamChunk(at time.Time, id, tag uint32, payload []byte) *capture.Frame {
	return &capture.Frame{Time: at, Dir: capture.In, Conn: "wt",
		Chan: capture.Channel{Kind: capture.Stream, ReqID: id, Tag: tag}, Raw: payload, Size: len(payload),
		Fields: []proto.Field{{Len: len(payload), Name: "payload", Kind: proto.FieldBody}}, Enc: proto.EncBinary}
}

// stderrFrame builds a stderr line of a stdio server.
func stderrFrame(at time.Time, line string) *capture.Frame {
	raw := []byte(line + "\n")
	return &capture.Frame{Time: at, Dir: capture.In, Conn: "stdio", Chan: capture.Channel{Kind: capture.Stderr},
		Raw: raw, Size: len(raw), Fields: jsonrpc.LineFields(raw), Enc: proto.EncText}
}

// sampleStore holds one of each kind of frame: a session over MCP-Flow
// with a CBOR tools/call whose result refers to a stream, progress, log,
// audio and unknown datagrams, a cancelled call, a frame that does not
// decode and stderr lines.
func sampleStore(t testing.TB) *capture.Store {
	t.Helper()
	st := capture.NewStore(capture.Config{})
	sampleInto(t, st)
	return st
}

// sampleInto gives st the frames and marks of sampleStore.
func sampleInto(t testing.TB, st capture.Tap) {
	t.Helper()
	c := &clock{}
	add := func(f *capture.Frame) { st.Append(f) }
	add(controlFrame(t, capture.Out, c.next(), proto.EncJSON, request(t, 1, "initialize", map[string]any{"protocolVersion": "2025-11-25"})))
	add(controlFrame(t, capture.In, c.next(), proto.EncJSON, result(t, 1, map[string]any{"serverInfo": map[string]any{"name": "demo"}})))
	add(controlFrame(t, capture.Out, c.next(), proto.EncCBOR, notification(t, "notifications/initialized", nil)))
	add(controlFrame(t, capture.Out, c.next(), proto.EncCBOR, request(t, 2, "tools/call", map[string]any{"name": "read_file", "arguments": map[string]any{"size": 4096}})))
	key := capture.StreamKey{Conn: "wt", ReqID: 2, Tag: 1}
	add(&capture.Frame{Time: c.next(), Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Stream, ReqID: 2, Tag: 1},
		Raw: flow.ExecStreamHeader{RequestID: 2, StreamTag: 1}.Append(nil), Size: 8,
		Fields: flow.ExecStreamHeader{RequestID: 2, StreamTag: 1}.Fields(), Enc: proto.EncBinary})
	add(streamChunk(c.next(), 2, 1, make([]byte, 2048)))
	st.Note(capture.StreamSized{Key: key, Size: 4096})
	ref := map[string]any{"content": []any{flow.NewStreamRef(1, "application/octet-stream", 4096)}}
	add(controlFrame(t, capture.In, c.next(), proto.EncCBOR, result(t, 2, ref)))
	add(streamChunk(c.next(), 2, 1, make([]byte, 2048)))
	st.Note(capture.StreamMarked{Key: key, State: capture.StreamDone})
	add(controlFrame(t, capture.Out, c.next(), proto.EncCBOR, request(t, 3, "tools/call", map[string]any{"name": "analyze"})))
	add(datagramFrame(t, c.next(), flow.ChannelProgress, 3, encode(t, proto.EncCBOR, flow.ProgressDatagram{Progress: 2, Total: 5, Message: "step 2/5"}), proto.EncCBOR))
	add(datagramFrame(t, c.next(), flow.ChannelLog, 3, encode(t, proto.EncCBOR, flow.LogDatagram{Level: "info", Logger: "analyze", Data: json.RawMessage(`"step 2/5"`)}), proto.EncCBOR))
	add(datagramFrame(t, c.next(), flow.ChannelLog, 3, encode(t, proto.EncCBOR, flow.LogDatagram{Level: "warning", Logger: "analyze", Data: json.RawMessage(`{"slow":true}`)}), proto.EncCBOR))
	add(datagramFrame(t, c.next(), flow.ChannelAudio, 3, pcm(320, 8192), proto.EncBinary))
	add(datagramFrame(t, c.next(), flow.DatagramChannel(0x07), 3, []byte{1, 2, 3}, proto.EncBinary))
	add(controlFrame(t, capture.Out, c.next(), proto.EncCBOR, notification(t, flow.MethodFlowCancel, flow.FlowCancelParams{RequestID: 3, Reason: "user"})))
	add(controlFrame(t, capture.In, c.next(), proto.EncCBOR, jsonrpc.NewErrorResponse(jsonrpc.IntID(3), -32000, "Cancelled", nil)))
	bad := []byte("\x00\x00\x00\x05{oops")
	_, _, fields, _ := flow.ParseControlFrame(bad, flow.DefaultMaxControlFrame)
	add(&capture.Frame{Time: c.next(), Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Control},
		Raw: bad, Size: len(bad), Fields: fields, Enc: proto.EncCBOR, Err: errDecode})
	add(stderrFrame(c.next(), "server starting"))
	add(stderrFrame(c.next(), "listening on stdio"))
}

// errDecode stands for the error a codec reports on a broken body.
var errDecode = &jsonrpc.Error{Code: mcp.CodeParseError, Message: "CBOR body is malformed: unexpected EOF"}

// newTestModel returns a model of st without a connection, sized w×h, with
// every frame read.
func newTestModel(t testing.TB, st *capture.Store, w, h int) *Model {
	t.Helper()
	m := New(Config{Store: st, Target: "wt://127.0.0.1:4433/mcp"})
	t.Cleanup(func() { _ = m.Close() })
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	refreshWhole(m, t0)
	return m
}

// refreshWhole sends a refresh to the model and then every slice of its
// pass, as the program does, so that the pass is read whole.
func refreshWhole(m *Model, at time.Time) {
	m.Update(refreshMsg{at: at})
	for m.passing {
		m.Update(passMsg{pass: m.pass})
	}
}

// press sends one key press to the model and returns the command.
func press(m *Model, k string) tea.Cmd {
	msg := keyPress(k)
	_, cmd := m.Update(msg)
	return cmd
}

// keyPress is the KeyPressMsg of a key name as KeyMap uses them; an
// unknown longer name presses its first character.
func keyPress(k string) tea.KeyPressMsg {
	return keytest.Press(k)
}

// golden compares got, ANSI stripped and with trailing spaces cut, with
// testdata/name.golden (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldentest.CheckPlain(t, name, got)
}

// screenText is the whole screen, ANSI stripped.
func screenText(m *Model) string { return ansi.Strip(m.View().Content) }
