package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/bearer"
	"github.com/mcpscope/mcpscope/internal/app/checklist"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// refusingTransport is a transport whose Start fails: a connection that
// cannot be made, for err when set.
type refusingTransport struct {
	done chan struct{}
	err  error
}

func (r *refusingTransport) Start(context.Context, func(*jsonrpc.Message)) error {
	if r.err != nil {
		return r.err
	}
	return errors.New("connection refused")
}
func (r *refusingTransport) Send(context.Context, *jsonrpc.Message) error { return client.ErrClosed }
func (r *refusingTransport) Close() error                                 { return nil }
func (r *refusingTransport) Done() <-chan struct{}                        { return r.done }
func (r *refusingTransport) Err() error                                   { return nil }
func (r *refusingTransport) Describe() client.Traits                      { return client.Traits{} }

// doctorReport is the checklist the tests' Diagnose returns.
var doctorReport = checklist.Report{Target: "http://127.0.0.1:1/mcp", Results: []checklist.Result{
	{Step: "dns", Status: checklist.Passed, Detail: "127.0.0.1 is an address (no lookup)"},
	{Step: "tcp", Status: checklist.Failed, Detail: "nothing listens on 127.0.0.1:1", Fix: "start the server, or check the port in the URL"},
	{Step: "http", Status: checklist.Skipped, Detail: "skipped: tcp failed"},
}}

func TestFailedConnectShowsTheDoctorsChecklist(t *testing.T) {
	for _, c := range []struct {
		name string
		dial Dialer
	}{
		{"connect fails", func(capture.Sink) (Link, error) {
			tr := &refusingTransport{done: make(chan struct{})}
			return Link{Transport: tr, Session: client.New(tr, client.Options{})}, nil
		}},
		{"set-up fails", func(capture.Sink) (Link, error) { return Link{}, errors.New("no such transport") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			diagnosed := 0
			m := New(Config{Store: capture.NewStore(capture.Config{}), Target: "http://127.0.0.1:1/mcp", Dial: c.dial,
				Diagnose: func(context.Context) checklist.Report { diagnosed++; return doctorReport }})
			t.Cleanup(func() { _ = m.Close() })
			r := newRunner(t, m)
			r.Send(tea.WindowSizeMsg{Width: 120, Height: 30})
			r.Run(m.Init())
			r.Until("the checklist", func() bool { return strings.Contains(r.ScreenText(), "Connection doctor") })
			screen := r.ScreenText()
			for _, want := range []string{"✗ tcp", "nothing listens on 127.0.0.1:1", "fix: start the server"} {
				if !strings.Contains(screen, want) {
					t.Errorf("the screen lacks %q:\n%s", want, screen)
				}
			}
			if diagnosed != 1 {
				t.Errorf("diagnosed %d times", diagnosed)
			}
			r.Press("esc")
			if strings.Contains(r.ScreenText(), "Connection doctor") {
				t.Errorf("esc did not close the checklist:\n%s", r.ScreenText())
			}
		})
	}
}

// TestFailedAuthorizationIsNotDiagnosed: a connection the OAuth flow could
// not authorize keeps the flow's checklist in front, which names the step
// that failed; the doctor is not walked.
func TestFailedAuthorizationIsNotDiagnosed(t *testing.T) {
	diagnosed := 0
	refused := &bearer.Error{Resource: "http://127.0.0.1:1/mcp", Err: bearer.ErrTokenRefused}
	dial := func(capture.Sink) (Link, error) {
		tr := &refusingTransport{done: make(chan struct{}), err: fmt.Errorf("initialize: %w", refused)}
		return Link{Transport: tr, Session: client.New(tr, client.Options{})}, nil
	}
	m := New(Config{Store: capture.NewStore(capture.Config{}), Target: "http://127.0.0.1:1/mcp", Dial: dial,
		Diagnose: func(context.Context) checklist.Report { diagnosed++; return doctorReport }})
	t.Cleanup(func() { _ = m.Close() })
	r := newRunner(t, m)
	r.Send(tea.WindowSizeMsg{Width: 120, Height: 30})
	r.Send(AuthStepsMsg{Report: checklist.Report{Title: "authorization", Target: "http://127.0.0.1:1/mcp", Results: []checklist.Result{
		{Step: "authorization", Status: checklist.Failed, Detail: bearer.ErrTokenRefused.Error()}}}, Done: true, Seq: 1})
	r.Run(m.Init())
	r.Until("the connection's failure", func() bool { return strings.Contains(r.ScreenText(), "could not connect") })
	if screen := r.ScreenText(); diagnosed != 0 || strings.Contains(screen, "Connection doctor") || !strings.Contains(screen, "✗ authorization") {
		t.Fatalf("diagnosed %d times; screen:\n%s", diagnosed, screen)
	}
}
