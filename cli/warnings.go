package cli

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/sse"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/transports/stdio"
	"github.com/mcpscope/mcpscope/transports/webtransport"
)

// decodeWarnings prints a warning on stderr for each frame from the server
// that could not be decoded (garbage on stdout, an oversized line, a broken
// envelope) or was read despite unclean text, and for each answer no
// request was waiting for: the first warningLimit of them in all,
// counting the rest for Flush.
type decodeWarnings struct {
	warningCap
	unit string // what a control frame is called on this transport: "line on stdout", "frame"
}

// ReleasesUnheld is true: the sink reads a frame while Append runs and keeps
// none of its bytes.
func (*decodeWarnings) ReleasesUnheld() bool { return true }

// Append warns about a control frame from the server that failed to decode.
func (d *decodeWarnings) Append(f *capture.Frame) uint64 {
	if f.Err == nil || f.Dir != capture.In || f.Chan.Kind != capture.Control {
		return 0
	}
	var closedMid *webtransport.ClosedMidFrameError
	if errors.As(f.Err, &closedMid) {
		return 0 // cut by mcpscope's own close: the capture keeps it, no fault of the server
	}
	d.Warn("undecodable frames from the server", func() string { return decodeWarning(f, d.unit) })
	return 0
}

// StrayAnswer warns about an answer no request was waiting for (the
// engine's Options.OnStrayAnswer).
func (d *decodeWarnings) StrayAnswer(a client.StrayAnswer) {
	d.Warn("answers that no request was waiting for", a.String)
}

// decodeWarning says in one sentence what was wrong with a frame. unit is
// what a control frame is called on the transport ("line on stdout").
func decodeWarning(f *capture.Frame, unit string) string {
	if unit == "" {
		unit = "frame"
	}
	var (
		long     *stdio.LineTooLongError
		line     *stdio.StdoutLineError
		tooLarge *flow.FrameTooLargeError
		mismatch *webtransport.EncodingMismatchError
		envelope *jsonrpc.EnvelopeError
		text     *jsonrpc.TextWarning
		event    *sse.LimitError
	)
	switch {
	case errors.As(f.Err, &long):
		return fmt.Sprintf("the server wrote a %s of %d bytes, over the %d-byte limit (--max-frame-size); it was dropped", unit, long.Size, long.Max)
	case errors.As(f.Err, &tooLarge):
		return fmt.Sprintf("the server sent a %s whose length prefix claims %d bytes, over the %d-byte limit (--max-frame-size); it was not read", unit, tooLarge.Size, tooLarge.Max)
	case errors.As(f.Err, &event):
		return fmt.Sprintf("the server sent an SSE %s over the %d-byte limit (--max-frame-size); mcpscope stopped reading the stream", event.Limit, event.Max)
	case errors.As(f.Err, &mismatch):
		return oneLine(mismatch.Error())
	case errors.As(f.Err, &text):
		return fmt.Sprintf("a %s from the server was read, but %s", unit, text)
	case errors.As(f.Err, &envelope) && !envelope.Malformed:
		return fmt.Sprintf("the server wrote a %s that is not a JSON-RPC message: %s (%s)", unit, preview(f.Raw, 40), oneLine(envelope.Reason))
	case errors.As(f.Err, &line) && !line.JSON, f.Msg == nil && len(f.Raw) > 0 && f.Kept >= f.Size && !json.Valid(f.Raw):
		return fmt.Sprintf("the server wrote a non-JSON %s: %s", unit, preview(f.Raw, 40))
	}
	return fmt.Sprintf("the server wrote a %s that is not a JSON-RPC message: %s (%s)", unit, preview(f.Raw, 40), oneLine(rootCause(f.Err).Error()))
}

// rootCause follows Unwrap to the innermost error.
func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
