//go:build unix

package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

func TestEchoRoundTripRecordsBothDirections(t *testing.T) {
	tr, rec, inbox := startFake(t, "echo", nil)
	req := request(t, 1, "tools/call", map[string]int{"x": 1})
	send(t, tr, req)
	got := recv(t, inbox)
	if id, _ := got.ID.Int(); id != 1 || string(got.Result) != `{"echo":{"x":1}}` {
		t.Fatalf("response = id %v result %s", got.ID, got.Result)
	}

	out := rec.waitFor(t, "outgoing", isDir(capture.Out, capture.Control))
	wantLine := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":1}}` + "\n"
	if string(out.Raw) != wantLine || out.Size != len(wantLine) || out.Msg != req || out.Enc != proto.EncJSON || out.Conn != DefaultConn {
		t.Fatalf("out frame = %+v", out)
	}
	checkLineFields(t, out, len(wantLine)-1, "LF")

	in := rec.waitFor(t, "incoming", isDir(capture.In, capture.Control))
	if in.Msg == nil || in.Err != nil || !bytes.Equal(in.Msg.Raw, in.Raw[:len(in.Raw)-1]) || in.Size != len(in.Raw) {
		t.Fatalf("in frame = %+v", in)
	}
	checkLineFields(t, in, len(in.Raw)-1, "LF")
}

func TestCRLFLinesAreStripped(t *testing.T) {
	tr, rec, inbox := startFake(t, "echo-crlf", func(c *Config) { c.Conn = "crlf" })
	send(t, tr, request(t, 5, "ping", nil))
	got := recv(t, inbox)
	if bytes.ContainsAny(got.Raw, "\r\n") {
		t.Fatalf("delivered Raw keeps the line end: %q", got.Raw)
	}
	in := rec.waitFor(t, "incoming", isDir(capture.In, capture.Control))
	if !bytes.HasSuffix(in.Raw, []byte("\r\n")) || in.Conn != "crlf" {
		t.Fatalf("in frame Raw %q conn %q", in.Raw, in.Conn)
	}
	checkLineFields(t, in, len(in.Raw)-2, "CR LF")
}

// checkLineFields asserts a body field over [0,body) and a delimiter after it.
func checkLineFields(t *testing.T, f *capture.Frame, body int, delim string) {
	t.Helper()
	if len(f.Fields) != 2 {
		t.Fatalf("fields = %+v", f.Fields)
	}
	b, d := f.Fields[0], f.Fields[1]
	if b.Kind != proto.FieldBody || b.Offset != 0 || b.Len != body {
		t.Fatalf("body field = %+v, want [0,%d)", b, body)
	}
	if d.Kind != proto.FieldDelimiter || d.Offset != body || d.Offset+d.Len != len(f.Raw) || d.Value != delim {
		t.Fatalf("delimiter field = %+v, want %s at %d", d, delim, body)
	}
}

func TestStdoutPollutionIsShownNotDelivered(t *testing.T) {
	tr, rec, inbox := startFake(t, "junk", nil)
	send(t, tr, request(t, 9, "ping", nil))
	got := recv(t, inbox)
	if id, _ := got.ID.Int(); id != 9 || !got.IsResponse() {
		t.Fatalf("first delivered message = %s, want the response to 9", got.Raw)
	}
	in := rec.all(isDir(capture.In, capture.Control))
	if len(in) < 3 {
		t.Fatalf("got %d incoming frames, want junk, JSON and the response", len(in))
	}
	var lineErr *StdoutLineError
	if string(in[0].Raw) != "Hello from the server!\n" || !errors.As(in[0].Err, &lineErr) || lineErr.JSON ||
		!strings.Contains(in[0].Err.Error(), "server wrote a non-JSON line to stdout") || in[0].Msg != nil {
		t.Fatalf("junk frame = Raw %q Err %v", in[0].Raw, in[0].Err)
	}
	if !errors.As(in[1].Err, &lineErr) || !lineErr.JSON || !strings.Contains(in[1].Err.Error(), "not a JSON-RPC message") {
		t.Fatalf("JSON frame = Raw %q Err %v", in[1].Raw, in[1].Err)
	}
	if in[2].Err != nil || in[2].Msg == nil {
		t.Fatalf("response frame = %+v", in[2])
	}
	if tr.Err() != nil {
		t.Fatalf("Err after junk = %v", tr.Err())
	}
}

