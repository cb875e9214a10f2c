package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/doctor"
	"github.com/mcpscope/mcpscope/proto"
)

// refusingTransport is a transport whose Start fails: a connection that
// cannot be made.
type refusingTransport struct{ done chan struct{} }

func (r *refusingTransport) Start(context.Context, func(*proto.Message)) error {
	return errors.New("connection refused")
}
func (r *refusingTransport) Send(context.Context, *proto.Message) error { return client.ErrClosed }
func (r *refusingTransport) Close() error                               { return nil }
func (r *refusingTransport) Done() <-chan struct{}                      { return r.done }
func (r *refusingTransport) Err() error                                 { return nil }

// doctorReport is the checklist the tests' Diagnose returns.
var doctorReport = doctor.Report{Target: "http://127.0.0.1:1/mcp", Results: []doctor.Result{
	{Step: "dns", Status: doctor.Passed, Detail: "127.0.0.1 is an address (no lookup)"},
	{Step: "tcp", Status: doctor.Failed, Detail: "nothing listens on 127.0.0.1:1", Fix: "start the server, or check the port in the URL"},
	{Step: "http", Status: doctor.Skipped, Detail: "skipped: tcp failed"},
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
				Diagnose: func(context.Context) doctor.Report { diagnosed++; return doctorReport }})
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
