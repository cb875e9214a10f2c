package stdio

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// pipeServer runs Serve on pipes: write lines to in, read answers from out.
type pipeServer struct {
	in   *io.PipeWriter
	out  chan *jsonrpc.Message
	done chan error
}

// startPipe starts Serve with a small line limit.
func startPipe(t *testing.T) *pipeServer {
	t.Helper()
	return startPipeLimit(t, 256)
}

// startPipeLimit starts Serve with a line limit of maxLine bytes.
func startPipeLimit(t *testing.T, maxLine int) *pipeServer {
	t.Helper()
	core, err := demo.New(demo.Options{SandboxRoot: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Close() })
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &pipeServer{in: inW, out: make(chan *jsonrpc.Message, 64), done: make(chan error, 1)}
	go func() {
		p.done <- Serve(context.Background(), core, inR, outW, Options{MaxLineSize: maxLine})
		_ = outW.Close()
	}()
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			m, err := jsonrpc.DecodeMessage(append([]byte(nil), sc.Bytes()...))
			if err != nil {
				t.Errorf("output line %q: %v", sc.Text(), err)
				continue
			}
			p.out <- m
		}
		close(p.out)
	}()
	t.Cleanup(func() { _ = inW.Close() })
	return p
}

// write sends one line.
func (p *pipeServer) write(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// next returns the next message written.
func (p *pipeServer) next(t *testing.T) *jsonrpc.Message {
	t.Helper()
	select {
	case m, ok := <-p.out:
		if !ok {
			t.Fatal("the output ended")
		}
		return m
	case <-time.After(guard.Hang):
		t.Fatalf("no output within %s", guard.Hang)
		return nil
	}
}

// notifications/cancelled aborts analyze without an answer: the ping sent
// after it is the next answer, and the server ends promptly at EOF (a
// running analyze of 100000 steps would keep it draining).
func TestStdioCancelledIsSilent(t *testing.T) {
	p := startPipe(t)
	p.write(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"analyze","arguments":{"steps":100000,"interval_ms":1000}}}`)
	p.write(t, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"test"}}`)
	p.write(t, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	if m := p.next(t); m.ID == nil || m.ID.String() != "2" {
		t.Fatalf("first answer %s", m.Raw)
	}
	_ = p.in.Close()
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(guard.Hang):
		t.Fatalf("Serve kept draining a cancelled call for %s", guard.Hang)
	}
	if m, ok := <-p.out; ok {
		t.Errorf("the cancelled call was answered: %s", m.Raw)
	}
}

// A line over the limit, a batch and garbage are answered with errors, and
// the server goes on.
func TestStdioBadLines(t *testing.T) {
	p := startPipe(t)
	p.write(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":"`+strings.Repeat("x", 300)+`"}}}`)
	p.write(t, `[{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	p.write(t, `not json`)
	p.write(t, `{"jsonrpc":"1.0","id":3,"method":"ping"}`)
	p.write(t, `{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	want := []struct {
		code int
		id   string
	}{{mcp.CodeInvalidRequest, "null"}, {mcp.CodeInvalidRequest, "null"}, {mcp.CodeParseError, "null"}, {mcp.CodeInvalidRequest, "3"}, {0, "4"}}
	for _, w := range want {
		m := p.next(t)
		id := "null"
		if m.ID != nil {
			id = m.ID.String()
		}
		code := 0
		if m.Error != nil {
			code = m.Error.Code
		}
		if code != w.code || id != w.id {
			t.Errorf("answer %s, want code %d id %s", m.Raw, w.code, w.id)
		}
	}
}

// FuzzServe: any input is served without a panic, and everything written
// is one JSON-RPC message per line.
func FuzzServe(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"x"}}}`))
	f.Add([]byte("\n\n[1,2]\n{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}\r\n" + strings.Repeat("z", 600)))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"misbehave","arguments":{"mode":"drop"}}}`))
	core, err := demo.New(demo.Options{SandboxRoot: f.TempDir()})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		var out bytes.Buffer
		_ = Serve(ctx, core, bytes.NewReader(input), &out, Options{MaxLineSize: 512})
		for _, line := range bytes.Split(bytes.TrimSuffix(out.Bytes(), []byte("\n")), []byte("\n")) {
			if len(line) > 0 && !json.Valid(line) {
				t.Fatalf("output line %q is not JSON", line)
			}
		}
	})
}