func TestServerDeathReportsExitStatusAndStderr(t *testing.T) {
	tr, rec, _ := startFake(t, "die", nil)
	send(t, tr, request(t, 1, "initialize", nil))
	waitDone(t, tr)
	var exit *ExitError
	if !errors.As(tr.Err(), &exit) {
		t.Fatalf("Err = %v, want *ExitError", tr.Err())
	}
	if exit.ExitCode != 3 || exit.Signal != "" || len(exit.Stderr) != 2 || exit.Stderr[1] != "fatal: boom" {
		t.Fatalf("ExitError = %+v", exit)
	}
	want := `server exited with status 3 while the session was open; last stderr: "starting up" | "fatal: boom"`
	if exit.Error() != want {
		t.Fatalf("Error() = %s\nwant      %s", exit.Error(), want)
	}
	if len(rec.all(isDir(capture.In, capture.Stderr))) != 2 {
		t.Fatalf("stderr frames = %d, want 2", len(rec.all(isDir(capture.In, capture.Stderr))))
	}

	err := tr.Send(context.Background(), request(t, 2, "ping", nil))
	var conn *client.ConnectionError
	if !errors.As(err, &conn) || !errors.As(err, &exit) {
		t.Fatalf("Send after death = %v, want a ConnectionError with the exit", err)
	}
	if err := tr.Close(); err != nil || !errors.As(tr.Err(), &exit) {
		t.Fatalf("Close after death = %v, Err = %v", err, tr.Err())
	}
}

func TestOrphanHoldingPipesDoesNotHangTheEnd(t *testing.T) {
	tr, _, _ := startFake(t, "die-orphan", nil)
	send(t, tr, request(t, 1, "initialize", nil))
	waitDone(t, tr)
	var exit *ExitError
	if !errors.As(tr.Err(), &exit) || exit.ExitCode != 4 || !strings.Contains(exit.Error(), "fatal: orphaned") {
		t.Fatalf("Err = %v", tr.Err())
	}
}

func TestServerClosingStdoutEndsTheSession(t *testing.T) {
	tr, _, _ := startFake(t, "close-stdout", nil)
	send(t, tr, request(t, 1, "initialize", nil))
	waitDone(t, tr)
	var exit *ExitError
	if !errors.As(tr.Err(), &exit) || !errors.Is(exit, errStdoutClosed) || exit.ExitCode != 0 ||
		!strings.Contains(exit.Error(), `closed its stdout`) || !strings.Contains(exit.Error(), `"closed stdout"`) {
		t.Fatalf("Err = %v", tr.Err())
	}
}

func TestConcurrentSendsNeverInterleave(t *testing.T) {
	tr, rec, inbox := startFake(t, "echo", nil)
	const senders, each = 64, 16
	pad := strings.Repeat("p", 5000) // longer than PIPE_BUF (4096), so the kernel may split a write
	var wg sync.WaitGroup
	for g := range senders {
		wg.Go(func() {
			for i := range each {
				id := int64(g*each + i)
				if err := tr.Send(context.Background(), request(t, id, "echo", map[string]any{"id": id, "pad": pad})); err != nil {
					t.Errorf("Send %d: %v", id, err)
				}
			}
		})
	}
	wg.Wait()
	seen := map[int64]bool{}
	for range senders * each {
		m := recv(t, inbox)
		var r struct{ Echo struct{ ID int64 } }
		if err := json.Unmarshal(m.Result, &r); err != nil {
			t.Fatalf("result %s: %v", m.Result, err)
		}
		if id, _ := m.ID.Int(); id != r.Echo.ID || seen[id] {
			t.Fatalf("response id %d echoes %d (seen before: %v)", id, r.Echo.ID, seen[id])
		}
		seen[r.Echo.ID] = true
	}
	if tr.Err() != nil {
		t.Fatalf("server failed: %v", tr.Err())
	}
	if n := len(rec.all(isDir(capture.Out, capture.Control))); n != senders*each {
		t.Fatalf("%d outgoing frames, want %d", n, senders*each)
	}
}

