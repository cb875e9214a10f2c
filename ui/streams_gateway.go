package ui

import (
	"fmt"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/ui/look"
)

// What names the streams pane and each of its streams. An execution
// stream (MCP-Flow) is named by its request id and tag; a gateway stream
// (seed 003) has no request id and tags that start again on each
// connection, so it is named by its GUID, short in its row (the first
// group, as 550e8400) with its way: up (the client's), down (the
// server's) or duplex (chunks both ways on one GUID); the pane's title
// and the detail of its frames give the whole GUID.

// streamKind is what the pane's streams are; each kind names the pane its
// own way (streamKindNames).
type streamKind uint8

// Stream kinds, by the transport that carries them.
const (
	execStreams    streamKind = iota // MCP-Flow's execution streams
	gatewayStreams                   // seed 003's gateway streams
	sseStreams                       // the SSE streams of an HTTP session
)

// streamKindNames name each kind in the pane's title and in an empty
// pane.
var streamKindNames = [...]string{execStreams: "execution streams", gatewayStreams: "gateway streams", sseStreams: "SSE streams"}

// gatewayIDWidth is the width of the stream column when it holds gateway
// streams: a short GUID and the longest way, "550e8400 duplex".
const gatewayIDWidth = 15

// streamKindOf is the kind of streams a link carries.
func streamKindOf(state client.LinkState) streamKind {
	switch {
	case carriesSSE(state):
		return sseStreams
	case isGateway(state):
		return gatewayStreams
	}
	return execStreams
}

// name names what the pane lists: its rows' kind, "streams" when they
// are of several kinds, the link's kind when it lists none.
func (p *streamsPane) name() string {
	var seen [len(streamKindNames)]bool
	kinds, kind := 0, p.link
	see := func(k streamKind) {
		if !seen[k] {
			seen[k], kinds, kind = true, kinds+1, k
		}
	}
	for _, s := range p.list {
		if s.Label.ID != "" {
			see(gatewayStreams)
		} else {
			see(execStreams)
		}
	}
	if len(p.sse) > 0 {
		see(sseStreams)
	}
	if kinds > 1 {
		return "streams"
	}
	return streamKindNames[kind]
}

// listsGateway reports whether a row of the first section is a gateway
// stream.
func (p *streamsPane) listsGateway() bool {
	for _, s := range p.list {
		if s.Label.ID != "" {
			return true
		}
	}
	return false
}

// streamRef names a stream in its row: a gateway stream's short GUID and
// way, an execution stream's request id and tag.
func streamRef(s capture.StreamStats) string {
	if s.Label.ID == "" {
		return fmt.Sprintf("%d/%d", s.Key.ReqID, s.Key.Tag)
	}
	short, _, _ := strings.Cut(s.Label.ID, "-")
	if r := []rune(short); len(r) > 8 {
		short = string(r[:8])
	}
	return look.OneLine(short) + " " + streamWay(s)
}

// gatewayStream returns the gateway stream f is a chunk of, looked up
// with stream (Store.Stream); false for any other frame.
func gatewayStream(f *capture.Frame, stream func(capture.StreamKey) (capture.StreamStats, bool)) (capture.StreamStats, bool) {
	if f.Chan.Kind != capture.Stream || stream == nil {
		return capture.StreamStats{}, false
	}
	s, ok := stream(capture.StreamKeyOf(f))
	return s, ok && s.Label.ID != ""
}

// gatewayID is a gateway stream's whole GUID and its way.
func gatewayID(s capture.StreamStats) string {
	return look.OneLine(s.Label.ID) + " " + streamWay(s)
}

// streamWay says which way a gateway stream's chunks go: up (opened by
// the client), down (by the server), or duplex when chunks went both ways
// on it.
func streamWay(s capture.StreamStats) string {
	switch {
	case s.Duplex:
		return "duplex"
	case s.Label.Opener == capture.Out:
		return "up"
	}
	return "down"
}
