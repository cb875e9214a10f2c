package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/ui/explore"
	"github.com/mcpscope/mcpscope/ui/look"
)

// Bounds of the index: it reads at most maxScan new frames per refresh and
// remembers a bounded number of calls, links and stderr lines, so that its
// memory and its work per refresh do not grow with the capture.
const (
	maxScan         = 1 << 16
	scanBatch       = 4096
	maxCalls        = 8192
	maxLinksPerCall = 512
	maxStderrLines  = 5000
	maxStderrLine   = 2048
)

// indexSteadyBound is about the most memory the index holds beside a Seq
// per filter match (which the store counts in capture.SlotSize), but for
// what only comes and goes: maxCalls calls with their links, method and
// key, their stream MIME types, the stderr lines, the datagram board and
// the text of the outputSchemas of the tools listed.
const indexSteadyBound = maxCalls*(maxLinksPerCall*8+512) + maxStderrLines*(maxStderrLine+32) + 4<<20 +
	maxToolSchemaBytes

// indexMemoryBound is the most memory the index holds: its steady share
// and what comes and goes, the compiles of large outputSchemas, kept for
// the listing once a judgement needs them (tool_results.go), and the
// results waiting for a verdict, which a store may have let go
// (tool_verdicts.go).
const indexMemoryBound = indexSteadyBound + maxToolSchemaBytes*compiledSchemaRatio + maxVerdictBytes

// callInfo is what the index knows of one call.
type callInfo struct {
	sent   time.Time   // when the request was captured; zero when not seen
	method string      // the request's method, with the tool name for tools/call
	seqs   []uint64    // frames of the call in Seq order: request, streams, datagrams, response
	round  int         // MRTR round of the logical call (rounds.go); 0 when not part of one
	group  *roundGroup // the rounds of the logical call, or nil
	// cancelSeq is the Seq of the first cancellation of the call
	// ($/cancel or notifications/cancelled, from either side) and
	// cancelAt its time; 0 and zero when none was seen.
	cancelSeq uint64
	cancelAt  time.Time
	ended     time.Time // when the answer came; zero while none did
	// failure is set when the call is a tools/call answered with a
	// result that is nonetheless a failure (tool_results.go).
	failure *client.ToolFailure
	// checking is the Seq of the call's result while its verdict is
	// judged in a tea.Cmd (tool_verdicts.go); 0 when none waits.
	checking uint64
	// asksDeprecated says the call's result asks for a feature the
	// session's version deprecates (deprecated.go).
	asksDeprecated bool
}

// index reads the store's new frames once each, in order, and keeps what
// the panes need beyond a window: the frames of each call (to link them
// and time responses), the MIME type of each stream, the stderr lines, the
// datagram board, the progress board and the matches of the filter.
type index struct {
	next    uint64 // Seq of the next frame to read
	end     uint64 // Seq of the last frame of the pass being read (startPass)
	skipped uint64 // frames never read because a refresh fell too far behind
	// lag, when set (a replay), reads every frame, maxScan a refresh,
	// rather than skipping the oldest unread: a recording is read whole.
	lag      bool
	calls    map[callKey]*callInfo
	order    []callKey // calls oldest first, to forget the oldest
	mimes    map[capture.StreamKey]string
	stderr   lineRing
	board    datagramBoard
	progress progressBoard
	cancels  int // cancellations read, so that a detail shown before one is redrawn
	filter   *filterView
	rounds   roundBook
	changed  explore.ListChanges // lists a server said changed (explore_changed.go)
	tools    toolSchemas         // the outputSchemas of the tools listed (tool_results.go)
	reports  structuredReports   // the detail pane's structured reports (structured_cache.go)
	version  string              // the session's protocol version, as the traffic names it (deprecated.go)
	// handshakes are the versions initialize negotiated, by connection
	// (probe_row.go).
	handshakes map[string]string
	// probeExchanges are the HTTP exchanges that carried a probe
	// (probe_row.go).
	probeExchanges map[string]callKey
	// injected are the ids of requests a viewer injected into a proxied
	// session, read from the proxy's marks (proxy_rows.go).
	injected injectedIDs
	// views are the books of the Tasks, Subscriptions, Log and Findings
	// views (views.go).
	views viewBooks
	// verdicts are the judgements of large tools/call results under way
	// (tool_verdicts.go).
	verdicts verdictQueue
}

