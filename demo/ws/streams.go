package demows

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// The stream tools of seed 003, started by a start StreamMessage whose
// meta.method names them.
const (
	// ToolStreamsOut streams binary chunks to the client (meta.totalSize
	// bytes, default DefaultStreamOut), then done.
	ToolStreamsOut = "system_binary_streams_out"
	// ToolStreamsIn takes the client's chunks and answers done with a
	// summary of what arrived (or error on a bad sequence).
	ToolStreamsIn = "system_binary_streams_in"
	// ToolStreamsDuplex echoes each chunk as it arrives, then done.
	ToolStreamsDuplex = "system_binary_streams_duplex"
	// ToolTextStreamsOut streams text chunks, one JSON value each.
	ToolTextStreamsOut = "system_text_streams_out"
	// methodMisbehave streams a broken stream, as meta.mode says.
	methodMisbehave = "misbehave"
)

// Bounds of system_binary_streams_out's meta.totalSize.
const (
	DefaultStreamOut = 1 << 20
	MaxStreamOut     = 16 << 30
)

// role is what the server does with a stream the client started.
type role uint8

const (
	roleUpload   role = iota // count what arrives (ToolStreamsIn)
	roleEcho                 // send each chunk back (ToolStreamsDuplex)
	roleDownload             // the server writes, the client only listens
)

// inStream is a stream the client started.
type inStream struct {
	id      gateway.GUID
	meta    gateway.StreamMeta
	role    role
	next    int64 // index the next chunk must carry
	chunks  int64
	bytes   int64
	sum     hash.Hash
	started time.Time
	reply   gateway.GUID       // the server's own stream answering it (download, echo)
	idle    *time.Timer        // upload, echo: ends a silent stream
	cancel  context.CancelFunc // download: stops the writer
}

// streamTable holds the streams of one gateway connection.
type streamTable struct {
	s      *session
	mu     sync.Mutex
	open   map[gateway.GUID]*inStream
	closed bool
	// downloaded are the client streams whose download ended lately,
	// oldest first: the client's done for one may come after the server's
	// stream ended, and is taken quietly.
	downloaded []gateway.GUID
}

// maxDownloaded bounds streamTable.downloaded.
const maxDownloaded = 64

// newStreamTable is the empty table of s.
func newStreamTable(s *session) *streamTable {
	return &streamTable{s: s, open: make(map[gateway.GUID]*inStream)}
}

// closeAll stops every stream; later starts are ignored.
func (t *streamTable) closeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for id, st := range t.open {
		st.stop()
		delete(t.open, id)
	}
}

// stop ends the stream's timer or writer.
func (st *inStream) stop() {
	if st.idle != nil {
		st.idle.Stop()
	}
	if st.cancel != nil {
		st.cancel()
	}
}

// take removes and returns the stream id, if it is st (or st is nil).
func (t *streamTable) take(id gateway.GUID, st *inStream) *inStream {
	t.mu.Lock()
	defer t.mu.Unlock()
	cur := t.open[id]
	if cur == nil || (st != nil && cur != st) {
		return nil
	}
	delete(t.open, id)
	cur.stop()
	return cur
}

// downloadEnded removes the download st and remembers it as ended.
func (t *streamTable) downloadEnded(st *inStream) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.open[st.id] != st {
		return
	}
	delete(t.open, st.id)
	st.stop()
	if len(t.downloaded) == maxDownloaded {
		t.downloaded = t.downloaded[1:]
	}
	t.downloaded = append(t.downloaded, st.id)
}

// wasDownloaded reports whether id is a client stream whose download
// ended lately.
func (t *streamTable) wasDownloaded(id gateway.GUID) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return slices.Contains(t.downloaded, id)
}

// lookup returns the open stream id.
func (t *streamTable) lookup(id gateway.GUID) *inStream {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.open[id]
}

// text serves one StreamMessage text frame.
func (t *streamTable) text(b []byte) {
	m, err := gateway.DecodeStreamMessage(b)
	if err != nil {
		id := looseID(b)
		t.take(id, nil)
		t.fail(id, mcp.CodeInvalidRequest, err.Error())
		return
	}
	switch m.Type {
	case gateway.StreamStart:
		t.start(m, b)
	case gateway.StreamChunk:
		t.chunk(m.ID, *m.Index, m.Data, true)
	case gateway.StreamDone:
		t.done(m)
	case gateway.StreamError:
		if t.take(m.ID, nil) != nil {
			t.s.h.opts.Logger.Debug("the client aborted a stream", "id", m.ID, "err", m.Error)
		}
	}
}

