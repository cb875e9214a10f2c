package webtransport

import (
	"fmt"

	wt "github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// readDatagrams reports every datagram until the session ends. Progress
// datagrams also reach the engine as notifications/progress. Nothing is
// queued here: each datagram is handled before the next is read, and the
// session's own receive queue drops what a flood brings beyond it.
func (t *Transport) readDatagrams(sess *wt.Session) {
	defer t.loops.Done()
	ctx := sess.Context()
	for {
		b, err := sess.ReceiveDatagram(ctx)
		if err != nil {
			return
		}
		f, progress := datagramFrame(b, t.encoding())
		t.report(capture.In, f)
		if progress != nil {
			t.deliverMessage(progress)
		}
	}
}

// datagramFrame decodes one datagram into its frame and, for a progress
// datagram, the notifications/progress message it stands for (Raw nil: it
// was synthesized; the datagram is the captured unit). enc is the
// negotiated encoding of progress and log payloads.
func datagramFrame(b []byte, enc proto.Encoding) (*capture.Frame, *jsonrpc.Message) {
	f := &capture.Frame{Chan: capture.Channel{Kind: capture.Datagram}, Raw: b, Size: len(b), Enc: proto.EncBinary}
	h, payload, fields, err := flow.ParseDatagramHeader(b)
	if err != nil {
		f.Err = err
		return f, nil
	}
	f.Chan.Ch, f.Chan.ReqID, f.Fields = uint8(h.Channel), h.RequestID, fields
	switch h.Channel {
	case flow.ChannelProgress:
		f.Enc = enc
		p, err := flow.DecodeProgressDatagram(enc, payload)
		if err != nil {
			f.Err = err
			return f, nil
		}
		params := mcp.ProgressNotificationParams{ProgressToken: jsonrpc.IntID(int64(h.RequestID)), Progress: p.Progress, Message: p.Message}
		if p.Total != 0 {
			total := p.Total
			params.Total = &total
		}
		m, err := jsonrpc.NewNotification(mcp.MethodNotifyProgress, params)
		if err != nil {
			f.Err = fmt.Errorf("progress datagram: %w", err)
			return f, nil
		}
		return f, m
	case flow.ChannelLog:
		f.Enc = enc
		if _, err := flow.DecodeLogDatagram(enc, payload); err != nil {
			f.Err = err
		}
	}
	return f, nil
}

// DatagramFrame is the capture frame of one datagram as this transport
// reads it: its header annotated, a progress or log payload decoded in
// enc (an error when it does not decode), an unknown channel shown as
// such.
func DatagramFrame(b []byte, enc proto.Encoding) *capture.Frame {
	f, _ := datagramFrame(b, enc)
	return f
}