func TestEnvIsMergedOverTheParentEnvironment(t *testing.T) {
	t.Setenv("MCPSCOPE_TEST_KEPT", "from parent")
	t.Setenv("MCPSCOPE_TEST_OVER", "from parent")
	tr, _, inbox := startFake(t, "echo", func(c *Config) {
		c.Env = append(c.Env, "MCPSCOPE_TEST_OVER=from config", "MCPSCOPE_TEST_NEW=new")
	})
	for i, c := range []struct{ name, want string }{
		{"MCPSCOPE_TEST_KEPT", "from parent"},
		{"MCPSCOPE_TEST_OVER", "from config"},
		{"MCPSCOPE_TEST_NEW", "new"},
	} {
		send(t, tr, request(t, int64(i), "env", map[string]string{"name": c.name}))
		var r struct {
			Value string
			Set   bool
		}
		json.Unmarshal(recv(t, inbox).Result, &r)
		if !r.Set || r.Value != c.want {
			t.Errorf("%s = %q (set %v), want %q", c.name, r.Value, r.Set, c.want)
		}
	}
}

func TestMergeEnvReplacesInPlace(t *testing.T) {
	got := mergeEnv([]string{"A=1", "B=2", "C=3"}, []string{"B=x", "D=4", "D=5", "EMPTY="})
	want := []string{"A=1", "B=x", "C=3", "D=5", "EMPTY="}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("mergeEnv = %v, want %v", got, want)
	}
}

func TestDirSetsTheWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	tr, _, inbox := startFake(t, "echo", func(c *Config) { c.Dir = dir })
	send(t, tr, request(t, 1, "cwd", nil))
	var r struct{ Cwd string }
	json.Unmarshal(recv(t, inbox).Result, &r)
	want, _ := filepath.EvalSymlinks(dir)
	if got, _ := filepath.EvalSymlinks(r.Cwd); got != want {
		t.Fatalf("server cwd = %q, want %q", r.Cwd, dir)
	}
}

func TestStartFailsClearlyForAMissingCommand(t *testing.T) {
	err := New(Config{Command: "mcpscope-no-such-server-command"}).Start(context.Background(), nil)
	if !errors.Is(err, exec.ErrNotFound) || !strings.Contains(err.Error(), `command "mcpscope-no-such-server-command" was not found`) {
		t.Fatalf("Start = %v", err)
	}
	missing := filepath.Join(t.TempDir(), "absent")
	if err := New(Config{Command: missing}).Start(context.Background(), nil); err == nil || !strings.Contains(err.Error(), "absent") {
		t.Fatalf("Start of a missing path = %v", err)
	}
	if err := New(Config{}).Start(context.Background(), nil); err == nil {
		t.Fatalf("Start without a command succeeded")
	}
}

func TestSendBeforeStartAndAfterClose(t *testing.T) {
	tr := New(Config{Command: "unused"})
	if err := tr.Send(context.Background(), request(t, 1, "ping", nil)); err == nil {
		t.Fatalf("Send before Start succeeded")
	}
	tr.Close()
	waitDone(t, tr)
	if err := tr.Send(context.Background(), request(t, 1, "ping", nil)); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Send after Close = %v", err)
	}
	if err := tr.Start(context.Background(), nil); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("Start after Close = %v", err)
	}
}
