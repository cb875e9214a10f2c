package flow

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/transports/flowstream"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/webtransport-go"
)

// Error codes the server uses on streams and sessions.
const (
	StreamCodeAborted   webtransport.StreamErrorCode = 0x1 // the payload failed mid-transfer
	StreamCodeCancelled webtransport.StreamErrorCode = 0x2 // the call was cancelled
	StreamCodeRefused   webtransport.StreamErrorCode = 0x3 // a stream the client opened beyond the control stream

	SessionCodeShutdown      webtransport.SessionErrorCode = 0x0 // $/shutdown drained the session
	SessionCodeFrameTooLarge webtransport.SessionErrorCode = 0x1 // the client sent a frame over maxFrameSize
	SessionCodeProtocol      webtransport.SessionErrorCode = 0x2 // the control stream broke
)

// controlWait bounds the wait for the client's control stream.
const controlWait = 10 * time.Second

// session is one MCP-Flow session.
type session struct {
	srv  *Server
	wt   *webtransport.Session
	qc   *quic.Conn // for misbehave drop; may be nil
	log  *slog.Logger
	conn EngineConn
	ctrl *webtransport.Stream

	wmu      sync.Mutex // serialises control-stream writes
	enc      atomic.Uint32
	inited   atomic.Bool
	poisoned bool          // a lying length went out: nothing more can be framed (wmu)
	deaf     chan struct{} // closed by stop_reading: the control stream is read no more
	deafOnce sync.Once

	smu      sync.Mutex
	open     int  // execution streams open
	opened   bool // an execution stream was ever opened
	draining bool // $/shutdown: no new streams
	drained  chan struct{}
	stopOnce sync.Once
}

// newSession wraps an upgraded WebTransport session.
func newSession(srv *Server, wt *webtransport.Session, qc *quic.Conn) *session {
	s := &session{srv: srv, wt: wt, qc: qc, log: srv.cfg.Logger, drained: make(chan struct{}), deaf: make(chan struct{})}
	s.enc.Store(uint32(proto.EncJSON))
	return s
}

// encoding returns the encoding in force on the control stream.
func (s *session) encoding() proto.Encoding { return proto.Encoding(s.enc.Load()) }

// run serves the session until it closes.
func (s *session) run() {
	ctx := s.wt.Context()
	wait, cancel := context.WithTimeout(ctx, controlWait)
	ctrl, err := s.wt.AcceptStream(wait)
	cancel()
	if err != nil {
		_ = s.wt.CloseWithError(SessionCodeProtocol, "no control stream")
		return
	}
	s.wmu.Lock()
	s.ctrl = ctrl
	s.wmu.Unlock()
	s.conn = s.srv.engine.NewConn(s)
	go s.refuseStreams(ctx)
	s.readLoop()
	<-ctx.Done()
	s.conn.Close()
	s.awaitConnClose()
}

// awaitConnClose gives the client ShutdownGrace to close the QUIC
// connection after the session ended, so that a server that stops next
// does not cut the session's close capsule off.
func (s *session) awaitConnClose() {
	if s.qc == nil {
		return
	}
	t := time.NewTimer(s.srv.cfg.ShutdownGrace)
	defer t.Stop()
	select {
	case <-s.qc.Context().Done():
	case <-t.C:
	}
}

// refuseStreams resets every stream the client opens after the control
// stream: MCP-Flow defines none.
func (s *session) refuseStreams(ctx context.Context) {
	go func() {
		for {
			str, err := s.wt.AcceptUniStream(ctx)
			if err != nil {
				return
			}
			str.CancelRead(StreamCodeRefused)
		}
	}()
	for {
		str, err := s.wt.AcceptStream(ctx)
		if err != nil {
			return
		}
		str.CancelRead(StreamCodeRefused)
		str.CancelWrite(StreamCodeRefused)
	}
}

// readLoop reads control frames until the stream ends or breaks.
func (s *session) readLoop() {
	max := s.srv.cfg.MaxFrameSize
	for {
		_, body, _, err := flowstream.ReadControlFrame(deafReader{s}, max) // s.ctrl is set before the loop
		var tooLarge *flow.FrameTooLargeError
		switch {
		case err == nil:
			s.dispatch(body)
			continue
		case errors.As(err, &tooLarge):
			s.sendError(jsonrpc.ID{}, mcp.CodeInvalidRequest, tooLarge.Error()+"; the control stream cannot continue")
			s.ctrl.CancelRead(StreamCodeAborted)
			s.closeAfterGrace(SessionCodeFrameTooLarge, "control frame too large")
		case errors.Is(err, io.EOF):
			s.shutdown(false)
		case errors.Is(err, io.ErrUnexpectedEOF):
			s.sendError(jsonrpc.ID{}, mcp.CodeInvalidRequest, err.Error())
			s.closeAfterGrace(SessionCodeProtocol, "control stream ended inside a frame")
		default:
			s.closeAfterGrace(SessionCodeProtocol, "control stream failed")
		}
		return
	}
}

