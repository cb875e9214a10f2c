package ui

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo"
	demows "github.com/mcpscope/mcpscope/demo/ws"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/ws"
	"github.com/mcpscope/mcpscope/ui/look"
)

// seedStream is seed 003's example stream id.
var seedStream = gateway.GUID{0x55, 0x0e, 0x84, 0x00, 0xe2, 0x9b, 0x41, 0xd4, 0xa7, 0x16, 0x44, 0x66, 0x55, 0x44, 0x00, 0x00}

// chunkClock stamps the frames of a capture for goldens: each stream's
// chunks 5 ms apart from its first, whatever else the connection carried
// between them, every other frame at t0; the store's clock (a stream's
// end) reads the latest chunk's time.
type chunkClock struct {
	mu     sync.Mutex
	chunks map[capture.StreamKey]int
	last   time.Time
}

// stamp is the Sink before the store that sets each frame's time.
func (c *chunkClock) stamp(f *capture.Frame) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	f.Time = t0
	if f.Chan.Kind == capture.Stream {
		k := capture.StreamKeyOf(f)
		c.chunks[k]++
		f.Time = t0.Add(time.Duration(c.chunks[k]) * 5 * time.Millisecond)
		c.last = f.Time
	}
	return 0
}

func (c *chunkClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// gatewayRun drives mcpscope's gateway transport against the demo's
// gateway, one stream after the other, into a store.
type gatewayRun struct {
	t      *testing.T
	tr     *ws.Transport
	events chan ws.StreamEvent
}

// gatewayStore runs, through the real gateway transport and the demo's
// gateway (chunks of 1 KiB), an upload of photo.jpg left half way (2 of
// its 4 KiB), a download of 8 KiB, the text stream and a stream broken
// midway, and returns the store they were captured in.
func gatewayStore(t *testing.T) *capture.Store {
	t.Helper()
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	h := demows.New(core, demows.Options{ChunkSize: 1024})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); h.Close(); _ = core.Close() })
	clk := &chunkClock{chunks: map[capture.StreamKey]int{}}
	st := capture.NewStore(capture.Config{Clock: clk.now})
	g := &gatewayRun{t: t, events: make(chan ws.StreamEvent, 64)}
	g.tr, err = ws.New(ws.Config{URL: "ws" + strings.TrimPrefix(srv.URL, "http") + demows.PathGateway, Mode: ws.ModeGateway,
		Sink: capture.Tee(capture.SinkFunc(clk.stamp), st), OnStream: func(ev ws.StreamEvent) { g.events <- ev }})
	if err != nil {
		t.Fatal(err)
	}
	if err := g.tr.Start(g.ctx(), func(*jsonrpc.Message) {}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.tr.Close() })

	size := int64(4096)
	g.send(&gateway.StreamMessage{Type: gateway.StreamStart, ID: seedStream,
		Meta: &gateway.StreamMeta{Method: demows.ToolStreamsIn, Binary: true, Name: "photo.jpg", Mime: "image/jpeg", TotalSize: &size}})
	for i := range int64(2) {
		if err := g.tr.SendChunk(g.ctx(), seedStream, i, bytes.Repeat([]byte{byte('a' + i)}, 1024)); err != nil {
			t.Fatal(err)
		}
	}
	out := int64(8192)
	g.download(&gateway.StreamMeta{Method: demows.ToolStreamsOut, Binary: true, TotalSize: &out}, gateway.StreamDone)
	g.download(&gateway.StreamMeta{Method: demows.ToolTextStreamsOut}, gateway.StreamDone)
	g.download(&gateway.StreamMeta{Method: "misbehave", Binary: true, Name: "error_mid_stream"}, gateway.StreamError)
	return st
}

func (g *gatewayRun) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	g.t.Cleanup(cancel)
	return ctx
}

// send sends one StreamMessage of the client's.
func (g *gatewayRun) send(m *gateway.StreamMessage) {
	g.t.Helper()
	if err := g.tr.SendStream(g.ctx(), m); err != nil {
		g.t.Fatal(err)
	}
}

