// Package flowtest runs mcpscope's demo server over MCP-Flow for end-to-end
// tests and checks what arrives: the demo's generated read_file data
// recomputed from its published formula (not from the demo's own
// generator), a stream sink that verifies and hashes every byte without
// holding the payload, and a sampler of the heap's peak.
package flowtest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// Demo is a demo MCP-Flow server serving for one test.
type Demo struct {
	*flow.Server
	cancel context.CancelFunc
	served chan error
	once   sync.Once
	err    error
}

// Start builds the demo server of cfg, binds it (127.0.0.1:0 when
// cfg.Listen is empty) and serves until Stop or the end of the test.
func Start(t testing.TB, cfg flow.Config) *Demo {
	t.Helper()
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	srv, err := flow.New(cfg)
	if err != nil {
		t.Fatalf("building the demo server: %v", err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatalf("binding the demo server: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &Demo{Server: srv, cancel: cancel, served: make(chan error, 1)}
	go func() { d.served <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		if err := d.Stop(); err != nil {
			t.Errorf("stopping the demo server: %v", err)
		}
	})
	return d
}

// Stop shuts the server down as a signal would ($/shutdown to every
// session, drain, close) and waits for Serve to return. It returns Serve's
// error; later calls return the same.
func (d *Demo) Stop() error {
	d.once.Do(func() {
		d.cancel()
		select {
		case d.err = <-d.served:
		case <-time.After(guard.Hang):
			d.err = fmt.Errorf("the demo server did not stop within %s", guard.Hang)
		}
	})
	return d.err
}

// Target is the server's URL in the client's wt:// shorthand.
func (d *Demo) Target() string { return "wt://" + strings.TrimPrefix(d.URL(), "https://") }

// Context returns a context that ends with the test or at guard.Hang.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	t.Cleanup(cancel)
	return ctx
}

// Eventually polls cond until it holds; it fails the test at guard.Hang.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(guard.Hang)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never happened within %s: %s", guard.Hang, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