// binary serves one binary chunk frame.
func (t *streamTable) binary(b []byte) {
	h, payload, _, err := gateway.ParseGatewayChunkHeader(b)
	if err != nil {
		t.fail(gateway.GUID{}, mcp.CodeInvalidRequest, "a binary chunk frame: "+err.Error())
		return
	}
	t.chunk(h.StreamID, h.Index, payload, false)
}

// looseID is the stream id a frame that failed to decode names, if any.
func looseID(b []byte) gateway.GUID {
	var v struct {
		ID gateway.GUID `json:"id"`
	}
	_ = json.Unmarshal(b, &v)
	return v.ID
}

// fail sends an error StreamMessage for stream id.
func (t *streamTable) fail(id gateway.GUID, code int, msg string) {
	_ = t.s.sendStream(&gateway.StreamMessage{Type: gateway.StreamError, ID: id, Error: &jsonrpc.Error{Code: code, Message: msg}})
}

// start opens a stream as its meta.method says.
func (t *streamTable) start(m *gateway.StreamMessage, raw []byte) {
	st := &inStream{id: m.ID, meta: *m.Meta, reply: gateway.NewGUID(), sum: sha256.New(), started: time.Now()}
	// The server's stream is one of its own (seed 003 §8: OpenWrite), tied
	// to the client's by correlationId: the client's, else its stream id.
	corr := m.Meta.CorrelationID
	if corr == "" {
		corr = m.ID.String()
	}
	var run func(ctx context.Context) error
	switch m.Meta.Method {
	case ToolStreamsIn:
		st.role = roleUpload
	case ToolStreamsDuplex:
		st.role = roleEcho
	case ToolStreamsOut:
		st.role, run = roleDownload, func(ctx context.Context) error { return t.s.streamOut(ctx, st.reply, corr, m.Meta.TotalSize) }
	case ToolTextStreamsOut:
		st.role, run = roleDownload, func(ctx context.Context) error { return t.s.streamText(ctx, st.reply, corr) }
	case methodMisbehave:
		mode := metaMode(raw)
		if !slices.Contains(demo.GatewayModes, mode) {
			t.fail(m.ID, mcp.CodeInvalidParams, fmt.Sprintf("misbehave mode %q breaks no stream; one of %s", mode, strings.Join(demo.GatewayModes, ", ")))
			return
		}
		st.role, run = roleDownload, func(ctx context.Context) error { return t.s.misbehaveStream(ctx, st.reply, corr, mode) }
	default:
		t.fail(m.ID, mcp.CodeMethodNotFound, fmt.Sprintf("%q streams nothing here; the stream tools are %s, %s, %s, %s and misbehave",
			m.Meta.Method, ToolStreamsOut, ToolStreamsIn, ToolStreamsDuplex, ToolTextStreamsOut))
		return
	}
	// The stream's cancel is set before it is published: closeAll and
	// expire read it from other goroutines.
	ctx := t.s.ctx
	if run != nil {
		ctx, st.cancel = context.WithCancel(t.s.ctx)
	}
	if msg := t.register(st); msg != "" {
		if st.cancel != nil {
			st.cancel()
		}
		t.fail(m.ID, mcp.CodeInvalidRequest, msg)
		return
	}
	switch {
	case run != nil:
		t.s.spawn(func() {
			defer t.downloadEnded(st)
			if err := run(ctx); err != nil {
				t.s.h.opts.Logger.Debug("stream ended early", "id", st.id, "err", err)
			}
		})
	case st.role == roleEcho:
		meta := gateway.StreamMeta{Method: st.meta.Method, Binary: st.meta.Binary, Name: st.meta.Name, Mime: st.meta.Mime, CorrelationID: corr}
		_ = t.s.sendStream(&gateway.StreamMessage{Type: gateway.StreamStart, ID: st.reply, Meta: &meta})
	}
}

