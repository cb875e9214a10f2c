package doctor

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// probeShown caps what a probe's outcome quotes of the server's answer.
const probeShown = 120

// discoverWatch follows the handshake's server/discover probe on the wire:
// the HTTP status and the JSON-RPC answer it got, until the next request
// (initialize, when the probe concluded the server speaks an older
// revision). It implements capture.Sink.
type discoverWatch struct {
	mu      sync.Mutex
	sent    bool   // the probe went out
	done    bool   // a later request went out: the probe is over
	status  string // the HTTP status of the probe's answer ("400 Bad Request")
	answer  *jsonrpc.Error
	replied bool // the probe got a JSON-RPC answer
}

// Append implements capture.Sink.
func (d *discoverWatch) Append(f *capture.Frame) uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.done {
		return 0
	}
	out := f.Dir == capture.Out
	switch {
	case f.Chan.Kind == capture.Control && f.Msg != nil && out && f.Msg.Kind() == jsonrpc.KindRequest:
		if d.sent {
			d.done = true
		} else if f.Msg.Method == mcp.MethodDiscover {
			d.sent = true
		}
	case !d.sent:
	case f.Chan.Kind == capture.HTTP && !out && d.status == "":
		d.status = httpStatus(f.Raw)
	case f.Chan.Kind == capture.Control && f.Msg != nil && !out && f.Msg.IsResponse():
		d.replied, d.answer = true, f.Msg.Error
	}
	return 0
}

// httpStatus is the status of an HTTP response head ("400 Bad Request"),
// or "" when raw is not one.
func httpStatus(raw []byte) string {
	line, _, _ := bytes.Cut(raw, []byte("\r\n"))
	version, status, ok := bytes.Cut(line, []byte(" "))
	if !ok || !bytes.HasPrefix(version, []byte("HTTP/")) {
		return ""
	}
	return termtext.LineMax(string(status), probeShown)
}

// outcome words what the probe concluded, for the handshake step: modern
// says the session went on in the 2026-07-28 era. It is "" when no probe
// was sent (a pinned --protocol, a transport with one handshake only).
func (d *discoverWatch) outcome(modern bool) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.sent {
		return ""
	}
	const name = "server/discover probe: "
	if modern {
		return name + "a " + mcp.Modern + " server"
	}
	var got string
	switch {
	case d.status != "" && !statusOK(d.status):
		got = d.status
	case d.answer != nil:
		got = fmt.Sprintf("error %d %s", d.answer.Code, termtext.LineMax(d.answer.Message, probeShown))
	case d.replied:
		got = "an answer that does not list " + mcp.Modern
	default:
		got = "no answer in time"
	}
	return fmt.Sprintf("%snot a %s server (%s) → initialize handshake", name, mcp.Modern, got)
}

// statusOK reports whether an HTTP status is a 2xx.
func statusOK(status string) bool {
	return len(status) > 0 && status[0] == '2'
}
