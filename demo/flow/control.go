package flow

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// errPoisoned refuses writes after misbehave lying_length.
var errPoisoned = errors.New("the control stream carries a lying length prefix; nothing more can be framed")

// errNoControl refuses writes before the client opened the control stream.
var errNoControl = errors.New("the client has not opened the control stream yet")

// flowID returns the MCP-Flow form of a request id: an integer below 2^32.
func flowID(id jsonrpc.ID) (uint32, bool) {
	n, ok := id.Int()
	if !ok || n < 0 || n > math.MaxUint32 {
		return 0, false
	}
	return uint32(n), true
}

// Send writes m on the control stream in the encoding in force.
func (s *session) Send(m *jsonrpc.Message) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.writeLocked(s.encoding(), m)
}

// sendIn writes m as one frame in enc.
func (s *session) sendIn(enc proto.Encoding, m *jsonrpc.Message) error {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	return s.writeLocked(enc, m)
}

// writeLocked encodes m in enc and writes it as one frame; wmu is held, so
// frames never interleave and the encoding cannot change in between.
func (s *session) writeLocked(enc proto.Encoding, m *jsonrpc.Message) error {
	body, err := jsonrpc.Encode(enc, m)
	if err != nil {
		return fmt.Errorf("encoding a control frame: %w", err)
	}
	frame, err := flow.EncodeControlFrame(body, math.MaxUint32)
	if err != nil {
		return err
	}
	switch {
	case s.poisoned:
		return errPoisoned
	case s.ctrl == nil:
		return errNoControl
	}
	_, err = s.ctrl.Write(frame)
	return err
}

// sendError writes an error response; id null when unknown.
func (s *session) sendError(id jsonrpc.ID, code int, msg string) {
	if err := s.Send(jsonrpc.NewErrorResponse(id, code, msg, nil)); err != nil {
		s.log.Debug("error response not sent", "err", err)
	}
}

// notify writes a notification.
func (s *session) notify(method string, params any) error {
	m, err := jsonrpc.NewNotification(method, params)
	if err != nil {
		return err
	}
	return s.Send(m)
}

// initialize answers initialize in JSON, then switches to the encoding
// picked from the client's list.
func (s *session) initialize(m *jsonrpc.Message) {
	if s.inited.Load() {
		s.sendError(*m.ID, mcp.CodeInvalidRequest, "initialize was sent already on this session")
		return
	}
	var p struct {
		Transport *flow.FlowTransportOffer `json:"transport"`
	}
	_ = json.Unmarshal(m.Params, &p)
	if p.Transport != nil && p.Transport.Type != "" && p.Transport.Type != flow.FlowTransportType {
		s.sendError(*m.ID, mcp.CodeInvalidRequest, fmt.Sprintf("unknown transport type %q; this server speaks %q", p.Transport.Type, flow.FlowTransportType))
		return
	}
	enc, name, ok := pickEncoding(p.Transport)
	if !ok {
		s.sendError(*m.ID, mcp.CodeInvalidParams, fmt.Sprintf("none of the encodings %q is supported; this server speaks cbor and json", p.Transport.Encodings))
		return
	}
	result, rerr := s.conn.Initialize(m, flow.FlowTransport{
		Type: flow.FlowTransportType, Version: flow.FlowTransportVersion, Encoding: name,
		MaxConcurrentStreams: s.srv.cfg.MaxConcurrentStreams, DatagramsSupported: true, MaxFrameSize: s.srv.cfg.MaxFrameSize,
	})
	if rerr != nil {
		_ = s.Send(&jsonrpc.Message{JSONRPC: jsonrpc.Version, ID: m.ID, Error: rerr})
		return
	}
	res, err := jsonrpc.NewResult(*m.ID, result)
	if err != nil {
		s.sendError(*m.ID, mcp.CodeInternalError, err.Error())
		return
	}
	s.wmu.Lock()
	if err := s.writeLocked(proto.EncJSON, res); err != nil {
		s.log.Debug("initialize result not sent", "err", err)
	}
	s.enc.Store(uint32(enc)) // before anyone else can write
	s.wmu.Unlock()
	s.inited.Store(true)
}

// pickEncoding picks the first encoding of the client's list the server
// supports; no list means json.
func pickEncoding(offer *flow.FlowTransportOffer) (proto.Encoding, string, bool) {
	if offer == nil || len(offer.Encodings) == 0 {
		return proto.EncJSON, "json", true
	}
	for _, e := range offer.Encodings {
		switch e {
		case "cbor":
			return proto.EncCBOR, e, true
		case "json":
			return proto.EncJSON, e, true
		}
	}
	return 0, "", false
}
