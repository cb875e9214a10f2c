package explore

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// streamCall is one call of a fake StreamFunc.
type streamCall struct{ method, upload string }

// S on a tool asks for the file to upload, enter runs the gateway stream
// of that tool with it, and the server's summary is the answer.
func TestExploreStartsAGatewayStream(t *testing.T) {
	m, r, _ := demoModel(t)
	calls := make(chan streamCall, 1)
	m.host.Stream = func(_ context.Context, method, upload string) (json.RawMessage, error) {
		calls <- streamCall{method, upload}
		return json.RawMessage(`{"totalChunks":2,"totalBytes":131072}`), nil
	}
	x := openExplorerLoaded(t, r)
	r.Press("/")
	r.TypeText("echo")
	r.Press("enter", "S")
	if x.mode != modeStreamPick || !strings.Contains(r.ScreenText(), "gateway stream of echo on a connection of its own") {
		t.Fatalf("S did not ask for the upload:\n%s", r.ScreenText())
	}
	r.TypeText("/tmp/big.bin")
	r.Press("enter")
	r.Until("the stream's answer", func() bool { return x.mode == modeOutcome })
	if c := <-calls; c.method != "echo" || c.upload != "/tmp/big.bin" {
		t.Errorf("stream ran %+v", c)
	}
	if s := r.ScreenText(); !strings.Contains(s, "stream echo · answer") || !strings.Contains(s, "131072") {
		t.Errorf("the answer:\n%s", s)
	}
}

// Without a link that streams, S does nothing; ctrl+x stops a stream in
// flight and the answer says it was cancelled.
func TestExploreGatewayStreamCancelAndAbsence(t *testing.T) {
	m, r, _ := demoModel(t)
	x := openExplorerLoaded(t, r)
	r.Press("S")
	if x.mode != modeList {
		t.Fatalf("S without a streaming link: mode %d", x.mode)
	}
	started := make(chan struct{})
	m.host.Stream = func(ctx context.Context, _, _ string) (json.RawMessage, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	r.Press("S")
	cmd := press(m, "enter")
	done := make(chan struct{})
	go func() { defer close(done); r.Run(cmd) }()
	<-started
	press(m, "ctrl+x")
	<-done
	r.Until("the cancelled answer", func() bool { return x.mode == modeOutcome })
	if !x.cancelled || !strings.Contains(r.ScreenText(), "stream analyze · cancelled") {
		t.Errorf("after ctrl+x:\n%s", r.ScreenText())
	}
}
