package wtrelay

import (
	"bytes"
	"context"
	"testing"

	demoflow "github.com/mcpscope/mcpscope/demo/flow"
	"github.com/mcpscope/mcpscope/internal/testkit/flowtest"
	"github.com/mcpscope/mcpscope/internal/testkit/guard"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proxy"
)

// A viewer's edit, written in JSON, of a message on a CBOR session goes
// to the server in CBOR, and the capture holds the CBOR that went, named
// by the edited mark.
func TestRelayEditOnCBORSessionCapturedAsSent(t *testing.T) {
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
	if err := sess.PauseOn([]proxy.Filter{{Method: "tools/list", Dir: "host"}}); err != nil {
		t.Fatal(err)
	}
	h.send(proto.EncCBOR, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	flowtest.Eventually(t, "the tools/list paused", func() bool { return len(sess.Held()) == 1 })
	if err := sess.Decide(sess.Held()[0].N, proxy.Decision{Body: []byte(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)}); err != nil {
		t.Fatal(err)
	}
	if m := h.read(proto.EncCBOR); m.ID == nil || m.ID.String() != "2" || m.Error != nil {
		t.Fatalf("the answer to the edit: %+v", m)
	}
	var edited proxy.Mark
	for _, f := range sess.Store().Last(sess.Store().Len()) {
		if m, ok := proxy.ParseMark(f); ok && m.What == proxy.WhatEdited {
			edited = m
		}
	}
	var sent []byte
	for _, f := range sess.Store().Last(sess.Store().Len()) {
		if f.Seq == edited.Seq && edited.Seq != 0 {
			if f.Enc != proto.EncCBOR {
				t.Fatalf("the edit is captured as %v, not the CBOR that went", f.Enc)
			}
			sent = f.Raw
		}
	}
	if m, err := jsonrpc.Decode(proto.EncCBOR, sent); err != nil || m.Method != "ping" {
		t.Fatalf("the edited mark %+v names %q (%v), not the CBOR ping", edited, sent, err)
	}
}
