package mock

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	"github.com/mcpscope/mcpscope/internal/testkit/guard"
)

const pingBatch = `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"b","method":"ping"}]`

// An id is echoed as the client wrote it: any JSON number token, a
// string; a message refused for another reason gets id null.
func TestHandleEchoesTheID(t *testing.T) {
	c := load(t, session).NewConn()
	for _, id := range []string{`"s"`, `7`, `12345678901234567890123`, `1.5`, `-0`, `1e2`, `1E400`, `"\u001b[31m"`} {
		want := `{"jsonrpc":"2.0","id":` + id + `,"result":{}}` + "\n"
		if got := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`))); got != want {
			t.Errorf("id %s: %s", id, got)
		}
	}
	if got := lines(c.Handle([]byte(`{"jsonrpc":"2.0","id":true,"method":"ping"}`))); !strings.HasPrefix(got, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600`) {
		t.Errorf("id true: %s", got)
	}
}

// The answers to one batch are bounded: past MaxBatchAnswers bytes, a
// request gets a short error, however much the recording would say.
func TestEachBoundsABatch(t *testing.T) {
	big := `{"k":"` + strings.Repeat("x", 3000) + `"}`
	rec := load(t, []frame{
		{"out", "stdio", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + big + `}`},
		{"in", "stdio", `{"jsonrpc":"2.0","id":1,"result":{}}`},
	})
	one := `{"jsonrpc":"2.0","id":1,"method":"tools/calk"},`
	n := (4 << 20) / len(one)
	batch := "[" + strings.TrimSuffix(strings.Repeat(one, n), ",") + "]"
	total, count, largest := 0, 0, 0
	err := rec.NewConn().Each([]byte(batch), func(b []byte, inBatch bool) error {
		if !inBatch {
			t.Fatalf("an answer to a batch item not in the batch: %s", b)
		}
		total, count, largest = total+len(b), count+1, max(largest, len(b))
		return nil
	})
	if err != nil || count != n {
		t.Fatalf("%d answers to %d requests: %v", count, n, err)
	}
	if total > MaxBatchAnswers+largest+n*100 {
		t.Errorf("%d bytes of answers to a %d-byte batch", total, len(batch))
	}
}

// On stdio a batch is answered by one JSON array on one line.
func TestServeStdioAnswersABatchWithAnArray(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Run)
	defer cancel()
	var out strings.Builder
	if err := ServeStdio(ctx, load(t, session), strings.NewReader(pingBatch+"\n"), &out); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":"b","result":{}}]`+"\n" {
		t.Errorf("stdout: %s", got)
	}
}

// Over WebSocket a batch is answered by one JSON array in one frame.
func TestWSHandlerAnswersABatchWithAnArray(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(NewWSHandler(load(t, session)))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if err := c.Write(ctx, websocket.MessageText, []byte(pingBatch)); err != nil {
		t.Fatal(err)
	}
	_, b, err := c.Read(ctx)
	var items []json.RawMessage
	if err != nil || json.Unmarshal(b, &items) != nil || len(items) != 2 {
		t.Errorf("frame %s: %v", b, err)
	}
}

// Over Streamable HTTP a batch is answered by an event stream, an event
// per answer.
func TestHTTPHandlerAnswersABatchWithEvents(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(NewHTTPHandler(load(t, session)))
	defer srv.Close()
	status, h, body := post(t, srv.URL+Path, "", pingBatch)
	if status != 200 || h.Get("Content-Type") != "text/event-stream" || strings.Count(body, "event: message\ndata: ") != 2 {
		t.Errorf("%d %s:\n%s", status, h.Get("Content-Type"), body)
	}
}

// When the client stops reading standard output, cancelling ends
// ServeStdio all the same.
func TestServeStdioEndsWhenOutputIsNotRead(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	out := &stuckWriter{called: make(chan struct{}), release: make(chan struct{})}
	defer close(out.release)
	served := make(chan error, 1)
	go func() {
		served <- ServeStdio(ctx, load(t, session), strings.NewReader(echoRequest+"\n"+echoRequest+"\n"), out)
	}()
	hang, stop := context.WithTimeout(context.Background(), guard.Hang)
	defer stop()
	select {
	case <-out.called:
	case <-hang.Done():
		t.Fatal("ServeStdio wrote nothing")
	}
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ServeStdio: %v", err)
		}
	case <-hang.Done():
		t.Fatal("ServeStdio did not return when its context ended")
	}
}

// stuckWriter is an output nobody reads: Write blocks until release.
type stuckWriter struct {
	once    sync.Once
	called  chan struct{}
	release chan struct{}
}

func (w *stuckWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.called) })
	<-w.release
	return 0, io.ErrClosedPipe
}

// An item of a batch is answered as it would be alone: its id echoed as
// sent, a broken item with an error of its own.
func TestEachAnswersEachItemOfABatch(t *testing.T) {
	c := load(t, session).NewConn()
	var got []string
	_ = c.Each([]byte(`[{"jsonrpc":"2.0","id":1e2,"method":"ping"},{"jsonrpc":"2.0","id":1.5,"method":"ping"},5]`), func(b []byte, inBatch bool) error {
		got = append(got, string(b))
		return nil
	})
	if len(got) != 3 || got[0] != `{"jsonrpc":"2.0","id":1e2,"result":{}}` || got[1] != `{"jsonrpc":"2.0","id":1.5,"result":{}}` || !strings.Contains(got[2], `"id":null,"error":{"code":-32600`) {
		t.Errorf("answers: %q", got)
	}
}
