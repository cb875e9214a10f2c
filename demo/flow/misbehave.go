package flow

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"

	"github.com/mcpscope/mcpscope/demo"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/quic-go/quic-go"
	"github.com/quic-go/quic-go/http3"
)

// Bytes the misbehave modes put on the wire.
const (
	// LyingLength is the length prefix of lying_length: more than any
	// maxFrameSize (the server caps its own at 1 GiB).
	LyingLength = math.MaxUint32
	// lyingBody is what follows the lying prefix before the server stops.
	lyingBody = `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"this frame lies about its length"}}`
	// ForeignPayload is the payload of the foreign_stream stream.
	ForeignPayload = "injected: this stream belongs to no request in flight"
)

var _ demo.Saboteur = (*session)(nil)

// Modes are the misbehave modes that need MCP-Flow (demo.Saboteur): those
// Sabotage performs, and the control floods of the core.
func (s *session) Modes() []string {
	return []string{"lying_length", "wrong_encoding", "foreign_stream", demo.ModeDrop, demo.ModeStopReading,
		demo.ModeStreamErrorFlood, demo.ModeShutdownFlood}
}

// Sabotage breaks the wire as the misbehave mode says (demo.Saboteur).
func (s *session) Sabotage(_ context.Context, mode string, _ jsonrpc.ID, _ json.RawMessage) (string, error) {
	switch mode {
	case "lying_length":
		return s.lyingLength()
	case "wrong_encoding":
		return s.wrongEncoding()
	case "foreign_stream":
		return s.foreignStream()
	case demo.ModeDrop:
		return s.drop()
	case demo.ModeStopReading:
		return s.stopReading()
	}
	return "", demo.RefuseMode(mode, "MCP-Flow")
}

// lyingLength writes a prefix of 0xFFFFFFFF and a short body, then no more
// frames: the call stays unanswered because nothing can follow.
func (s *session) lyingLength() (string, error) {
	b := binary.BigEndian.AppendUint32(nil, LyingLength)
	b = append(b, lyingBody...)
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if s.poisoned {
		return "", demo.ErrNoAnswer
	}
	s.poisoned = true
	if _, err := s.ctrl.Write(b); err != nil {
		return "", err
	}
	return "", demo.ErrNoAnswer
}

// wrongEncoding sends a notifications/message frame in the encoding that is
// not in force, then answers normally.
func (s *session) wrongEncoding() (string, error) {
	enc, wrong := s.encoding(), proto.EncJSON
	if enc == proto.EncJSON {
		wrong = proto.EncCBOR
	}
	m, err := jsonrpc.NewNotification(mcp.MethodNotifyMessage, mcp.LoggingMessageParams{
		Level: "warning", Logger: "misbehave", Data: []byte(`"this frame is in the wrong encoding"`)})
	if err != nil {
		return "", err
	}
	if err := s.sendIn(wrong, m); err != nil {
		return "", err
	}
	return fmt.Sprintf("sent a notifications/message frame in %s while %s is in force", wrong, enc), nil
}

// foreignStream opens an execution stream whose header names a request id
// that is not in flight, then answers.
func (s *session) foreignStream() (string, error) {
	foreign := uint32(math.MaxUint32)
	for s.inFlight(jsonrpc.IntID(int64(foreign))) {
		foreign--
	}
	s.smu.Lock()
	s.opened = true
	s.smu.Unlock()
	str, err := s.wt.OpenUniStream()
	if err != nil {
		return "", fmt.Errorf("opening the foreign stream: %w", err)
	}
	b := flow.ExecStreamHeader{RequestID: foreign, StreamTag: 1}.Append(nil)
	if _, err := str.Write(append(b, ForeignPayload...)); err != nil {
		str.CancelWrite(StreamCodeAborted)
		return "", fmt.Errorf("writing the foreign stream: %w", err)
	}
	_ = str.Close()
	return fmt.Sprintf("opened an execution stream for request id %d, which is not in flight", foreign), nil
}

// drop closes the QUIC connection abruptly: no answer, no session close
// capsule, no $/shutdown.
func (s *session) drop() (string, error) {
	if s.qc != nil {
		_ = s.qc.CloseWithError(quic.ApplicationErrorCode(http3.ErrCodeInternalError), "misbehave drop")
	} else {
		_ = s.wt.CloseWithError(SessionCodeProtocol, "misbehave drop")
	}
	return "", demo.ErrNoAnswer
}

// stopReading is stop_reading: the control stream is read no more, so the
// client gets no more flow-control credit for it.
func (s *session) stopReading() (string, error) {
	s.deafOnce.Do(func() { close(s.deaf) })
	return "stopped reading the control stream: no more flow-control credit is granted", nil
}

// deafReader reads the control stream until stop_reading, then blocks
// until the session ends.
type deafReader struct{ s *session }

func (d deafReader) Read(p []byte) (int, error) {
	select {
	case <-d.s.deaf:
		<-d.s.wt.Context().Done()
		return 0, io.EOF
	default:
	}
	return d.s.ctrl.Read(p)
}
