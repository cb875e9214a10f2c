package stdiorelay

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proxy"
)

// openSession opens an unrecorded session with the store's bounds cfg.
func openSession(t *testing.T, cfg capture.Config) *proxy.Session {
	t.Helper()
	s, err := proxy.Open(proxy.Options{Name: "test", NoRecord: true, Capture: cfg, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close(nil) })
	return s
}

// run relays in to the server argv and returns what reached the host's
// stdout and stderr, and how the server ended.
func run(t *testing.T, s *proxy.Session, cfg Config, in io.Reader) (out, errOut string, exit Exit) {
	t.Helper()
	var o, e bytes.Buffer
	cfg.HostIn, cfg.HostOut, cfg.HostErr = in, &o, &e
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	exit, err := Run(ctx, s, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatalf("the relay was still running after %s", guard.Run)
	}
	return o.String(), e.String(), exit
}

// frames returns the frames of s's store on channel kind.
func frames(s *proxy.Session, kind capture.ChannelKind) []*capture.Frame {
	var out []*capture.Frame
	for _, f := range s.Store().Last(s.Store().Len()) {
		if f.Chan.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

// TestProxyStdioBytesUnchanged: every byte the host writes reaches the
// server and comes back as it went (cat), whatever the lines hold: a line
// past MaxLine, CR LF, garbage, a last line without LF. The long line is
// captured cut with a LineTooLongError, the garbage with an error.
func TestProxyStdioBytesUnchanged(t *testing.T) {
	long := `{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("a", 100_000) + `"}` + "\n"
	in := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + long + "not json\r\n" + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	s := openSession(t, capture.Config{})
	out, _, exit := run(t, s, Config{Argv: []string{"cat"}, MaxLine: 1024}, strings.NewReader(in))
	if out != in {
		t.Fatalf("the host got %d bytes, want the %d it sent", len(out), len(in))
	}
	if exit.Status != 0 {
		t.Errorf("exit %+v", exit)
	}
	var longs, garbage int
	for _, f := range frames(s, capture.Control) {
		var tl *LineTooLongError
		switch {
		case errors.As(f.Err, &tl):
			longs++
			if tl.Size != int64(len(long)) || f.Size != len(long) || len(f.Raw) != keptHead || tl.Kept != keptHead || !strings.HasPrefix(long, string(f.Raw)) {
				t.Errorf("long line frame: %v, Size %d, %d bytes kept", tl, f.Size, len(f.Raw))
			}
		case f.Err != nil && bytes.HasPrefix(f.Raw, []byte("not json")):
			garbage++
		}
	}
	if longs != 2 || garbage != 2 {
		t.Errorf("%d long-line frames (want 2: one each way) and %d garbage frames (want 2)", longs, garbage)
	}
}

// TestProxyStdioExitAndStderr: the server's stderr reaches the host's
// unchanged and is captured line by line; its exit status is returned.
func TestProxyStdioExitAndStderr(t *testing.T) {
	s := openSession(t, capture.Config{})
	_, errOut, exit := run(t, s, Config{Argv: []string{"sh", "-c", `printf 'one\ntwo' >&2; exit 3`}}, strings.NewReader(""))
	if errOut != "one\ntwo" {
		t.Errorf("host's stderr %q", errOut)
	}
	if exit.Status != 3 || exit.Signal != "" {
		t.Errorf("exit %+v, want status 3", exit)
	}
	fs := frames(s, capture.Stderr)
	if len(fs) != 2 || string(fs[0].Raw) != "one\n" || string(fs[1].Raw) != "two" {
		t.Errorf("%d stderr frames", len(fs))
	}
}

// TestProxyStdioSignalExit: a server ended by a signal gives 128 + its
// number.
func TestProxyStdioSignalExit(t *testing.T) {
	s := openSession(t, capture.Config{})
	_, _, exit := run(t, s, Config{Argv: []string{"sh", "-c", `kill -9 $$`}}, strings.NewReader(""))
	if exit.Status != 137 || exit.Signal != "SIGKILL" {
		t.Errorf("exit %+v, want 137 SIGKILL", exit)
	}
}