// newIndex returns an empty index.
func newIndex() *index {
	x := &index{
		next:     1,
		calls:    make(map[callKey]*callInfo),
		mimes:    make(map[capture.StreamKey]string),
		stderr:   lineRing{max: maxStderrLines},
		board:    newDatagramBoard(),
		views:    newViewBooks(),
		verdicts: verdictQueue{gen: indexGens.Add(1)},
	}
	x.reports.queue = &x.verdicts
	return x
}

// startPass sets the end of a pass over the frames appended since the
// last one: at most maxScan frames, the oldest unread skipped beyond that
// (or, with lag, left for the next pass). readSlice then reads the pass in
// slices, so that the program answers keys between two of them.
func (x *index) startPass(st *capture.Store) {
	s := st.Stats()
	x.end = s.LastSeq
	if s.LastSeq < x.next {
		return
	}
	x.skipTo(s.FirstSeq)
	if behind := s.LastSeq - x.next + 1; behind > maxScan {
		if x.lag {
			x.end = x.next + maxScan - 1
		} else {
			x.skipTo(s.LastSeq - maxScan + 1)
		}
	}
}

// skipTo counts the frames before seq not read yet as skipped.
func (x *index) skipTo(seq uint64) {
	if x.next >= seq {
		return
	}
	x.skipped += seq - x.next
	x.next = seq
	x.views.findings.Missed() // an answer to a request skipped is no error
}

// readSlice reads the pass on, at most frames frames and, when bytes > 0,
// about that many bytes of them (a frame is never cut); it reports whether
// the pass is read whole. Frames the store let go since are counted as
// skipped.
func (x *index) readSlice(st *capture.Store, frames, bytes int) (done bool) {
	x.skipTo(st.Stats().FirstSeq)
	size := 0
	for x.next <= x.end && frames > 0 && (bytes <= 0 || size < bytes) {
		batch := st.Window(x.next, int(min(uint64(min(frames, scanBatch)), x.end-x.next+1)))
		if len(batch) == 0 {
			break
		}
		for _, f := range batch {
			x.skipTo(f.Seq) // frames the store let go between two reads
			x.add(f)
			x.next = f.Seq + 1
			frames--
			size += len(f.Raw)
			if bytes > 0 && size >= bytes {
				break
			}
		}
	}
	return x.next > x.end
}

// add reads one frame.
func (x *index) add(f *capture.Frame) {
	x.progress.tick(f.Time)
	x.noteVersion(f)
	if f.Chan.Kind == capture.Proxy {
		if m, ok := proxy.ParseMark(f); ok {
			x.injected.see(m)
			if m.What == proxy.WhatMissed || m.What == proxy.WhatJoined {
				x.views.findings.Missed() // a viewer that fell behind the proxy, or joined late
			}
		}
	}
	if k, ok := callOf(f); ok {
		c := x.call(k)
		if len(c.seqs) < maxLinksPerCall {
			c.seqs = append(c.seqs, f.Seq)
		}
		if f.Msg != nil && f.Msg.Kind() == jsonrpc.KindRequest {
			c.sent, c.method = f.Time, callLabel(f.Msg)
			x.noteProbeExchange(f, k)
		} else if f.Msg != nil && f.Msg.IsResponse() {
			x.noteAnswer(f, k, c)
		}
		x.noteRound(f, k, c)
		if f.Chan.Kind == capture.Datagram {
			if r, ok := x.board.add(f); ok {
				x.progress.report(k, jsonrpc.IntID(int64(f.Chan.ReqID)), c, r, f.Time)
			}
		}
	} else if k, ok := notifiedCall(f); ok {
		x.noteNotified(f, k)
	} else if f.Chan.Kind == capture.Datagram {
		x.board.add(f) // a datagram whose header did not decode
	}
	x.changed.Note(f)
	x.views.note(f)
	x.deferFindings()
	if f.Chan.Kind == capture.Stderr {
		x.stderr.push(string(bodyOf(f)))
	}
	if x.filter != nil {
		x.filter.offer(f, x)
	}
}

