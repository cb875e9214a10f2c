package ui

import (
	"context"
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// startRecorder is a transport whose Start reports its deadline and fails.
type startRecorder struct{ deadlines chan time.Time }

func (r startRecorder) Start(ctx context.Context, _ func(*jsonrpc.Message)) error {
	d, ok := ctx.Deadline()
	if !ok {
		d = time.Now().Add(time.Hour) // the start limit alone bounds it
	}
	r.deadlines <- d
	return errors.New("refused")
}
func (startRecorder) Send(context.Context, *jsonrpc.Message) error { return errors.New("refused") }
func (startRecorder) Close() error                                 { return nil }
func (startRecorder) Done() <-chan struct{}                        { return closedDone }
func (startRecorder) Err() error                                   { return nil }
func (startRecorder) Describe() client.Traits                      { return client.Traits{} }

var closedDone = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// The TUI's connect is bounded by the session's own limits, as the CLI's
// is, so that a start limit of --timeout words its failure: no shorter
// deadline of the TUI's own comes first.
func TestConnectIsBoundedByTheSessionsLimits(t *testing.T) {
	rec := startRecorder{deadlines: make(chan time.Time, 1)}
	m := New(Config{Store: capture.NewStore(capture.Config{}), Dial: func(capture.Sink) (Link, error) {
		// The hour is the value under test, not a wait: Start fails at once.
		return Link{Transport: rec, Session: client.New(rec, client.Options{Timeout: time.Hour, HardTimeout: time.Hour})}, nil
	}})
	t.Cleanup(func() { _ = m.Close() })
	for _, cmd := range m.dial()().(tea.BatchMsg) {
		if cmd != nil {
			cmd()
		}
	}
	d := <-rec.deadlines
	if left := time.Until(d); left < 30*time.Minute {
		t.Errorf("the transport's start had %s left, want the session's hour", left)
	}
}