// download starts a stream of meta's method, ends the client's side as
// `mcpscope stream` does with nothing to upload, and waits for the
// server's stream to end with end.
func (g *gatewayRun) download(meta *gateway.StreamMeta, end string) {
	g.t.Helper()
	id := gateway.NewGUID()
	g.send(&gateway.StreamMessage{Type: gateway.StreamStart, ID: id, Meta: meta})
	g.send(&gateway.StreamMessage{Type: gateway.StreamDone, ID: id})
	for {
		select {
		case ev := <-g.events:
			if ev.Problem != nil {
				g.t.Fatalf("%s %s: %v", ev.Type, ev.ID, ev.Problem)
			}
			if ev.Type == end && ev.ID != id {
				return
			}
		case <-g.ctx().Done():
			g.t.Fatalf("%s did not end with %s", meta.Method, end)
		}
	}
}

// stableGUIDs replaces in s the GUIDs the store's gateway streams were
// given at random (all but seed 003's example), whole and short, with
// stable ones in the order of the streams, so that a golden holds still.
func stableGUIDs(st *capture.Store, s string) string {
	n := 0
	for _, ss := range st.Streams() {
		if id := ss.Label.ID; id != "" && id != seedStream.String() {
			n++
			stable := fmt.Sprintf("%08d-0000-4000-8000-000000000000", n)
			s = strings.ReplaceAll(strings.ReplaceAll(s, id, stable), id[:8], stable[:8])
		}
	}
	return s
}

// TestStreamsListGateway: gateway streams captured by the real transport
// are rows of the streams pane: each named by its short GUID and its way
// (up for the client's, down for the server's), method · name · MIME type
// from the start's meta, bytes, chunks, rate, state, and a progress bar
// against the announced totalSize (half of the upload, all of the
// download); a stream without a size shows its duration. The pane is
// "Gateway streams" and its title gives the selected stream's whole GUID.
func TestStreamsListGateway(t *testing.T) {
	st := gatewayStore(t)
	m := newTestModel(t, st, 160, 40)
	m.Update(refreshMsg{at: t0})
	m.streams.picked, m.streams.sel, m.streams.top = true, 0, 0 // the first row on top
	body := m.streams.Render(140, 9, true)
	for _, want := range []string{"550e8400 up     system_binary_streams_in · photo.jpg · image/jpeg", " down   system_binary_streams_out · demo.bin · application/octet-",
		" down   system_text_streams_out · values.json · application/json", " down   misbehave · error_mid_stream · application/octet-stream"} {
		if !strings.Contains(goldentest.Plain(body), want) {
			t.Errorf("no row reads %q:\n%s", want, body)
		}
	}
	title := m.streams.Title()
	if want := "Gateway streams · 7 · 1 open · 550e8400-e29b-41d4-a716-446655440000 up"; title != want {
		t.Errorf("title %q, want %q", title, want)
	}
	golden(t, "streams_gateway", stableGUIDs(st, title+"\n"+body))
}

// TestStreamsGatewayDetail: enter on a gateway stream's row opens the
// detail of its first chunk, which names the stream by its whole GUID and
// its way, not by the request id and tag a gateway stream does not have.
func TestStreamsGatewayDetail(t *testing.T) {
	st := gatewayStore(t)
	m := newTestModel(t, st, 160, 45)
	i, out := streamWhere(t, st, func(s capture.StreamStats) bool {
		return s.Label.Text == "system_binary_streams_out · demo.bin · application/octet-stream"
	})
	m.streams.picked, m.streams.sel = true, i
	m.setFocus(paneStreams)
	press(m, "enter")
	detail := goldentest.Plain(m.detail.Render(150, 12, true))
	for _, want := range []string{"gateway stream " + out.Label.ID + " down", "gateway stream payload: 1.0 KiB in this frame"} {
		if !strings.Contains(detail, want) {
			t.Errorf("the detail does not say %q:\n%s", want, detail)
		}
	}
	if strings.Contains(detail, "stream 0/") {
		t.Errorf("the detail names the gateway stream by request id and tag:\n%s", detail)
	}
}