// noteAnswer reads the response f to call k: it ends the call's
// progress bar, and a result may name execution streams.
func (x *index) noteAnswer(f *capture.Frame, k callKey, c *callInfo) {
	if c.ended.IsZero() {
		c.ended = f.Time
	}
	x.progress.answer(k, f.Msg.Kind() == jsonrpc.KindError, f.Time)
	x.noteToolResult(f, k, c)
	x.noteDeprecatedAsks(f, c)
	x.noteHandshake(f, k, c)
	if f.Msg.Result != nil {
		x.noteStreamRefs(f, k)
	}
}

// noteNotified reads a notification that names call k, linked to it: a
// cancellation marks the call (and its bar) cancelled, a progress report
// moves its bar; a notification of its subscription is only linked.
func (x *index) noteNotified(f *capture.Frame, k callKey) {
	c, known := x.calls[k]
	if known && len(c.seqs) < maxLinksPerCall {
		c.seqs = append(c.seqs, f.Seq)
	}
	switch id, how, _ := notifiedID(f); how {
	case noticeSubscription:
		return
	case noticeProgress:
		if r, ok := notifiedProgress(f); ok {
			x.progress.report(k, id, c, r, f.Time)
		}
		return
	}
	if known && c.cancelSeq == 0 {
		c.cancelSeq, c.cancelAt = f.Seq, f.Time
		x.cancels++
	}
	x.progress.cancel(k, f.Time)
}

// call returns the record of k, creating it and forgetting the oldest call
// past maxCalls.
func (x *index) call(k callKey) *callInfo {
	if c, ok := x.calls[k]; ok {
		return c
	}
	c := &callInfo{}
	x.calls[k] = c
	x.order = append(x.order, k)
	if len(x.order) > maxCalls {
		delete(x.calls, x.order[0])
		x.order = x.order[1:]
	}
	return c
}

// lookup returns what is known of a frame's call (for a cancellation or
// progress, of the call it names).
func (x *index) lookup(f *capture.Frame) (*callInfo, bool) {
	k, ok := callOf(f)
	if !ok {
		if k, ok = notifiedCall(f); !ok {
			return x.probeOfExchange(f)
		}
	}
	c, ok := x.calls[k]
	return c, ok
}

// latency returns the time from a response's request to the response.
func (x *index) latency(f *capture.Frame) (time.Duration, bool) {
	if f.Msg == nil || !f.Msg.IsResponse() {
		return 0, false
	}
	c, ok := x.lookup(f)
	if !ok || c.sent.IsZero() {
		return 0, false
	}
	return f.Time.Sub(c.sent), true
}

// noteStreamRefs remembers the MIME type of every ref/stream item of a
// tools/call result.
func (x *index) noteStreamRefs(f *capture.Frame, k callKey) {
	if !bytes.Contains(f.Msg.Result, []byte(flow.ContentStreamRef)) {
		return
	}
	n, ok := flow.FlowRequestID(*f.Msg.ID)
	if !ok {
		return
	}
	var r struct {
		Content []flow.StreamRef `json:"content"`
	}
	if json.Unmarshal(f.Msg.Result, &r) != nil {
		return
	}
	for _, it := range r.Content {
		if it.Type == flow.ContentStreamRef && it.MimeType != "" {
			if len(x.mimes) >= maxCalls {
				clear(x.mimes)
			}
			x.mimes[capture.StreamKey{Conn: k.conn, ReqID: n, Tag: it.StreamTag}] = it.MimeType
		}
	}
}

// notice is how a notification names a request.
type notice uint8

