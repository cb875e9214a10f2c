package ui

import (
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// maxHandshakes bounds the connections whose negotiated version the index
// remembers.
const maxHandshakes = 256

// Probes are requests the client sends to learn what the server speaks:
// server/discover (is it a 2026-07-28 server?) and `capabilities` (does it
// run interactive sessions?). A refusal is an answer, not a failure: their
// rows say what the session concluded, drawn muted, and the "error"
// filter leaves them out.

// probeQuestion is the row of a probe request; ok is false for any other
// method.
func probeQuestion(method string) (label string, ok bool) {
	switch method {
	case mcp.MethodDiscover:
		return "probe: " + method + " (does the server speak " + mcp.Modern + "?)", true
	case mcp.MethodCapabilities:
		return "probe: " + method + " (does the server run interactive sessions?)", true
	}
	return "", false
}

// probeAnswer is the row of the answer f to a probe (c: its call, nil when
// not known): what the session concluded from it, then the answer. ok is false when f does
// not answer a probe, or answers it with an error that ends the handshake
// (-32020, -32021) or that the client reports as a failure.
func probeAnswer(f *capture.Frame, c *callInfo, x *index, d mcp.Dialect) (label string, ok bool) {
	if c == nil || f.Msg == nil {
		return "", false
	}
	m := f.Msg
	switch c.method {
	case mcp.MethodDiscover:
		if m.Error != nil {
			if m.Error.Code == mcp.CodeHeaderMismatch || m.Error.Code == mcp.CodeMissingClientCapability {
				return "", false
			}
			return "probe: " + x.handshakeOf(f.Conn) + " · " + errorText(m.Error, d, errorContext(f, c)), true
		}
		var r mcp.DiscoverResult
		if json.Unmarshal(m.Result, &r) != nil || r.Supports(mcp.Modern) {
			return "probe: server speaks " + mcp.Modern + " (" + mcp.MethodDiscover + ")", true
		}
		return "probe: " + x.handshakeOf(f.Conn) + " · server lists " + termtext.LineMax(strings.Join(r.SupportedVersions, ", "), 80), true
	case mcp.MethodCapabilities:
		if m.Error != nil {
			if m.Error.Code != mcp.CodeMethodNotFound && m.Error.Code != mcp.CodeNotInteractive {
				return "", false
			}
			return "probe: server runs no interactive sessions (tools/call forms) · " + errorText(m.Error, d, errorContext(f, c)), true
		}
		var caps mcp.InteractiveCapabilities
		if json.Unmarshal(m.Result, &caps) == nil && caps.Interactive {
			return "probe: server runs interactive sessions", true
		}
		return "probe: server runs no interactive sessions (tools/call forms)", true
	}
	return "", false
}

// handshakeOf says what the session of conn went on with after a refused
// probe: the initialize handshake, and the version it negotiated once its
// answer was read.
func (x *index) handshakeOf(conn string) string {
	if v := x.handshakes[sessionConn(conn)]; v != "" {
		return "server speaks " + v + " (initialize handshake)"
	}
	return "no " + mcp.Modern + ", initialize handshake"
}

// noteHandshake remembers the protocolVersion of an initialize result the
// client received.
func (x *index) noteHandshake(f *capture.Frame, k callKey, c *callInfo) {
	if k.fromServer || c.method != mcp.MethodInitialize || f.Msg.Result == nil {
		return
	}
	var r struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if json.Unmarshal(f.Msg.Result, &r) != nil || r.ProtocolVersion == "" {
		return
	}
	if x.handshakes == nil || len(x.handshakes) >= maxHandshakes {
		x.handshakes = map[string]string{}
	}
	x.handshakes[k.conn] = termtext.LineMax(r.ProtocolVersion, 32)
}

// noteProbeExchange remembers the HTTP exchange (f.Conn, "http POST 3")
// that carried the probe request f of call k: an error with a null id on
// that exchange (the HTTP 400 a server answers before a session exists)
// is the probe's answer (probeOfExchange).
func (x *index) noteProbeExchange(f *capture.Frame, k callKey) {
	if _, probe := probeQuestion(f.Msg.Method); !probe || f.Dir != capture.Out || sessionConn(f.Conn) == f.Conn {
		return
	}
	if x.probeExchanges == nil || len(x.probeExchanges) >= maxHandshakes {
		x.probeExchanges = map[string]callKey{}
	}
	x.probeExchanges[f.Conn] = k
}

// probeOfExchange is the probe call an error response f with a null id
// answers: the one its HTTP exchange carried (noteProbeExchange).
func (x *index) probeOfExchange(f *capture.Frame) (*callInfo, bool) {
	m := f.Msg
	if m == nil || f.Dir != capture.In || m.Kind() != jsonrpc.KindError || (m.ID != nil && !m.ID.IsNull()) {
		return nil, false
	}
	k, ok := x.probeExchanges[f.Conn]
	if !ok {
		return nil, false
	}
	c, ok := x.calls[k]
	return c, ok
}