// dispatch decodes one control frame and serves it.
func (s *session) dispatch(body []byte) {
	m, refusal := decodeFrame(s.encoding(), body)
	if refusal != nil {
		if err := s.Send(refusal); err != nil {
			s.log.Debug("error response not sent", "err", err)
		}
		return
	}
	switch m.Kind() {
	case jsonrpc.KindRequest:
		switch {
		case m.Method == mcp.MethodInitialize:
			s.initialize(m)
		case !s.inited.Load() && m.Method != mcp.MethodPing:
			s.sendError(*m.ID, mcp.CodeInvalidRequest, "the control stream must open with initialize")
		default:
			s.conn.Handle(m)
		}
	case jsonrpc.KindNotification:
		if m.Method == flow.MethodFlowShutdown {
			s.shutdown(false)
			return
		}
		s.conn.Handle(m)
	case jsonrpc.KindResult, jsonrpc.KindError:
		s.conn.Handle(m) // the answer to a server→client request (elicitation/create, interaction.prompt, …)
	}
}

// decodeFrame decodes a control frame body in the encoding in force. A
// frame the server cannot serve yields the error response to send instead:
// -32003 when it is in the other encoding (with its id when that can be
// read), -32600 when it decodes but is no valid JSON-RPC message or its
// request id is not an MCP-Flow id, -32700 otherwise.
func decodeFrame(enc proto.Encoding, body []byte) (*jsonrpc.Message, *jsonrpc.Message) {
	m, err := jsonrpc.Decode(enc, body)
	if err == nil {
		if m.Kind() == jsonrpc.KindRequest {
			if _, ok := flowID(*m.ID); !ok {
				return nil, jsonrpc.NewErrorResponse(*m.ID, mcp.CodeInvalidRequest,
					"MCP-Flow request ids are unsigned integers below 2^32, got "+m.ID.String(), nil)
			}
		}
		return m, nil
	}
	other := proto.EncCBOR
	if enc == proto.EncCBOR {
		other = proto.EncJSON
	}
	if m2, _ := jsonrpc.Decode(other, body); m2 != nil {
		id := jsonrpc.ID{}
		if m2.Kind() == jsonrpc.KindRequest {
			id = *m2.ID
		}
		return nil, jsonrpc.NewErrorResponse(id, mcp.CodeFlowEncodingMismatch,
			"Encoding Mismatch: the frame is "+other.String()+" but "+enc.String()+" is in force", nil)
	}
	if m != nil && m.ID != nil {
		return nil, jsonrpc.NewErrorResponse(*m.ID, mcp.CodeInvalidRequest, err.Error(), nil)
	}
	return nil, jsonrpc.NewErrorResponse(jsonrpc.ID{}, mcp.CodeParseError, "Parse error: "+err.Error(), nil)
}

// shutdown stops new streams, waits for the open ones to finish, then for
// the client to close (at most ShutdownGrace), and closes the session. With
// notify, the server initiates it and sends $/shutdown first. The wait for
// the client protects stream data still in flight after the server's FIN;
// a session that never had a stream is closed as soon as the client asks.
func (s *session) shutdown(notify bool) {
	s.stopOnce.Do(func() {
		if notify {
			_ = s.notify(flow.MethodFlowShutdown, nil)
		}
		s.smu.Lock()
		s.draining = true
		if s.open == 0 {
			close(s.drained)
		}
		closeNow := !notify && !s.opened
		s.smu.Unlock()
		go func() {
			select {
			case <-s.drained:
			case <-s.wt.Context().Done():
				return
			}
			if closeNow {
				_ = s.wt.CloseWithError(SessionCodeShutdown, "shutdown")
				return
			}
			s.closeAfterGrace(SessionCodeShutdown, "shutdown")
		}()
	})
}

// closeAfterGrace gives the client ShutdownGrace to close the session (so
// that data in flight arrives), then closes it.
func (s *session) closeAfterGrace(code webtransport.SessionErrorCode, msg string) {
	t := time.NewTimer(s.srv.cfg.ShutdownGrace)
	defer t.Stop()
	select {
	case <-s.wt.Context().Done():
	case <-t.C:
		_ = s.wt.CloseWithError(code, msg)
	}
}
