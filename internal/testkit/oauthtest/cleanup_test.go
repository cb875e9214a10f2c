package oauthtest

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

// deferredTB keeps the cleanups Start registers, for the test to run.
type deferredTB struct {
	testing.TB
	cleanups []func()
}

func (d *deferredTB) Cleanup(f func()) { d.cleanups = append(d.cleanups, f) }

func TestCloseCutsOpenStreams(t *testing.T) {
	d := &deferredTB{TB: t}
	s := Start(d, Options{Preregistered: &Client{ID: "app"}})
	token := accessToken(t, s, "app")["access_token"].(string)
	req, _ := http.NewRequest(http.MethodPost, s.MCPURL, strings.NewReader(initialize))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	// A standalone SSE stream, left open as a client that forgot it would.
	get, _ := http.NewRequest(http.MethodGet, s.MCPURL, nil)
	get.Header.Set("Accept", "text/event-stream")
	get.Header.Set("Authorization", "Bearer "+token)
	get.Header.Set("Mcp-Session-Id", res.Header.Get("Mcp-Session-Id"))
	stream, err := http.DefaultClient.Do(get)
	if err != nil || stream.StatusCode != http.StatusOK {
		t.Fatalf("opening the stream: %v %v", err, stream)
	}
	defer stream.Body.Close()
	done := make(chan struct{})
	go func() {
		for _, f := range d.cleanups {
			f()
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(guard.Hang):
		t.Fatalf("closing the server waited %s on an open stream", guard.Hang)
	}
}