// register adds st, or says why it cannot be opened. The lock is held
// while the idle timer is armed, so a stream is never expired before it
// is registered.
func (t *streamTable) register(st *inStream) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.closed:
		return "the connection is closing"
	case t.open[st.id] != nil:
		return fmt.Sprintf("stream %s is open already", st.id)
	case len(t.open) >= t.s.h.opts.MaxStreams:
		return fmt.Sprintf("%d streams are open on this connection already", len(t.open))
	}
	t.open[st.id] = st
	if st.role != roleDownload {
		st.idle = time.AfterFunc(t.s.h.opts.StreamIdle, func() { t.expire(st) })
	}
	return ""
}

// expire ends a stream the client left silent.
func (t *streamTable) expire(st *inStream) {
	if t.take(st.id, st) == nil {
		return
	}
	idle := t.s.h.opts.StreamIdle
	data, _ := json.Marshal(map[string]float64{"timeout": idle.Seconds()})
	_ = t.s.sendStream(&gateway.StreamMessage{Type: gateway.StreamError, ID: st.id, Error: &jsonrpc.Error{
		Code: mcp.CodeServerError, Message: fmt.Sprintf("Stream timeout: no frame for %s", idle), Data: data}})
}

// chunk takes one chunk of a stream the client writes; text says it came
// as a StreamMessage (its data is a JSON value), else as a binary frame.
func (t *streamTable) chunk(id gateway.GUID, index int64, data []byte, text bool) {
	st := t.lookup(id)
	var msg string
	switch {
	case st == nil:
		msg = fmt.Sprintf("chunk %d is for an unknown stream %s: no start opened it, or it has ended", index, id)
	case st.role == roleDownload:
		msg = fmt.Sprintf("stream %s is a download (%s): it takes no chunks", id, st.meta.Method)
	case index != st.next:
		msg = fmt.Sprintf("index gap: chunk %d came where %d was expected", index, st.next)
	case st.meta.TotalSize != nil && st.bytes+int64(len(data)) > *st.meta.TotalSize:
		msg = fmt.Sprintf("more than the %d bytes the start announced (totalSize)", *st.meta.TotalSize)
	}
	if msg != "" {
		t.take(id, st)
		t.fail(id, mcp.CodeInvalidRequest, msg)
		return
	}
	st.idle.Reset(t.s.h.opts.StreamIdle)
	st.next++
	st.chunks++
	st.bytes += int64(len(data))
	st.sum.Write(data)
	if st.role != roleEcho {
		return
	}
	var err error
	if text {
		err = t.s.sendStream(&gateway.StreamMessage{Type: gateway.StreamChunk, ID: st.reply, Index: &index, Data: data})
	} else {
		_, err = t.s.sendChunk(nil, st.reply, index, data)
	}
	if err != nil {
		t.take(id, st)
	}
}

// claimed is what a client's done may claim about its stream.
type claimed struct {
	TotalChunks *int64 `json:"totalChunks"`
	TotalBytes  *int64 `json:"totalBytes"`
}

// done ends a stream the client wrote: done with the summary of what
// arrived, or error when its claims or the start's totalSize disagree.
func (t *streamTable) done(m *gateway.StreamMessage) {
	st := t.lookup(m.ID)
	if st != nil && st.role == roleDownload || st == nil && t.wasDownloaded(m.ID) {
		return // the client ends its side of a download, whether the server's stream goes on or ended
	}
	if st = t.take(m.ID, st); st == nil {
		t.fail(m.ID, mcp.CodeInvalidRequest, fmt.Sprintf("done for an unknown stream %s: no start opened it, or it has ended", m.ID))
		return
	}
	var c claimed
	_ = json.Unmarshal(m.Summary, &c)
	var msg string
	switch {
	case c.TotalChunks != nil && *c.TotalChunks != st.chunks:
		msg = fmt.Sprintf("the done claims %d chunks; %d arrived", *c.TotalChunks, st.chunks)
	case c.TotalBytes != nil && *c.TotalBytes != st.bytes:
		msg = fmt.Sprintf("the done claims %d bytes; %d arrived", *c.TotalBytes, st.bytes)
	case st.meta.TotalSize != nil && *st.meta.TotalSize != st.bytes:
		msg = fmt.Sprintf("the start announced %d bytes (totalSize); %d arrived", *st.meta.TotalSize, st.bytes)
	}
	if msg != "" {
		t.fail(st.id, mcp.CodeInvalidParams, msg)
		return
	}
	end := st.id // an upload's done answers the client's stream; an echo's ends the server's
	if st.role == roleEcho {
		end = st.reply
	}
	_ = t.s.sendDone(end, st.chunks, st.bytes, st.started, st.sum)
}

