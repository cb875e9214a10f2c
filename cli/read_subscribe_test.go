package cli

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/internal/testkit/peertest"
)

// readLines returns the resources/read results printed on stdout, one
// JSON line each.
func readLines(t *testing.T, r result) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var doc struct {
			Contents []json.RawMessage `json:"contents"`
		}
		if err := json.Unmarshal([]byte(line), &doc); err != nil || len(doc.Contents) == 0 {
			t.Fatalf("stdout line %q is not a resources/read result: %v", line, err)
		}
		out = append(out, json.RawMessage(line))
	}
	return out
}

// TestReadSubscribeConformanceListen watches the Go SDK conformance
// server's resource, updated every 3 s, in 2026-07-28: the read, then
// "updated URI" on stderr and a read on stdout per update, each on a
// line of its own; --max-time ends the watch well.
func TestReadSubscribeConformanceListen(t *testing.T) {
	t.Parallel()
	url := peertest.StartGoSDKConformanceHTTP(t, true).URL
	r := mcpscope(t, "read", "--subscribe", "--max-time", "4s", "test://watched-resource", url)
	r.mustExit(t, ExitOK)
	if got := readLines(t, r); len(got) < 2 {
		t.Fatalf("%d reads, want the first and one per update:\n%s", len(got), r.stdout)
	}
	for _, want := range []string{"subscribed to test://watched-resource with subscriptions/listen (id ", "\nupdated test://watched-resource\n", "(--max-time): "} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// TestReadSubscribeConformanceSessions: the conformance server with
// sessions (-stateless=false) speaks 2025-11-25, where the watch
// subscribes with resources/subscribe and its updates are read again the
// same way.
func TestReadSubscribeConformanceSessions(t *testing.T) {
	t.Parallel()
	url := peertest.StartGoSDKConformanceHTTP(t, false).URL
	r := mcpscope(t, "read", "--subscribe", "--max-time", "4s", "test://watched-resource", url)
	r.mustExit(t, ExitOK)
	if got := readLines(t, r); len(got) < 2 {
		t.Fatalf("%d reads, want the first and one per update:\n%s", len(got), r.stdout)
	}
	for _, want := range []string{"subscribed to test://watched-resource with resources/subscribe\n", "\nupdated test://watched-resource\n"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// TestReadSubscribeTS subscribes to a document of the TypeScript
// reference server with resources/subscribe; it sends no update unless a
// tool asks, so the watch shows the one read and ends at --max-time.
func TestReadSubscribeTS(t *testing.T) {
	t.Parallel()
	r := mcpscope(t, withTarget(tsServer(t), "read", "--subscribe", "--max-time", "6s", "demo://resource/static/document/architecture.md")...)
	r.mustExit(t, ExitOK)
	if got := readLines(t, r); len(got) != 1 {
		t.Fatalf("%d reads, want 1:\n%s", len(got), r.stdout)
	}
	if !strings.Contains(r.stderr, "subscribed to demo://resource/static/document/architecture.md with resources/subscribe\n") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// TestReadSubscribeLostConnection: the server exits during the watch
// (after its first update): the run ends with exit 3, the reads printed.
func TestReadSubscribeLostConnection(t *testing.T) {
	t.Parallel()
	server := peertest.GoSDKConformance(t)
	r := mcpscope(t, "read", "--subscribe", "--max-time", "50s", "test://watched-resource", "--",
		"sh", "-c", `(sleep 4; kill $$) & exec "$0"`, server)
	r.mustExit(t, ExitConnection)
	if got := readLines(t, r); len(got) < 2 {
		t.Fatalf("%d reads, want the first and the update's:\n%s", len(got), r.stdout)
	}
}

// TestReadSubscribeDemoNotDeclared: the demo declares no
// resources.subscribe; read --subscribe prints the read and says why it
// cannot subscribe (exit 1).
func TestReadSubscribeDemoNotDeclared(t *testing.T) {
	t.Parallel()
	r := mcpscope(t, "read", "--subscribe", "--protocol", "2025-11-25", "template://readme/go/cli", "--", builtBinary(t), "serve", "--stdio")
	r.mustExit(t, ExitRPCError)
	if !strings.Contains(r.stderr, "--subscribe: the server does not declare resources.subscribe") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// TestWatchEndInterrupted: an interrupted watch ends well once a read
// printed, and as interrupted before.
func TestWatchEndInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(ErrInterrupted)
	w := &resourceWatch{}
	if err := watchEnd(ctx, w, ErrInterrupted); !errors.Is(err, ErrInterrupted) {
		t.Errorf("before a read: %v, want ErrInterrupted", err)
	}
	w.read.Store(true)
	if err := watchEnd(ctx, w, ErrInterrupted); !errors.Is(err, errStoppedAsMeant) {
		t.Errorf("after a read: %v, want errStoppedAsMeant", err)
	}
	if err := watchEnd(context.Background(), w, errors.New("lost")); err == nil {
		t.Error("a failure that is no interruption ended well")
	}
}
