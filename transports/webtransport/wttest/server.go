// Package wttest is a raw MCP-Flow peer for tests: a WebTransport server
// on 127.0.0.1 whose sessions hand their control stream to a test script
// that reads and writes bytes as the test decides. It depends on
// webtransport-go directly, not on mcpscope's transport or demo server.
package wttest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/internal/app/tlscert"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/flowstream"
)

// Server is a raw MCP-Flow server: each session's control stream is handed
// to a script.
type Server struct {
	URL    string
	Cert   *x509.Certificate
	Pool   *x509.CertPool // holds Cert, to verify it as a root
	Hash   string         // "sha256:…" of Cert
	Origin chan string    // the Origin header of each CONNECT
}

// NewServer starts a server on 127.0.0.1 whose sessions run script, with a
// fresh self-signed certificate. Everything it starts is stopped when the
// test ends.
func NewServer(t testing.TB, script func(p *Peer)) *Server {
	t.Helper()
	tc := selfSigned(t)
	cert := tc.Leaf
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	srv := &wt.Server{
		H3: &http3.Server{
			TLSConfig: http3.ConfigureTLSConfig(&tls.Config{
				Certificates: []tls.Certificate{tc},
			}),
			QUICConfig: &quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true},
		},
		CheckOrigin: func(*http.Request) bool { return true },
	}
	ts := &Server{
		URL:    fmt.Sprintf("https://127.0.0.1:%d/mcp", udp.LocalAddr().(*net.UDPAddr).Port),
		Cert:   cert,
		Pool:   x509.NewCertPool(),
		Hash:   tlscert.Hash(cert.Raw),
		Origin: make(chan string, 16),
	}
	ts.Pool.AddCert(cert)
	var scripts sync.WaitGroup
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) {
		select {
		case ts.Origin <- r.Header.Get("Origin"):
		default:
		}
		sess, err := srv.Upgrade(w, r)
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		scripts.Add(1)
		go func() {
			defer scripts.Done()
			defer sess.CloseWithError(0, "script over")
			ctx, cancel := context.WithTimeout(sess.Context(), guard.Hang)
			defer cancel()
			ctl, err := sess.AcceptStream(ctx)
			if err != nil {
				return
			}
			script(&Peer{T: t, Sess: sess, Ctl: ctl, Enc: proto.EncJSON})
		}()
	})
	srv.H3.Handler = mux
	wt.ConfigureHTTP3Server(srv.H3)
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = srv.Serve(udp)
	}()
	t.Cleanup(func() {
		_ = srv.Close()
		<-served
		scripts.Wait()
		_ = udp.Close()
	})
	return ts
}

// selfSigned makes a certificate for 127.0.0.1 and localhost.
func selfSigned(t testing.TB) tls.Certificate {
	t.Helper()
	cert, err := tlscert.SelfSigned("mcpscope test", time.Now(), 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return cert
}

// Peer is the server side of one session, driven by a test script.
type Peer struct {
	T    testing.TB
	Sess *wt.Session
	Ctl  *wt.Stream     // the control stream the client opened
	Enc  proto.Encoding // encoding of frames: JSON until the handshake picks one

	mu sync.Mutex // serialises writes on the control stream
}

// ReadFrame reads one control frame: the whole frame and its body.
func (p *Peer) ReadFrame() (frame, body []byte, err error) {
	_ = p.Ctl.SetReadDeadline(time.Now().Add(guard.Hang))
	frame, body, _, err = flowstream.ReadControlFrame(p.Ctl, 0)
	return frame, body, err
}

// Next reads and decodes the next message in the peer's encoding; ok is
// false when the client went.
func (p *Peer) Next() (*jsonrpc.Message, bool) {
	_, body, err := p.ReadFrame()
	if err != nil {
		return nil, false
	}
	m, err := jsonrpc.Decode(p.Enc, body)
	if err != nil {
		p.T.Errorf("server: frame does not decode as %s: %v", p.Enc, err)
		return nil, false
	}
	return m, true
}

// WriteRaw writes bytes on the control stream.
func (p *Peer) WriteRaw(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, _ = p.Ctl.Write(b)
}

// SendIn frames m in enc and writes it.
func (p *Peer) SendIn(enc proto.Encoding, m *jsonrpc.Message) {
	body, err := jsonrpc.Encode(enc, m)
	if err != nil {
		p.T.Errorf("server: encoding: %v", err)
		return
	}
	p.WriteRaw(flow.AppendControlFrame(nil, body))
}

// Send frames m in the peer's encoding.
func (p *Peer) Send(m *jsonrpc.Message) { p.SendIn(p.Enc, m) }

// Result answers id with v.
func (p *Peer) Result(id jsonrpc.ID, v any) {
	m, err := jsonrpc.NewResult(id, v)
	if err != nil {
		p.T.Errorf("server: result: %v", err)
		return
	}
	p.Send(m)
}

// Notify sends a notification.
func (p *Peer) Notify(method string, params any) {
	m, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		p.T.Errorf("server: notify: %v", err)
		return
	}
	p.Send(m)
}