// intercept answers, on the gateway, the JSON-RPC requests that concern
// the stream tools: tools/list names them besides the demo's tools, and a
// tools/call of one says how to start it. It reports whether it answered.
func (t *streamTable) intercept(m *jsonrpc.Message) bool {
	if m.Kind() != jsonrpc.KindRequest {
		return false
	}
	switch m.Method {
	case mcp.MethodToolsList:
		res := mcp.ListToolsResult{}
		for _, tool := range t.s.h.core.Tools() {
			res.Tools = append(res.Tools, mcp.Tool{Name: tool.Name, Description: tool.Description, InputSchema: tool.InputSchema})
		}
		res.Tools = append(res.Tools, streamTools()...)
		if a, err := jsonrpc.NewResult(*m.ID, res); err == nil {
			_ = t.s.Send(a)
		}
		return true
	case mcp.MethodToolsCall:
		var p mcp.CallToolParams
		if json.Unmarshal(m.Params, &p) != nil || !isStreamTool(p.Name) {
			return false
		}
		t.s.sendError(*m.ID, mcp.CodeInvalidParams, fmt.Sprintf("%s streams: send a start StreamMessage whose meta.method is %q, "+
			"on a WebSocket connection of its own (a gateway stream)", p.Name, p.Name))
		return true
	}
	return false
}

// streamToolDescriptions describe the stream tools in tools/list.
var streamToolDescriptions = map[string]string{
	ToolStreamsOut:     "Streams meta.totalSize bytes (default 1 MiB) as binary chunks, then done with totalChunks, totalBytes, duration_ms and sha256. Start it with a StreamMessage.",
	ToolStreamsIn:      "Takes binary or text chunks and answers done with totalChunks, totalBytes, duration_ms and sha256 of what arrived, or error on a bad sequence. Start it with a StreamMessage.",
	ToolStreamsDuplex:  "Echoes each chunk as it arrives, then done. Start it with a StreamMessage.",
	ToolTextStreamsOut: "Streams text chunks, one JSON value of each kind, then done. Start it with a StreamMessage.",
}

// streamTools are the tools/list entries of the stream tools.
func streamTools() []mcp.Tool {
	var out []mcp.Tool
	for _, name := range []string{ToolStreamsDuplex, ToolStreamsIn, ToolStreamsOut, ToolTextStreamsOut} {
		out = append(out, mcp.Tool{Name: name, Description: streamToolDescriptions[name], InputSchema: json.RawMessage(`{"type":"object"}`)})
	}
	return out
}

// isStreamTool reports whether name is a stream tool.
func isStreamTool(name string) bool {
	_, ok := streamToolDescriptions[name]
	return ok
}

// sendStream writes one StreamMessage as a text message.
func (s *session) sendStream(m *gateway.StreamMessage) error {
	b, err := gateway.EncodeStreamMessage(m)
	if err != nil {
		return err
	}
	return s.write(websocket.MessageText, b)
}

// sendChunk writes one binary chunk frame, built in buf (reused when it
// has room); it returns the buffer for the next chunk.
func (s *session) sendChunk(buf []byte, id gateway.GUID, index int64, payload []byte) ([]byte, error) {
	buf = gateway.AppendGatewayChunk(buf[:0], id, index, payload)
	return buf, s.write(websocket.MessageBinary, buf)
}

// sendDone writes done with the summary of a stream.
func (s *session) sendDone(id gateway.GUID, chunks, bytes int64, started time.Time, sum hash.Hash) error {
	summary, err := json.Marshal(map[string]any{"totalChunks": chunks, "totalBytes": bytes,
		"duration_ms": time.Since(started).Milliseconds(), "sha256": hex.EncodeToString(sum.Sum(nil))})
	if err != nil {
		return err
	}
	return s.sendStream(&gateway.StreamMessage{Type: gateway.StreamDone, ID: id, Summary: summary})
}
