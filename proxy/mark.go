package proxy

import (
	"encoding/json"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// Mark is what the proxy did to the traffic, as the body of a frame on the
// capture.Proxy channel: in the traffic pane, the recording and every
// export, in order with the messages it concerns.
type Mark struct {
	// What happened: one of the What* constants.
	What string `json:"proxy"`
	// Seq is the store Seq of the message the mark concerns, when there
	// is one (0: none named): for WhatInjected and WhatEdited the frame
	// of what went, captured before the mark (frames of other
	// connections may come between the two: only Seq ties them); for
	// the others the message as it came.
	Seq uint64 `json:"seq,omitempty"`
	// Held numbers a paused message, for Session.Decide.
	Held uint64 `json:"held,omitempty"`
	// ID is the JSON-RPC id concerned (an injected request's own id), as
	// JSON writes it: 7 or "abc".
	ID string `json:"id,omitempty"`
	// Method and Tool of the message concerned (of its request, for an
	// answer).
	Method string `json:"method,omitempty"`
	Tool   string `json:"tool,omitempty"`
	// Rule is the filter or fault that matched, as written.
	Rule string `json:"rule,omitempty"`
	// Note says the rest in words.
	Note string `json:"note,omitempty"`
}

// What a Mark says happened.
const (
	WhatPaused    = "paused"    // a message matched a pause filter and waits for a viewer
	WhatForwarded = "forwarded" // a paused message went on unchanged
	WhatEdited    = "edited"    // a paused message went on changed; Seq is the frame of what went
	WhatDropped   = "dropped"   // a message was not carried on (a viewer, a fault, or its connection ended while paused)
	WhatReleased  = "released"  // a paused message went on unchanged because no viewer is left
	WhatInjected  = "injected"  // a viewer's request went to the server; Seq is its frame
	WhatKept      = "kept"      // an answer to an injected request, kept from the host
	WhatFault     = "fault"     // a fault rule acted (Note says how)
	WhatMissed    = "missed"    // a slow viewer skipped frames (Note says how many)
	WhatJoined    = "joined"    // a viewer joined after the session let its first frames go (Note says how many)
	WhatRecording = "recording" // the recording stopped (Note says why); the session goes on
	WhatEnded     = "ended"     // the session ended (Note says how)
)

// ParseMark reads the Mark of a frame on the capture.Proxy channel.
func ParseMark(f *capture.Frame) (Mark, bool) {
	var m Mark
	if f == nil || f.Chan.Kind != capture.Proxy || json.Unmarshal(f.Raw, &m) != nil || m.What == "" {
		return Mark{}, false
	}
	return m, true
}

// Frame returns m as a frame going dir on conn.
func (m Mark) Frame(dir capture.Dir, conn string) *capture.Frame {
	b, _ := json.Marshal(m)
	return &capture.Frame{Dir: dir, Conn: conn, Chan: capture.Channel{Kind: capture.Proxy}, Raw: b, Size: len(b), Enc: proto.EncJSON}
}
