package flow

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/tlscert"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/flowstream"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	"github.com/quic-go/webtransport-go"
)

// hang guards a wait that should end; no assertion depends on it.
const hang = guard.Hang

// startServer runs a server on 127.0.0.1:0 with a sandbox holding
// hello.txt; it stops when the test ends.
func startServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	cfg.Listen = "127.0.0.1:0"
	if cfg.SandboxRoot == "" && cfg.Core == nil {
		cfg.SandboxRoot = t.TempDir()
		writeFile(t, filepath.Join(cfg.SandboxRoot, "hello.txt"), "hello, sandbox\n")
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(hang):
			t.Errorf("Serve did not return after its context ended within %s", hang)
		}
	})
	return srv
}

// writeFile writes a file, creating its directory.
func writeFile(t *testing.T, path, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// dialRaw opens a WebTransport session with webtransport-go directly,
// pinning the certificate by the hash the server announces.
func dialRaw(t *testing.T, srv *Server, origin string) (*http.Response, *webtransport.Session, error) {
	t.Helper()
	want := srv.CertHash()
	tlsConf := &tls.Config{
		InsecureSkipVerify: true, // replaced by the pin below
		NextProtos:         []string{http3.NextProtoH3},
		VerifyConnection: func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 || tlscert.Hash(cs.PeerCertificates[0].Raw) != want {
				return errors.New("certificate does not match the pinned hash")
			}
			return nil
		},
	}
	d := &webtransport.Transport{
		TLSClientConfig: tlsConf,
		QUICConfig:      &quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true},
	}
	t.Cleanup(func() { _ = d.Close() })
	hdr := http.Header{}
	if origin != "" {
		hdr.Set("Origin", origin)
	}
	ctx, cancel := context.WithTimeout(context.Background(), hang)
	defer cancel()
	rsp, sess, err := d.Dial(ctx, srv.URL(), hdr)
	if sess != nil {
		t.Cleanup(func() { _ = sess.CloseWithError(0, "test over") })
	}
	return rsp, sess, err
}

// rawFrame is one control frame as read, or the error that ended reading.
type rawFrame struct {
	frame, body []byte
	err         error
}

// rawClient speaks MCP-Flow by hand on one session.
type rawClient struct {
	t      *testing.T
	sess   *webtransport.Session
	ctrl   *webtransport.Stream
	enc    proto.Encoding
	frames chan rawFrame
	stop   chan struct{} // closed: the reader stops after the next frame it reads
}

// connect dials and opens the control stream; the reader starts with it.
func connect(t *testing.T, srv *Server) *rawClient {
	t.Helper()
	_, sess, err := dialRaw(t, srv, "")
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	ctrl, err := sess.OpenStream()
	if err != nil {
		t.Fatalf("opening the control stream: %v", err)
	}
	c := &rawClient{t: t, sess: sess, ctrl: ctrl, enc: proto.EncJSON, frames: make(chan rawFrame, 1024), stop: make(chan struct{})}
	go c.read()
	return c
}

// read forwards control frames until an error, or until the first frame
// read once stop is closed (whether stop was closed is looked at before
// each read, so a reader late to look never skips that frame).
func (c *rawClient) read() {
	for {
		stopping := false
		select {
		case <-c.stop:
			stopping = true
		default:
		}
		frame, body, _, err := flowstream.ReadControlFrame(c.ctrl, 0)
		c.frames <- rawFrame{frame: frame, body: body, err: err}
		if err != nil || stopping {
			return
		}
	}
}

// next returns the next control frame.
func (c *rawClient) next() rawFrame {
	c.t.Helper()
	select {
	case f := <-c.frames:
		return f
	case <-time.After(hang):
		c.t.Fatalf("no control frame arrived within %s", hang)
		return rawFrame{}
	}
}

// writeFrame sends one body as a control frame.
func (c *rawClient) writeFrame(body []byte) {
	c.t.Helper()
	if _, err := c.ctrl.Write(flow.AppendControlFrame(nil, body)); err != nil {
		c.t.Fatalf("writing a control frame: %v", err)
	}
}

// send encodes a message in the client's encoding and sends it.
func (c *rawClient) send(m *jsonrpc.Message) {
	c.t.Helper()
	body, err := jsonrpc.Encode(c.enc, m)
	if err != nil {
		c.t.Fatal(err)
	}
	c.writeFrame(body)
}

// request sends a request.
func (c *rawClient) request(id int64, method string, params any) {
	c.t.Helper()
	m, err := jsonrpc.NewRequest(jsonrpc.IntID(id), method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(m)
}

// notify sends a notification.
func (c *rawClient) notify(method string, params any) {
	c.t.Helper()
	m, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(m)
}

// decode decodes a frame in the client's encoding.
func (c *rawClient) decode(f rawFrame) *jsonrpc.Message {
	c.t.Helper()
	if f.err != nil {
		c.t.Fatalf("reading a control frame: %v", f.err)
	}
	m, err := jsonrpc.Decode(c.enc, f.body)
	if err != nil {
		c.t.Fatalf("frame % x does not decode as %s: %v", f.body[:min(len(f.body), 32)], c.enc, err)
	}
	return m
}

// await returns the response to id, passing notifications to seen.
func (c *rawClient) await(id int64, seen func(*jsonrpc.Message)) *jsonrpc.Message {
	c.t.Helper()
	for {
		m := c.decode(c.next())
		if m.IsResponse() && m.ID != nil && m.ID.Key() == jsonrpc.IntID(id).Key() {
			return m
		}
		if seen != nil {
			seen(m)
		}
	}
}

// call sends a request and returns its response.
func (c *rawClient) call(id int64, method string, params any) *jsonrpc.Message {
	c.t.Helper()
	c.request(id, method, params)
	return c.await(id, nil)
}

// initialize negotiates with the encodings offered (nil: no transport
// object) and returns the raw result frame.
func (c *rawClient) initialize(encodings []string) rawFrame {
	c.t.Helper()
	params := map[string]any{"protocolVersion": mcp.LatestLegacy, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "raw", "version": "1"}}
	if encodings != nil {
		params["transport"] = map[string]any{"type": "mcp-flow", "version": "0.1", "encodings": encodings}
	}
	c.request(1, "initialize", params)
	f := c.next()
	var res struct {
		Result struct {
			Transport flow.FlowTransport `json:"transport"`
		} `json:"result"`
	}
	if err := json.Unmarshal(f.body, &res); err != nil {
		c.t.Fatalf("the initialize result is not JSON: %v", err)
	}
	if res.Result.Transport.Encoding == "cbor" {
		c.enc = proto.EncCBOR
	}
	c.notify("notifications/initialized", nil)
	return f
}

// toolCall calls a tool and returns the response.
func (c *rawClient) toolCall(id int64, name string, args any) *jsonrpc.Message {
	c.t.Helper()
	return c.call(id, "tools/call", map[string]any{"name": name, "arguments": args})
}

// requestTool sends a tools/call without waiting.
func (c *rawClient) requestTool(id int64, name string, args any) {
	c.t.Helper()
	c.request(id, "tools/call", map[string]any{"name": name, "arguments": args})
}

// errorOf returns the error of a response, failing on a result.
func errorOf(t *testing.T, m *jsonrpc.Message) *jsonrpc.Error {
	t.Helper()
	if m.Error == nil {
		t.Fatalf("want an error, got result %s", m.Result)
	}
	return m.Error
}

// withHang bounds a blocking call in a test.
func withHang() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), hang)
}

// describe renders a value for messages.
func describe(v any) string { return fmt.Sprintf("%+v", v) }
