package ui

import (
	"context"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/recordings"
	"github.com/mcpscope/mcpscope/ui/explore"
	"github.com/mcpscope/mcpscope/ui/question"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Link is one connection the UI drives: the transport that moves the bytes
// and the session engine over it. A Dialer returns it unconnected; the UI
// connects it, and closes it on reconnect and on quit.
type Link struct {
	Transport client.Transport
	Session   *client.Session
	// Stream, when set, runs gateway streams beside the session (the
	// explorer's stream key).
	Stream screen.StreamFunc
}

// Dialer builds a fresh, unconnected Link whose transport reports every
// frame to sink. The UI calls it once at start and again on every
// reconnect; the frames of every connection go to the same store.
type Dialer func(sink capture.Sink) (Link, error)

// Request is a request the UI sends with one key or right after connecting.
type Request struct {
	Method string
	Params any
}

// Config configures a Model.
type Config struct {
	// Store receives every frame and is what the panes show. Required.
	// At the defaults (capture.Config{}: 1,000,000 frames, 256 MiB that
	// count each frame's metadata) a flooded TUI's live heap stays within
	// the store's MemoryBound plus the index's own bound, about 345 MiB
	// (BenchmarkTUIHeapAtDefaultCaps): its ResidentLimit, which
	// LimitResident makes the runtime's soft memory limit so that what is
	// resident levels off there too.
	Store *capture.Store
	// Dial builds the connection. Without it the UI only shows the store.
	Dial Dialer
	// Target names what the UI connects to, for the tab bar and the title.
	Target string
	// OnConnect are sent after every successful connect (the demo lists
	// the tools so that the first screen is not empty).
	OnConnect []Request
	// LogLevel, when set (--log-level), asks the server for its log
	// messages at that level and above after every connect (log_level.go).
	LogLevel string
	// Demo says the target is mcpscope's own demo server (set by the demo
	// command): only then do R, a and o send its read_file, analyze and
	// tone, which another server's tools of the same name would take as
	// a call the user never picked.
	Demo bool
	// KnownTools, when set, are tools known beside a server that has no
	// tools/list (tools-http, tools-ws): the explorer offers them.
	KnownTools *explore.KnownTools
	// Questions, when set, is the bridge the session's Handler asks the
	// server's questions through (elicitation, sampling) and the roots the
	// roots editor changes. Without it the roots editor is off (the
	// --answers file answers instead).
	Questions *question.Bridge
	// Notice is a standing warning shown in the status bar, such as the
	// one of --insecure.
	Notice string
	// Tap, when set, receives everything the Store receives, after it
	// (so each frame's Seq is set), with the same connection names: the
	// session's recording (a recordings.Writer). When it also has a Link
	// method, it is told the transport, era and protocol version of each
	// connection once connected.
	Tap capture.Tap
	// Recording is the path of the file Tap writes, or "".
	Recording string
	// RecordHeader and RecordOptions are how the save key writes the
	// store as a recording when there is none (the target, transport and
	// version; redaction and the stream cap of the command line).
	RecordHeader  recordings.Header
	RecordOptions recordings.Options
	// Diagnose, when set, walks the layers to the target (mcpscope
	// doctor) after a connection could not be made; its checklist opens
	// over the panes instead of a bare error.
	Diagnose func(ctx context.Context) checklist.Report
}

// Requests sent by the quick-action keys.
var (
	// ListTools is tools/list (key t).
	ListTools = Request{Method: "tools/list"}
	// ReadFile asks the demo's read_file for 1 MiB of generated data, which
	// arrives on an execution stream over MCP-Flow (key R).
	ReadFile = Request{Method: "tools/call", Params: map[string]any{
		"name": "read_file", "arguments": map[string]any{"size": 1 << 20},
	}}
	// Analyze starts the demo's analyze, a long task with progress and log
	// datagrams that honours cancellation (key a).
	Analyze = Request{Method: "tools/call", Params: map[string]any{
		"name": "analyze", "arguments": map[string]any{"steps": 50, "interval_ms": 200},
	}}
	// Tone asks the demo's tone for two seconds of a 440 Hz sine, which
	// arrives as audio datagrams over MCP-Flow (key o).
	Tone = Request{Method: "tools/call", Params: map[string]any{
		"name": "tone", "arguments": map[string]any{"freq_hz": 440, "duration_ms": 2000},
	}}
)
