package wtrelay

import (
	"bytes"
	"context"
	"crypto/tls"
	"io"
	"net"
	"testing"

	"github.com/quic-go/quic-go"
	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/capture"
	demoflow "github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/app/tlsconf"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proxy"
	"github.com/mcpscope/mcpscope/transports/flowstream"
)

// relayFor serves a relay of a fresh session to d on a loopback port
// until the test ends; it returns the session, the relay and its URL.
func relayFor(t *testing.T, d *flowtest.Demo) (*proxy.Session, *Relay, string) {
	t.Helper()
	sess, err := proxy.Open(proxy.Options{Name: "wtrelay-test", NoRecord: true, Log: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	cert, err := SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(sess, Options{Upstream: d.Target(), Cert: cert, CertHashes: []string{d.CertHash()}})
	if err != nil {
		t.Fatal(err)
	}
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- r.Serve(ctx, udp) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		_ = udp.Close()
		_ = sess.Close(nil)
	})
	return sess, r, "https://" + udp.LocalAddr().String() + demoflow.Path
}

// host is a bare MCP-Flow host of the tests: control frames by hand.
type host struct {
	t    *testing.T
	sess *wt.Session
	ctrl *wt.Stream
}

func dialHost(t *testing.T, ctx context.Context, url, hash string) *host {
	t.Helper()
	tc, err := tlsconf.Config(tlsconf.Options{ServerName: "127.0.0.1", CertHashes: []string{hash}, MinVersion: tls.VersionTLS13}, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := &wt.Transport{TLSClientConfig: tc, QUICConfig: &quic.Config{EnableDatagrams: true, EnableStreamResetPartialDelivery: true}}
	t.Cleanup(func() { _ = d.Close() })
	_, s, err := d.Dial(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.CloseWithError(0, "done") })
	ctrl, err := s.OpenStreamSync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return &host{t: t, sess: s, ctrl: ctrl}
}

func (h *host) send(enc proto.Encoding, body string) {
	h.t.Helper()
	b := []byte(body)
	if enc == proto.EncCBOR {
		var err error
		if b, err = jsonrpc.JSONToCBOR(b); err != nil {
			h.t.Fatal(err)
		}
	}
	if _, err := h.ctrl.Write(flow.AppendControlFrame(nil, b)); err != nil {
		h.t.Fatal(err)
	}
}

func (h *host) read(enc proto.Encoding) *jsonrpc.Message {
	h.t.Helper()
	_, body, _, err := flowstream.ReadControlFrame(h.ctrl, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	m, err := jsonrpc.Decode(enc, body)
	if err != nil {
		h.t.Fatalf("%q: %v", body, err)
	}
	return m
}

// A host through the relay negotiates CBOR, reads an execution stream
// whole; a request injected meanwhile reaches the server in CBOR and its
// answer is kept from the host.
func TestRelayNegotiatesStreamsAndInjects(t *testing.T) {
	d := flowtest.Start(t, demoflow.Config{})
	sess, r, url := relayFor(t, d)
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	h := dialHost(t, ctx, url, r.CertHash())
	h.send(proto.EncJSON, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},`+
		`"clientInfo":{"name":"t","version":"1"},"transport":{"type":"mcp-flow","version":"0.1","encodings":["cbor"]}}}`)
	if m := h.read(proto.EncJSON); m.Result == nil || !bytes.Contains(m.Result, []byte(`"cbor"`)) {
		t.Fatalf("initialize result %s", m.Result)
	}
	h.send(proto.EncCBOR, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if _, err := sess.Inject(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)); err != nil {
		t.Fatal(err)
	}
	const size = 1<<20 + 5
	h.send(proto.EncCBOR, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"read_file","arguments":{"size":1048581,"seed":1}}}`)
	got := make(chan []byte, 1)
	go func() {
		str, err := h.sess.AcceptUniStream(ctx)
		if err != nil {
			got <- nil
			return
		}
		b, _ := io.ReadAll(str)
		got <- b
	}()
	if m := h.read(proto.EncCBOR); m.ID == nil || m.ID.String() != "2" || m.Error != nil {
		t.Fatalf("the host read %+v first; the injected request's answer must not reach it", m)
	}
	b := <-got
	want := make([]byte, size)
	for i := range want {
		want[i] = byte((i*31 + 1) % 251)
	}
	if len(b) != size+flow.ExecStreamHeaderLen || !bytes.Equal(b[flow.ExecStreamHeaderLen:], want) {
		t.Fatalf("the stream through the relay: %d bytes", len(b))
	}
	kept := false
	for _, f := range sess.Store().Last(sess.Store().Len()) {
		if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatKept && m.Method == "tools/list" {
			kept = true
		}
	}
	if !kept {
		t.Error("no mark says the injected request's answer was kept")
	}
	// The relay marks the stream once it passed the FIN on.
	flowtest.Eventually(t, "the stream marked done", func() bool {
		st, ok := sess.Store().Stream(capture.StreamKey{Conn: "wt1", ReqID: 2, Tag: 1})
		return ok && st.State == capture.StreamDone
	})
}

