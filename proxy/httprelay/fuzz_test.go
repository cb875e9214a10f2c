package httprelay

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proxy"
)

// hostBytes is a host's side that keeps what reaches it.
type hostBytes struct{ got bytes.Buffer }

func (h *hostBytes) Pass(_ context.Context, hop proxy.Hop) error {
	h.got.Write(hop.Raw)
	return nil
}
func (h *hostBytes) Send(_ context.Context, _ capture.Dir, body []byte) error {
	h.got.Write(body)
	return nil
}
func (*hostBytes) Cut(string) {}
func (h *hostBytes) raw(_ context.Context, b []byte) error {
	h.got.Write(b)
	return nil
}
func (h *hostBytes) carry(_ context.Context, src io.Reader) (werr, rerr error) {
	_, rerr = io.Copy(&h.got, src)
	return nil, rerr
}

// FuzzAnswer relays whatever a server answers, as an event stream, as
// JSON and as anything else: no panic, and the host never gets more
// bytes than the server sent (for a stream, the events' own bytes; for a
// host that reads lines, one line a message).
func FuzzAnswer(f *testing.F) {
	f.Add([]byte(progressEvent+resultEvent), uint8(0))
	f.Add([]byte("event: endpoint\ndata: /message?x=1\n\n: heartbeat\n\nid: 3\ndata:\n\n"), uint8(0))
	f.Add([]byte("\xef\xbb\xbfdata: {\"jsonrpc\":\"2.0\"\r\ndata: ,\"id\":1}\r\r\n"), uint8(0))
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\n\"id\":1,\"result\":{}}"), uint8(1))
	f.Add([]byte("[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}, 7]"), uint8(5))
	f.Add([]byte("<html>not found</html>"), uint8(2))
	sess, err := proxy.Open(proxy.Options{Name: "fuzz", NoRecord: true, Log: func(string, ...any) {}})
	if err != nil {
		f.Fatal(err)
	}
	defer sess.Close(nil)
	types := []string{"text/event-stream", "application/json", "text/html"}
	f.Fuzz(func(t *testing.T, body []byte, kind uint8) {
		rsp := &http.Response{Header: http.Header{"Content-Type": {types[int(kind)%3]}}, Body: io.NopCloser(bytes.NewReader(body))}
		host := &hostBytes{}
		a := &answer{sess: sess, tap: tap{sess: sess}, conn: "fuzz", rsp: rsp, host: host, lines: kind >= 3,
			endpoint: func(raw []byte, _ string) []byte { return raw }}
		err := a.relay(context.Background())
		if err != nil && !errors.Is(err, errBroken) {
			t.Fatalf("relay: %v", err)
		}
		if !a.lines && host.got.Len() > len(body) {
			t.Fatalf("the host got %d bytes of %d", host.got.Len(), len(body))
		}
	})
}

// FuzzReadLine reads whatever a host writes on stdin as lines: none holds
// a line end, and together they hold every other byte, in order.
func FuzzReadLine(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\"}\n{}\r\n\nlast"))
	f.Add([]byte("\n\n\r\r\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		rd := bufio.NewReaderSize(bytes.NewReader(in), 16)
		var all []byte
		for {
			ln, _, err := readLine(rd)
			if bytes.ContainsRune(ln, '\n') {
				t.Fatalf("a line holds a line end: %q", ln)
			}
			all = append(all, ln...)
			if err != nil {
				break
			}
		}
		if len(all) > len(in) {
			t.Fatalf("read %d bytes of %d", len(all), len(in))
		}
	})
}

// FuzzHeadEnvelope reads the id and method of whatever head of a line a
// host writes: no panic, and an id found is JSON.
func FuzzHeadEnvelope(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"x":"aaa`))
	f.Add([]byte(`{"id":`))
	f.Add([]byte(`[{"id":1}]`))
	f.Fuzz(func(t *testing.T, in []byte) {
		env := headEnvelope(in)
		if len(env.ID) > 0 && !json.Valid(env.ID) {
			t.Fatalf("id %q is no JSON", env.ID)
		}
	})
}

// FuzzBlankScan finds the end of an event in whatever a server sends,
// the same wherever the stream is split: no panic, an end within bounds.
func FuzzBlankScan(f *testing.F) {
	f.Add([]byte("data: x\r\n\r\nnext"), 9)
	f.Add([]byte("data: x\r\rdata"), 8)
	f.Fuzz(func(t *testing.T, in []byte, at int) {
		var whole blankScan
		want := whole.scan(in)
		at = min(max(at, 0), len(in))
		var split blankScan
		got := split.scan(in[:at])
		if got < 0 {
			if got = split.scan(in[at:]); got >= 0 {
				got += at
			}
		}
		// A CR LF split between pieces ends at the CR: the LF is left for
		// what follows, where it is a blank line of its own.
		if got != want && !(got == want-1 && got > 0 && in[got-1] == '\r' && in[got] == '\n') {
			t.Fatalf("end %d split at %d, %d whole", got, at, want)
		}
		if want > len(in) {
			t.Fatalf("end %d past %d bytes", want, len(in))
		}
	})
}
