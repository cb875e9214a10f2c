package doctor

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// junkWatch remembers the first stdout line that is not a JSON-RPC message.
type junkWatch struct {
	mu    sync.Mutex
	first error
	// found is closed with the first junk line.
	found chan struct{}
}

// Append implements capture.Sink.
func (j *junkWatch) Append(f *capture.Frame) uint64 {
	var line *stdio.StdoutLineError
	if errors.As(f.Err, &line) {
		j.mu.Lock()
		if j.first == nil {
			j.first = f.Err
			close(j.found)
		}
		j.mu.Unlock()
	}
	return 0
}

// seen returns the first junk line's error, or nil.
func (j *junkWatch) seen() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.first
}

// session runs the MCP handshake over the real transport and one
// tools/list.
func (w *walk) session() {
	isStdio := w.cfg.Transport == "stdio"
	if w.failed || w.cfg.Connector == nil {
		names := []string{"handshake", "tools/list"}
		if isStdio {
			names = append([]string{"start", "stdout"}, names...)
		}
		for _, n := range names {
			w.skip(n, "no connector")
		}
		return
	}
	junk := &junkWatch{found: make(chan struct{})}
	probe := &discoverWatch{}
	t, err := w.cfg.Connector.Transport(capture.Tee(junk, probe))
	if err != nil {
		w.step("handshake", func(context.Context) (string, error) {
			return "", fail(checklist.Usage, "", "building the transport: %w", err)
		})
		w.skip("tools/list", "")
		return
	}
	var watch *startWatch
	if isStdio {
		watch = newStartWatch(t)
		t = watch
	}
	s := w.cfg.Connector.Session(t)
	defer s.Close()
	connect, fix := s.Connect, "the server did not complete the handshake; mcpscope tools --trace shows the frames"
	if isStdio {
		connect, fix = w.startAndStdout(s, watch, junk), "run the command by hand to see why it stops"
	}
	w.step("handshake", func(ctx context.Context) (string, error) {
		if err := connect(ctx); err != nil {
			return "", w.classify(client.BeforeHandshake(err), fix)
		}
		if s.HandshakeFree() {
			return "none to make: " + toolFrames(w.cfg.Transport) + " have no handshake; connected", nil
		}
		if o := probe.outcome(s.Era() == client.EraModern); o != "" {
			return o + "; " + describeSession(s), nil
		}
		return describeSession(s), nil
	})
	if !w.failed && s.HandshakeFree() {
		w.skip("tools/list", toolFrames(w.cfg.Transport)+" carry tools/call only")
		return
	}
	w.step("tools/list", func(ctx context.Context) (string, error) {
		tools, err := s.ListAll(ctx, "tools/list", "tools", nil)
		if err != nil {
			return "", w.classify(err, "the server failed tools/list; run mcpscope tools --trace for the frames")
		}
		return plural.Count(len(tools), "tool", "tools"), nil
	})
}

// classify gives a session error its class and fix.
func (w *walk) classify(err error, fix string) error {
	class := checklist.Connection
	var tmo *client.TimeoutError
	switch {
	case w.cfg.Classify != nil:
		class = w.cfg.Classify(err)
	case errors.As(err, &tmo), errors.Is(err, context.DeadlineExceeded):
		class = checklist.Timeout
	}
	if class == checklist.Timeout {
		fix = timeoutFix
	}
	return &Failure{Class: class, Fix: fix, Err: err}
}

// toolFrames names the tool-frame transport tools-http or tools-ws in
// words: "tool frames over HTTP (tools-http)".
func toolFrames(transport string) string {
	over := "HTTP"
	if strings.HasSuffix(transport, "-ws") {
		over = "WebSocket"
	}
	return "tool frames over " + over + " (" + transport + ")"
}

// describeSession says what the handshake settled: version and handshake,
// server, capabilities.
func describeSession(s *client.Session) string {
	info := s.ServerInfo()
	parts := []string{client.Handshake(s.Era(), s.ProtocolVersion())}
	if info.Name != "" {
		parts = append(parts, strings.TrimSpace(info.Name+" "+info.Version))
	}
	var caps map[string]json.RawMessage
	if json.Unmarshal(s.ServerCapabilities(), &caps) == nil && len(caps) > 0 {
		names := make([]string, 0, len(caps))
		for k := range caps {
			names = append(names, k)
		}
		sort.Strings(names)
		parts = append(parts, "capabilities: "+strings.Join(names, ", "))
	}
	return strings.Join(parts, ", ")
}