// TestStreamsPaneNamesItsStreams: the pane is named after what it lists,
// by the link while it lists nothing (execution streams on MCP-Flow,
// gateway streams on a gateway whichever subprotocol it chose, SSE streams
// over HTTP) and by its rows once it has some; a stream whose chunks
// went both ways on one GUID is duplex.
func TestStreamsPaneNamesItsStreams(t *testing.T) {
	styles := look.NewStyles(true)
	for _, c := range []struct {
		state        client.LinkState
		title, empty string
	}{
		{client.LinkState{Dialect: mcp.DialectMCPFlow}, "Execution streams · 0 · 0 open", "no execution streams yet"},
		{client.LinkState{Dialect: mcp.DialectMCP, Transport: "gateway (mcp)"}, "Gateway streams · 0 · 0 open", "no gateway streams yet"},
		{client.LinkState{Dialect: mcp.DialectMCP, Transport: "Streamable HTTP"}, "SSE streams · 0 · 0 open", "no SSE streams yet"},
	} {
		p := newStreamsPane(newIndex(), &styles)
		p.link = streamKindOf(c.state)
		if body := goldentest.Plain(p.Render(100, 3, true)); p.Title() != c.title || !strings.Contains(body, c.empty) {
			t.Errorf("%q: title %q, body\n%s\nwant %q and %q", c.state.Transport, p.Title(), body, c.title, c.empty)
		}
	}
	st := capture.NewStore(capture.Config{})
	key := capture.StreamKey{Conn: "gateway", Tag: 1}
	st.LabelStream(key, capture.StreamLabel{Text: "system_binary_streams_duplex", ID: seedStream.String(), Opener: capture.Out})
	for _, dir := range []capture.Dir{capture.Out, capture.In} {
		f := streamChunk(t0, 0, 1, []byte("echo"))
		f.Conn, f.Dir = "gateway", dir
		st.Append(f)
	}
	p := newStreamsPane(newIndex(), &styles)
	p.update(st.Streams(), nil)
	if body := goldentest.Plain(p.Render(120, 3, true)); p.Title() != "Gateway streams · 1 · 1 open · "+seedStream.String()+" duplex" || !strings.Contains(body, "550e8400 duplex system_binary_streams_duplex") {
		t.Errorf("title %q, body\n%s", p.Title(), body)
	}
}

// TestHexGatewayChunk: the hex pane of a binary chunk the gateway
// transport sent shows the 24-byte header as bytes and, in its legend, the
// GUID in .NET order as its canonical string, the index and the payload.
func TestHexGatewayChunk(t *testing.T) {
	m := newTestModel(t, gatewayStore(t), 160, 45)
	selectWhere(t, m, func(f *capture.Frame) bool {
		return f.Dir == capture.Out && f.Enc == proto.EncBinary && bytes.HasSuffix(f.Raw, bytes.Repeat([]byte("b"), 1024))
	})
	got := m.hex.Render(71, 12, true)
	if !strings.Contains(goldentest.Plain(got), "■ stream id (GUID, .NET order) = 550e8400-e29b-41d4-a716-446655440000") {
		t.Errorf("the legend lacks the GUID:\n%s", got)
	}
	golden(t, "hex_gateway_chunk", got)
}

// TestTrafficNamesGatewayChunks: a gateway stream's chunks in the traffic
// pane are named by the stream's short GUID and way, as its row in the
// streams pane names it, not by the request id and tag it does not have.
func TestTrafficNamesGatewayChunks(t *testing.T) {
	st := gatewayStore(t)
	m := newTestModel(t, st, 160, 40)
	_, up := streamWhere(t, st, func(s capture.StreamStats) bool { return s.Label.ID == seedStream.String() })
	var chunk *capture.Frame
	for _, f := range st.Last(st.Len()) {
		if f.Chan.Kind == capture.Stream && capture.StreamKeyOf(f) == up.Key && len(bodyOf(f)) > 0 {
			chunk = f
			break
		}
	}
	if chunk == nil {
		t.Fatal("no chunk of the upload was captured")
	}
	label, _ := m.traffic.label(chunk)
	if !strings.HasPrefix(label, "gateway stream 550e8400 up chunk") || strings.Contains(label, "stream 0/") {
		t.Errorf("the chunk reads %q", label)
	}
}

// streamWhere returns the first of st's streams keep selects, and its
// index among them.
func streamWhere(t *testing.T, st *capture.Store, keep func(capture.StreamStats) bool) (int, capture.StreamStats) {
	t.Helper()
	all := st.Streams()
	i := slices.IndexFunc(all, keep)
	if i < 0 {
		t.Fatal("no such stream was captured")
	}
	return i, all[i]
}