const (
	noticeCancel       notice = iota + 1 // it cancels the request
	noticeProgress                       // it reports the request's progress
	noticeSubscription                   // the request's subscriptions/listen stream carries it
)

// notifiedID returns the request id a notification names, and how: the
// requestId of a cancellation ($/cancel on MCP-Flow, notifications/cancelled
// on MCP), the progressToken of notifications/progress, which is the
// request's own id on every request mcpscope asks progress for
// (client.WithProgress), or the subscription id _meta tags any other
// notification with on a subscriptions/listen stream (2026-07-28).
func notifiedID(f *capture.Frame) (id jsonrpc.ID, how notice, ok bool) {
	m := f.Msg
	if f.Chan.Kind != capture.Control || m == nil || m.Kind() != jsonrpc.KindNotification {
		return jsonrpc.ID{}, 0, false
	}
	switch m.Method {
	case flow.MethodFlowCancel, mcp.MethodNotifyCancelled:
		how = noticeCancel
	case mcp.MethodNotifyProgress:
		how = noticeProgress
	default:
		id, ok := mcp.SubscriptionOf(m.Params)
		return id, noticeSubscription, ok
	}
	var p struct {
		RequestID     *jsonrpc.ID `json:"requestId"`
		ProgressToken *jsonrpc.ID `json:"progressToken"`
	}
	if json.Unmarshal(m.Params, &p) != nil {
		return jsonrpc.ID{}, 0, false
	}
	named := p.RequestID
	if how == noticeProgress {
		named = p.ProgressToken
	}
	if named == nil {
		return jsonrpc.ID{}, 0, false
	}
	return *named, how, true
}

// cancelledID returns the request id a cancellation names.
func cancelledID(f *capture.Frame) (jsonrpc.ID, bool) {
	id, how, ok := notifiedID(f)
	return id, ok && how == noticeCancel
}

// progressID returns the request id a progress notification names.
func progressID(f *capture.Frame) (jsonrpc.ID, bool) {
	id, how, ok := notifiedID(f)
	return id, ok && how == noticeProgress
}

// notifiedCall returns the call a notification names (notifiedID). A
// cancellation travels the way of the request it names; progress and a
// subscription's notifications travel the other way, as the response does.
func notifiedCall(f *capture.Frame) (callKey, bool) {
	id, how, ok := notifiedID(f)
	if !ok {
		return callKey{}, false
	}
	fromServer := f.Dir == capture.In
	if how != noticeCancel {
		fromServer = !fromServer
	}
	return callKey{conn: sessionConn(f.Conn), fromServer: fromServer, id: id.Key()}, true
}

// callLabel names a request: its method, and for tools/call the tool.
func callLabel(m *jsonrpc.Message) string {
	if m.Method != "tools/call" || len(m.Params) == 0 {
		return m.Method
	}
	var p struct {
		Name string `json:"name"`
	}
	if json.Unmarshal(m.Params, &p) != nil || p.Name == "" {
		return m.Method
	}
	return m.Method + " " + p.Name
}

// lineRing keeps the newest max lines.
type lineRing struct {
	max   int
	lines []string
	start int // index of the oldest line once full
	total uint64
}

// push adds a line, cut to maxStderrLine bytes and to one line.
func (r *lineRing) push(s string) {
	if len(s) > maxStderrLine {
		s = s[:maxStderrLine]
	}
	s = look.OneLine(look.ExpandTabs(termtext.Block(strings.TrimRight(s, "\r\n"))))
	r.total++
	if len(r.lines) < r.max {
		r.lines = append(r.lines, s)
		return
	}
	r.lines[r.start] = s
	r.start = (r.start + 1) % r.max
}

// len is how many lines are kept.
func (r *lineRing) len() int { return len(r.lines) }

// at returns the i-th kept line, oldest first.
func (r *lineRing) at(i int) string { return r.lines[(r.start+i)%len(r.lines)] }

// behind reports whether frames the store holds are still unread.
func (x *index) behind(st *capture.Store) bool { return st.Stats().LastSeq >= x.next }