// Handshake reads the initialize request, answers it choosing encoding
// (JSON result) and waits for notifications/initialized. It returns the
// raw first frame.
func (p *Peer) Handshake(encoding string) ([]byte, bool) {
	frame, ok := p.AnswerInitialize(encoding)
	if !ok {
		return frame, false
	}
	n, ok := p.Next()
	if !ok {
		return frame, false // the client went (a client may close right away)
	}
	if n.Method != mcp.MethodNotifyInitialized {
		p.T.Errorf("server: after initialize got %s, want notifications/initialized", n.Method)
		return frame, false
	}
	return frame, true
}

// AnswerInitialize reads the initialize request and answers it choosing
// encoding, in JSON. It returns the raw first frame.
func (p *Peer) AnswerInitialize(encoding string) ([]byte, bool) {
	frame, body, err := p.ReadFrame()
	if err != nil {
		return nil, false
	}
	m, err := jsonrpc.DecodeMessage(body)
	if err != nil || m.Method != mcp.MethodInitialize {
		p.T.Errorf("server: first frame is not a JSON initialize: %v %q", err, body)
		return frame, false
	}
	tr := map[string]any{"type": "mcp-flow", "version": "0.1", "encoding": encoding,
		"maxConcurrentStreams": 8, "datagramsSupported": true, "maxFrameSize": 1 << 20}
	res, _ := jsonrpc.NewResult(*m.ID, map[string]any{
		"protocolVersion": mcp.LatestLegacy, "capabilities": map[string]any{},
		"serverInfo": map[string]any{"name": "raw", "version": "1"}, "transport": tr,
	})
	p.SendIn(proto.EncJSON, res)
	if encoding == "cbor" {
		p.Enc = proto.EncCBOR
	}
	return frame, true
}

// Serve runs the handshake choosing encoding, then hands each message to fn
// until the client goes.
func Serve(encoding string, fn func(p *Peer, m *jsonrpc.Message)) func(*Peer) {
	return func(p *Peer) {
		if _, ok := p.Handshake(encoding); !ok {
			return
		}
		for m, ok := p.Next(); ok; m, ok = p.Next() {
			fn(p, m)
		}
	}
}

// OpenStream opens an execution stream and writes its header.
func (p *Peer) OpenStream(id, tag uint32) *wt.SendStream {
	str, err := p.Sess.OpenUniStream()
	if err != nil {
		p.T.Errorf("server: opening a stream: %v", err)
		return nil
	}
	if _, err := str.Write(flow.ExecStreamHeader{RequestID: id, StreamTag: tag}.Append(nil)); err != nil {
		p.T.Errorf("server: writing a stream header: %v", err)
	}
	return str
}

// Datagram sends one datagram.
func (p *Peer) Datagram(ch flow.DatagramChannel, id uint32, payload []byte) {
	b := flow.DatagramHeader{Channel: ch, RequestID: id}.Append(nil)
	_ = p.Sess.SendDatagram(append(b, payload...))
}

// FlowID is the MCP-Flow id of a request the server got.
func FlowID(t testing.TB, m *jsonrpc.Message) uint32 {
	n, ok := m.ID.Int()
	if !ok || n < 0 || n > math.MaxUint32 {
		t.Errorf("request id %s is not an MCP-Flow id", m.ID)
	}
	return uint32(n)
}

// ToolName returns params.name of a tools/call.
func ToolName(m *jsonrpc.Message) string {
	var p struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(m.Params, &p)
	return p.Name
}

// Payload is the deterministic data of the demo's read_file: byte i is
// (i*31 + seed) % 251.
func Payload(n int, seed int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte((i*31 + seed) % 251)
	}
	return b
}
