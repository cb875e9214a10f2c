package ws

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

var knownGUID = mustGUID("550e8400-e29b-41d4-a716-446655440000")

func mustGUID(s string) gateway.GUID {
	g, err := gateway.ParseGUID(s)
	if err != nil {
		panic(err)
	}
	return g
}

// events collects StreamEvents.
type events struct {
	mu  sync.Mutex
	all []StreamEvent
	got chan struct{}
}

func newEvents() *events { return &events{got: make(chan struct{}, 256)} }

func (e *events) add(ev StreamEvent) {
	e.mu.Lock()
	e.all = append(e.all, ev)
	e.mu.Unlock()
	e.got <- struct{}{}
}

// wait waits for n events in all and returns them.
func (e *events) wait(t *testing.T, n int) []StreamEvent {
	t.Helper()
	for {
		e.mu.Lock()
		if len(e.all) >= n {
			out := append([]StreamEvent(nil), e.all...)
			e.mu.Unlock()
			return out
		}
		e.mu.Unlock()
		select {
		case <-e.got:
		case <-ctxT(t).Done():
			t.Fatalf("waited for %d stream events", n)
		}
	}
}

// dialGateway starts a gateway transport whose sink is fr and a Store.
func dialGateway(t *testing.T, url string) (*Transport, *frames, *capture.Store, *events) {
	t.Helper()
	fr, st, ev := &frames{}, capture.NewStore(capture.Config{}), newEvents()
	tr, err := New(Config{URL: url, Mode: ModeGateway, Sink: capture.Tee(st, fr), OnStream: ev.add})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Start(ctxT(t), func(*jsonrpc.Message) {}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	return tr, fr, st, ev
}

func streamMsg(t *testing.T, m *gateway.StreamMessage) []byte {
	t.Helper()
	b, err := gateway.EncodeStreamMessage(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func index(n int64) *int64 { return &n }

// The client's upload, byte for byte: a start text frame, binary chunks
// whose 24-byte header carries the GUID in .NET order and the index as an
// int64 LE, then done.
func TestGatewayUploadBytes(t *testing.T) {
	got := make(chan []byte, 8)
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) {
		for {
			typ, data, err := c.Read(ctx)
			if err != nil {
				return
			}
			if typ == websocket.MessageBinary {
				data = append([]byte("B"), data...)
			}
			got <- data
		}
	})
	tr, fr, st, _ := dialGateway(t, p.url)
	size := int64(5)
	if err := tr.SendStream(ctxT(t), &gateway.StreamMessage{Type: gateway.StreamStart, ID: knownGUID, Meta: &gateway.StreamMeta{Method: "system_binary_streams_in", Binary: true, TotalSize: &size}}); err != nil {
		t.Fatal(err)
	}
	for i, part := range []string{"abc", "de"} {
		if err := tr.SendChunk(ctxT(t), knownGUID, int64(i), []byte(part)); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.SendStream(ctxT(t), &gateway.StreamMessage{Type: gateway.StreamDone, ID: knownGUID, Summary: json.RawMessage(`{"totalChunks":2,"totalBytes":5}`)}); err != nil {
		t.Fatal(err)
	}
	start := <-got
	if !strings.Contains(string(start), `"type":"start"`) || !strings.Contains(string(start), `"id":"550e8400-e29b-41d4-a716-446655440000"`) {
		t.Errorf("start %s", start)
	}
	first := <-got
	want := "42" + "00840e559be2d441a716446655440000" + "0000000000000000" + hex.EncodeToString([]byte("abc"))
	if hex.EncodeToString(first) != want {
		t.Errorf("first chunk\n got %x\nwant %s", first, want)
	}
	second := <-got
	if hex.EncodeToString(second[1:25]) != "00840e559be2d441a716446655440000"+"0100000000000000" {
		t.Errorf("second chunk header %x", second[1:25])
	}
	if done := <-got; !strings.Contains(string(done), `"type":"done"`) {
		t.Errorf("done %s", done)
	}
	f := fr.find("abc")
	if f == nil || f.Chan.Kind != capture.Stream || len(f.Fields) != 3 || f.Fields[0].Value != "550e8400-e29b-41d4-a716-446655440000" {
		t.Fatalf("the chunk frame is not annotated: %+v", f)
	}
	ss := st.Streams()
	if len(ss) != 1 || ss[0].Bytes != 5 || ss[0].Chunks != 2 || ss[0].Size != 5 || ss[0].State != capture.StreamDone ||
		ss[0].Label.ID != knownGUID.String() || ss[0].Label.Opener != capture.Out || ss[0].Duplex {
		t.Errorf("stream stats %+v", ss)
	}
	// A chunk out of order or after the done is refused, nothing sent.
	if err := tr.SendChunk(ctxT(t), knownGUID, 2, nil); err == nil || !strings.Contains(err.Error(), "after its done") {
		t.Errorf("a chunk after done: %v", err)
	}
}

// The server's stream: start, binary and text chunks, done, reported in
// order with no problem; JSON-RPC on the same connection still reaches
// the session; a second stream on the same connection is accepted.
func TestGatewayDownload(t *testing.T) {
	other := mustGUID("11111111-2222-3333-4444-555555555555")
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) {
		w := func(typ websocket.MessageType, b []byte) { _ = c.Write(ctx, typ, b) }
		w(websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamStart, ID: knownGUID, Meta: &gateway.StreamMeta{Method: "system_binary_streams_out", Binary: true, Name: "out.bin"}}))
		w(websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamStart, ID: other, Meta: &gateway.StreamMeta{Method: "text", Binary: false}}))
		w(websocket.MessageBinary, gateway.AppendGatewayChunk(nil, knownGUID, 0, []byte("xyz")))
		w(websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamChunk, ID: other, Index: index(0), Data: json.RawMessage(`{"line":1}`)}))
		w(websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"notifications/message","params":{}}`))
		w(websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamDone, ID: knownGUID, Summary: json.RawMessage(`{"totalBytes":3}`)}))
		w(websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamError, ID: other, Error: &jsonrpc.Error{Code: -32000, Message: "Stream timeout"}}))
		_, _, _ = c.Read(ctx)
	})
	fr, st, ev := &frames{}, capture.NewStore(capture.Config{}), newEvents()
	delivered := make(chan *jsonrpc.Message, 4)
	tr, err := New(Config{URL: p.url, Mode: ModeGateway, Sink: capture.Tee(st, fr), OnStream: ev.add})
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Start(ctxT(t), func(m *jsonrpc.Message) { delivered <- m }); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tr.Close() })
	all := ev.wait(t, 6)
	var kinds []string
	for _, e := range all {
		if e.Problem != nil {
			t.Errorf("%s: %v", e.Type, e.Problem)
		}
		kinds = append(kinds, e.Type+":"+e.ID.String()[:4])
	}
	if strings.Join(kinds, " ") != "start:550e start:1111 chunk:550e chunk:1111 done:550e error:1111" {
		t.Errorf("events %v", kinds)
	}
	if !all[2].Binary || string(all[2].Data) != "xyz" || all[2].Meta.Name != "out.bin" || string(all[3].Data) != `{"line":1}` {
		t.Errorf("chunks %+v %+v", all[2], all[3])
	}
	if string(all[4].Summary) != `{"totalBytes":3}` || all[5].Err.Message != "Stream timeout" {
		t.Errorf("ends %+v %+v", all[4], all[5])
	}
	if m := <-delivered; m.Method != "notifications/message" {
		t.Errorf("delivered %+v", m)
	}
	states := map[uint32]capture.StreamState{}
	for _, s := range st.Streams() {
		states[s.Key.Tag] = s.State
	}
	want := capture.StreamLabel{Text: "system_binary_streams_out · out.bin", ID: knownGUID.String(), Opener: capture.In}
	if ss := st.Streams(); len(ss) != 2 || ss[0].Label != want || ss[1].Label.Text != "text" || ss[1].Label.ID != other.String() {
		t.Errorf("labels %+v", ss)
	}
	if states[1] != capture.StreamDone || states[2] != capture.StreamError {
		t.Errorf("stream states %v", states)
	}
	_ = fr
}

// What a server gets wrong is reported on the message and in the capture:
// an index gap, a chunk for a stream never started, a chunk after done,
// a GUID in RFC byte order, a bad GUID, a truncated binary frame.
func TestGatewayProblems(t *testing.T) {
	rfc := append(knownGUID[:0:0], knownGUID[:]...) // the GUID's bytes as written, RFC order
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) {
		w := func(typ websocket.MessageType, b []byte) { _ = c.Write(ctx, typ, b) }
		w(websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamStart, ID: knownGUID, Meta: &gateway.StreamMeta{Method: "out", Binary: true}}))
		w(websocket.MessageBinary, gateway.AppendGatewayChunk(nil, knownGUID, 0, []byte("a")))
		w(websocket.MessageBinary, gateway.AppendGatewayChunk(nil, knownGUID, 2, []byte("c")))
		w(websocket.MessageBinary, append(append(rfc, 3, 0, 0, 0, 0, 0, 0, 0), 'd'))
		w(websocket.MessageBinary, gateway.AppendGatewayChunk(nil, mustGUID("99999999-9999-9999-9999-999999999999"), 0, nil))
		w(websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamDone, ID: knownGUID}))
		w(websocket.MessageBinary, gateway.AppendGatewayChunk(nil, knownGUID, 3, []byte("late")))
		w(websocket.MessageText, []byte(`{"type":"chunk","id":"not-a-guid","timestamp":"2024-12-04T10:00:01Z","index":0,"data":1}`))
		w(websocket.MessageBinary, []byte{1, 2, 3})
		_, _, _ = c.Read(ctx)
	})
	_, fr, _, ev := dialGateway(t, p.url)
	all := ev.wait(t, 7)
	wants := []string{"", "", "index gap on stream 550e8400-e29b-41d4-a716-446655440000: chunk 2 where 1 was next",
		"not in .NET byte order", "unknown stream 99999999-9999-9999-9999-999999999999", "", "after its done or error"}
	for i, want := range wants {
		got := ""
		if all[i].Problem != nil {
			got = all[i].Problem.Error()
		}
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("event %d (%s): problem %q, want %q", i, all[i].Type, got, want)
		}
	}
	if f := fr.waitFrame(t, "not-a-guid"); f.Err == nil {
		t.Error("a bad GUID is not an error")
	}
	if f := fr.waitFrame(t, "\x01\x02\x03"); f.Err == nil || !strings.Contains(f.Err.Error(), "needs 24 bytes") {
		t.Errorf("a truncated chunk: %v", f.Err)
	}
}

// Starts that never end cannot grow the table past its bound: the oldest
// stream is forgotten when none has ended.
func TestGatewayTableBound(t *testing.T) {
	var g gatewayTable
	var first gateway.GUID
	for i := range maxGatewayStreams + 10 {
		id := gateway.NewGUID()
		if i == 0 {
			first = id
		}
		if _, err := g.open("ws", id, incoming, &gateway.StreamMeta{Method: "m"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(g.streams) != maxGatewayStreams {
		t.Errorf("%d streams remembered", len(g.streams))
	}
	if _, _, err := g.chunk(first, incoming, 0); err == nil || !strings.Contains(err.Error(), "unknown stream") {
		t.Errorf("the oldest stream is still known: %v", err)
	}
}

// A message seed 003 can still be read from is reported whole with what it
// breaks: a start without meta.binary and with a timestamp off UTC opens
// its stream, and its chunk and done follow without a problem.
func TestGatewayViolationsShown(t *testing.T) {
	start := `{"type":"start","id":"550e8400-e29b-41d4-a716-446655440000","timestamp":"2024-12-04T12:00:00+02:00","meta":{"method":"out","name":"a.txt"}}`
	p := startPeer(t, nil, func(ctx context.Context, c *websocket.Conn) {
		_ = c.Write(ctx, websocket.MessageText, []byte(start))
		_ = c.Write(ctx, websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamChunk, ID: knownGUID, Index: index(0), Data: json.RawMessage(`"x"`)}))
		_ = c.Write(ctx, websocket.MessageText, streamMsg(t, &gateway.StreamMessage{Type: gateway.StreamDone, ID: knownGUID}))
		_, _, _ = c.Read(ctx)
	})
	_, fr, st, ev := dialGateway(t, p.url)
	all := ev.wait(t, 3)
	want := `start StreamMessage 550e8400-e29b-41d4-a716-446655440000: timestamp "2024-12-04T12:00:00+02:00" is not in UTC (a gateway stream wants ISO 8601 UTC); its meta has no binary (true or false), which a gateway stream requires`
	if all[0].Type != gateway.StreamStart || all[0].Problem == nil || all[0].Problem.Error() != want || all[0].Meta.Name != "a.txt" {
		t.Errorf("start %+v", all[0])
	}
	if all[1].Problem != nil || all[2].Problem != nil || string(all[1].Data) != `"x"` {
		t.Errorf("chunk %+v, done %+v", all[1], all[2])
	}
	if f := fr.waitFrame(t, `T12:00:00+02:00`); f.Err == nil || f.Err.Error() != want {
		t.Errorf("the start's frame: %v", f.Err)
	}
	if ss := st.Streams(); len(ss) != 1 || ss[0].Label.Text != "out · a.txt" || ss[0].State != capture.StreamDone {
		t.Errorf("streams %+v", ss)
	}
}