// A hostile host: a truncated execution stream header and a control
// frame whose length prefix lies are captured with their errors and
// relayed as they came; the server's reaction (it closes the session)
// reaches the host, and nothing hangs.
func TestRelayHostileHost(t *testing.T) {
	d := flowtest.Start(t, demoflow.Config{})
	sess, r, url := relayFor(t, d)
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	h := dialHost(t, ctx, url, r.CertHash())
	uni, err := h.sess.OpenUniStreamSync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = uni.Write([]byte{0, 0, 7})
	_ = uni.Close()
	if _, err := h.ctrl.Write(append([]byte{0xFF, 0xFF, 0xFF, 0xFF}, "a lie"...)); err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.sess.Context().Done():
	case <-ctx.Done():
		t.Fatal("the host's session outlived the server's")
	}
	var lie, header bool
	flowtest.Eventually(t, "both broken units captured with errors", func() bool {
		for _, f := range sess.Store().Last(sess.Store().Len()) {
			lie = lie || f.Chan.Kind == capture.Control && f.Err != nil && bytes.Equal(f.Raw, []byte{0xFF, 0xFF, 0xFF, 0xFF})
			header = header || f.Chan.Kind == capture.Stream && f.Err != nil && bytes.Equal(f.Raw, []byte{0, 0, 7})
		}
		return lie && header
	})
}

// FuzzNegotiate: whatever a server answers, reading the encoding it
// settles never panics, and CBOR is chosen only when it says so.
func FuzzNegotiate(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"transport":{"type":"mcp-flow","version":"0.1","encoding":"cbor"}}}`))
	f.Add([]byte(`{"result":{"transport":null}}`))
	f.Add([]byte{0xA1, 0x61, 0x61, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		c := &control{}
		c.negotiate(b)
		if c.encoding() == proto.EncCBOR && !bytes.Contains(b, []byte("cbor")) && !bytes.Contains(b, []byte(`\u`)) {
			t.Fatalf("CBOR chosen from %q", b)
		}
	})
}

// A message paused for a viewer does not keep a pair open after the host
// left: it is let go with the pair.
func TestRelayPausedMessageEndsWithPair(t *testing.T) {
	d := flowtest.Start(t, demoflow.Config{})
	sess, r, url := relayFor(t, d)
	if err := sess.PauseOn([]proxy.Filter{{Method: "initialize"}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard.Hang)
	defer cancel()
	h := dialHost(t, ctx, url, r.CertHash())
	h.send(proto.EncJSON, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	flowtest.Eventually(t, "the message paused", func() bool { return len(sess.Held()) == 1 })
	_ = h.sess.CloseWithError(0, "host gone")
	flowtest.Eventually(t, "the paused message let go", func() bool { return len(sess.Held()) == 0 })
}
