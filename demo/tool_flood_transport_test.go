package demo_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/demo/stdio"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	protoflow "github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// floodCount is how many lines the transport tests flood (a fifth under
// the race detector).
var floodCount = guard.Flood(50_000)

// lineCounter checks that flood lines arrive numbered 1, 2, … and counts them.
type lineCounter struct {
	n   int
	bad string
}

// add reads one message; it reports whether it was a numbered flood line.
func (c *lineCounter) add(m *jsonrpc.Message) bool {
	if m == nil || m.Method != mcp.MethodNotifyMessage {
		return false
	}
	var p mcp.LoggingMessageParams
	if err := json.Unmarshal(m.Params, &p); err != nil || p.Logger != demo.FloodLogger || p.Level != "info" {
		return false
	}
	if string(p.Data) != fmt.Sprint(c.n+1) && c.bad == "" {
		c.bad = fmt.Sprintf("line %d carries %s", c.n+1, p.Data)
	}
	c.n++
	return true
}

// reportOf decodes the FloodReport of a flood's result.
func reportOf(t *testing.T, res json.RawMessage) demo.FloodReport {
	t.Helper()
	var r struct {
		StructuredContent demo.FloodReport `json:"structuredContent"`
	}
	if err := json.Unmarshal(res, &r); err != nil {
		t.Fatalf("flood result %s: %v", res, err)
	}
	return r.StructuredContent
}

// Over stdio, notification_flood writes its lines on stdout, each one a
// notifications/message, all before the result, which reports the rate.
func TestNotificationFloodOverStdio(t *testing.T) {
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- stdio.Serve(context.Background(), core, inR, outW, stdio.Options{})
		_ = outW.Close()
	}()
	req, err := jsonrpc.NewRequest(jsonrpc.IntID(1), mcp.MethodToolsCall, map[string]any{"name": "misbehave",
		"arguments": map[string]any{"mode": demo.ModeNotificationFlood, "count": floodCount}})
	if err != nil {
		t.Fatal(err)
	}
	line, err := req.EncodeJSON()
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = inW.Write(append(line, '\n')) }()

	var lines lineCounter
	sc := bufio.NewScanner(outR)
	var answer *jsonrpc.Message
	for answer == nil && sc.Scan() {
		m, err := jsonrpc.DecodeMessage(sc.Bytes())
		if err != nil {
			t.Fatalf("stdout line %q: %v", sc.Text(), err)
		}
		if !lines.add(m) && m.IsResponse() {
			answer = m
		}
	}
	_ = inW.Close()
	if err := <-served; err != nil {
		t.Fatalf("serve: %v", err)
	}
	if answer == nil || answer.Error != nil {
		t.Fatalf("no result after %d lines: %+v (%v)", lines.n, answer, sc.Err())
	}
	r := reportOf(t, answer.Result)
	if lines.bad != "" || lines.n != floodCount || r.Sent != floodCount {
		t.Fatalf("%d lines (%s), report %+v", lines.n, lines.bad, r)
	}
	t.Logf("stdio: %d notifications/message at %.0f messages/s", r.Sent, r.PerSecond)
}

// Over MCP-Flow, notification_flood sends control-stream frames, every one
// captured before the result; datagram_flood sends log datagrams, which
// may be dropped on the way but never more than were sent.
func TestFloodsOverFlow(t *testing.T) {
	d := flowtest.Start(t, flow.Config{})
	store := capture.NewStore(capture.Config{})
	tr, err := webtransport.New(webtransport.Config{URL: d.URL(), CertHashes: []string{d.CertHash()}, Sink: store})
	if err != nil {
		t.Fatal(err)
	}
	s := client.New(tr, client.Options{})
	defer s.Close()
	ctx := flowtest.Context(t)
	if err := s.Connect(ctx); err != nil {
		t.Fatalf("connect: %v", err)
	}
	flood := func(mode string) demo.FloodReport {
		res, err := s.Call(ctx, mcp.MethodToolsCall, map[string]any{"name": "misbehave",
			"arguments": map[string]any{"mode": mode, "count": floodCount}})
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		return reportOf(t, res)
	}

	r := flood(demo.ModeNotificationFlood)
	var lines lineCounter
	for _, f := range store.Window(1, store.Len()) {
		if lines.add(f.Msg) && (f.Chan.Kind != capture.Control || f.Dir != capture.In) {
			t.Fatalf("a flood line came as %s %v", f.Chan, f.Dir)
		}
	}
	if lines.bad != "" || lines.n != floodCount || r.Sent != floodCount {
		t.Fatalf("%d lines captured (%s), report %+v", lines.n, lines.bad, r)
	}
	t.Logf("MCP-Flow control stream: %d notifications/message at %.0f messages/s", r.Sent, r.PerSecond)

	from := store.Stats().LastSeq + 1
	r = flood(demo.ModeDatagramFlood)
	got := 0
	for _, f := range store.Window(from, store.Len()) {
		if f.Chan.Kind == capture.Datagram && f.Chan.Ch == uint8(protoflow.ChannelLog) {
			got++
		}
	}
	if r.Sent != floodCount || got == 0 || got > floodCount {
		t.Fatalf("%d log datagrams captured, report %+v", got, r)
	}
	t.Logf("MCP-Flow datagrams: %d sent at %.0f messages/s, %d captured", r.Sent, r.PerSecond, got)
}
