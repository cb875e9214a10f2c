package live

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/internal/testkit/socktest"
	"github.com/mcpscope/mcpscope/recordings"
)

// TestLiveStuckViewerDoesNotSlowTheProxy relays 100k messages while a
// viewer reads nothing: Relay completes, and the viewer, once it reads,
// is told how many frames it missed and gets the newest.
func TestLiveStuckViewerDoesNotSlowTheProxy(t *testing.T) {
	s := openSession(t, "stuck", capture.Config{MaxFrames: 1000}, time.Time{})
	h := serve(t, s)
	conn, err := net.Dial("unix", h.Socket())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	eventually(t, "the viewer to join", nil, func() bool { return h.Viewers() == 1 })
	c := &carrier{}
	const n = 100_000
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 1; i <= n; i++ {
			relay(t, s, c, capture.Out, call(i))
		}
	}()
	select {
	case <-done:
	case <-time.After(guard.Run):
		t.Fatalf("the relay of %d messages did not complete while a viewer was stuck", n)
	}
	if passed, _ := c.counts(); passed != n {
		t.Fatalf("%d of %d messages went on", passed, n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	v, err := attach(ctx, conn, capture.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	sub, unsub := v.Store().Subscribe()
	defer unsub()
	eventually(t, "the last message", sub, func() bool {
		got := messages(v.Store())
		return len(got) > 0 && got[len(got)-1] == call(n)
	})
	got := int64(len(messages(v.Store())))
	if v.Missed() <= 0 || v.Missed()+got != n {
		t.Errorf("the viewer got %d messages and was told it missed %d; %d were relayed", got, v.Missed(), n)
	}
}

// Close ends a viewer that stopped reading within its grace: the proxy's
// shutdown never waits on a viewer.
func TestLiveCloseDoesNotWaitForAStuckViewer(t *testing.T) {
	s := openSession(t, "shutdown", capture.Config{}, time.Time{})
	h := serve(t, s)
	conn, err := net.Dial("unix", h.Socket())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	eventually(t, "the viewer to join", nil, func() bool { return h.Viewers() == 1 })
	big := strings.Repeat("x", 16<<10)
	c := &carrier{}
	for i := range 2000 { // 32 MiB: more than the viewer's buffers hold
		relay(t, s, c, capture.Out, fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"n":%d,"data":%q}}`, i, big))
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		h.Close()
	}()
	select {
	case <-closed:
	case <-time.After(guard.Hang):
		t.Fatal("Close waited for a viewer that reads nothing")
	}
	if h.Viewers() != 0 {
		t.Errorf("%d viewers left after Close", h.Viewers())
	}
}

// A proxy that dies mid-session ends its viewers' streams with an error
// that says so; what they got stays in their stores.
func TestLiveViewerOfAProxyThatDies(t *testing.T) {
	dir := socktest.ShortDir(t)
	ln, err := net.Listen("unix", filepath.Join(dir, "dies.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		var b bytes.Buffer
		w, _ := recordings.NewWriter(&b, recordings.Header{Proxy: "dies", Transport: "stdio"}, recordings.Options{})
		w.Append(&capture.Frame{Seq: 1, Time: time.Now(), Dir: capture.Out, Chan: capture.Channel{Kind: capture.Control}, Raw: []byte(call(1))})
		_ = w.Close()
		lines := bytes.SplitAfter(b.Bytes(), []byte("\n"))
		for _, l := range lines[:2] { // the header and the frame, not the end line
			_, _ = c.Write(l)
		}
		_, _ = c.Write([]byte(`{"k":"frame","t":1,"dir":"in","ch":"cont`)) // torn: the proxy died writing
		_ = c.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	v, err := Dial(ctx, filepath.Join(dir, "dies.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	select {
	case <-v.Done():
	case <-time.After(guard.Hang):
		t.Fatal("the viewer did not notice the proxy died")
	}
	if v.Err() == nil || !strings.Contains(v.Err().Error(), "went away") {
		t.Errorf("a proxy that died: %v", v.Err())
	}
	if got := messages(v.Store()); len(got) != 1 || got[0] != call(1) {
		t.Errorf("the viewer kept %q", got)
	}
}
