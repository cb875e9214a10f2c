package ui

import (
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proxy"
)

// Words of a proxied session's panes, where the host is the client: who
// sent a frame, in the traffic pane's direction column and in the detail.
const (
	fromHost   = "host→"
	fromServer = "←server"
	fromProxy  = "proxy"
	fromViewer = "viewer→" // a request a viewer injected
)

// proxiedDirWidth is the direction column's width on a proxied session.
const proxiedDirWidth = 7

// proxied widens the direction column for the host's and the server's
// names, taking the room from the label.
func (c columns) proxied() columns {
	grow := proxiedDirWidth - c.dir
	c.dir = proxiedDirWidth
	c.label = max(c.label-grow, 8)
	return c
}

// maxInjectedIDs bounds the injected ids an index remembers.
const maxInjectedIDs = 1024

// injectedIDs are the ids of the requests viewers injected, each with the
// Seq of its answer (0 while none came), the oldest forgotten past
// maxInjectedIDs.
type injectedIDs struct {
	answer map[string]uint64
	order  []string
}

// see reads a proxy mark: an injected request's id is remembered, and
// the answer kept from the host is tied to it.
func (in *injectedIDs) see(mk proxy.Mark) {
	if mk.ID == "" {
		return
	}
	switch mk.What {
	case proxy.WhatInjected:
		if in.answer == nil {
			in.answer = map[string]uint64{}
		}
		if len(in.order) >= maxInjectedIDs {
			delete(in.answer, in.order[0])
			in.order = in.order[1:]
		}
		id := proxy.PlainID(mk.ID)
		in.answer[id] = 0
		in.order = append(in.order, id)
	case proxy.WhatKept:
		if id := proxy.PlainID(mk.ID); mk.Seq > 0 {
			if _, ok := in.answer[id]; ok {
				in.answer[id] = mk.Seq
			}
		}
	}
}

// has reports whether f is a request a viewer injected.
func (in *injectedIDs) has(f *capture.Frame) bool {
	if f.Msg == nil || f.Msg.ID == nil || f.Dir != capture.Out || f.Msg.Method == "" {
		return false
	}
	id, ok := f.Msg.ID.Str()
	_, injected := in.answer[id]
	return ok && injected
}

// answerSeq is the Seq of the answer to the injected request id, once
// it came.
func (in *injectedIDs) answerSeq(id string) (uint64, bool) {
	seq := in.answer[id]
	return seq, seq > 0
}

// proxiedDir says who sent f on a proxied session: the host, the server,
// a viewer (an injected request), or the proxy itself for its marks.
func proxiedDir(f *capture.Frame, x *index) string {
	switch {
	case f.Chan.Kind == capture.Proxy:
		return fromProxy
	case f.Dir == capture.In:
		return fromServer
	case x != nil && x.injected.has(f):
		return fromViewer
	}
	return fromHost
}

// proxiedFrom is the detail's words for who sent f.
func proxiedFrom(f *capture.Frame, x *index) string {
	switch {
	case f.Chan.Kind == capture.Proxy:
		return "a mark of the proxy"
	case f.Dir == capture.In:
		return "from the server"
	case x != nil && x.injected.has(f):
		return "injected by a viewer, to the server"
	}
	return "from the host"
}

// setProxied shows a proxied session's store (header Proxy set: name is
// not empty), with the host as the client.
func (m *Model) setProxied(name string) {
	m.traffic.proxied = name != ""
	m.detail.proxied = name != ""
	m.detail.restyle()
}

// proxyLabel says what the mark on frame f says the proxy did (see
// proxy.Mark.Summary), in one safe line.
func proxyLabel(f *capture.Frame) string {
	mk, ok := proxy.ParseMark(f)
	if !ok {
		return "proxy mark (unreadable)"
	}
	return termtext.Line(mk.Summary())
}

// markMatches reports whether the mark on f concerns a method (or tool)
// holding text, lower case: a filter by method keeps the marks of the
// calls it shows.
func markMatches(f *capture.Frame, text string) bool {
	mk, ok := proxy.ParseMark(f)
	return ok && (strings.Contains(strings.ToLower(mk.Method), text) || strings.Contains(strings.ToLower(mk.Tool), text))
}
