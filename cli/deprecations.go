package cli

import (
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// deprecationNotes says once per feature on stderr that the run sent or
// received a message of a feature its session's version deprecates
// (roots, sampling, logging in 2026-07-28, SEP-2577), or got a result
// asking for one (an input_required result's inputRequests), and once
// that the link is the legacy HTTP+SSE transport. The notes go through
// the run's warning cap; the messages go through as ever.
type deprecationNotes struct {
	notes *warningCap
	mu    sync.Mutex
	// version is the session's protocol version, read from the traffic
	// (mcp.VersionNamed): the initialize result's, or the one a
	// 2026-07-28 request's _meta names ("" until seen).
	version string
	said    map[string]bool
}

// ReleasesUnheld is true: the sink reads a frame while Append runs and
// keeps none of its bytes.
func (*deprecationNotes) ReleasesUnheld() bool { return true }

// Append notes a request or notification of a deprecated feature, or a
// result that asks for one.
func (d *deprecationNotes) Append(f *capture.Frame) uint64 {
	if f.Msg == nil {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.version == "" {
		d.version = versionOf(f)
	}
	way := "sent"
	if f.Dir == capture.In {
		way = "received"
	}
	if f.Dir == capture.In && f.Msg.Result != nil {
		for _, a := range mcp.DeprecatedAsks(d.version, f.Msg.Result) {
			d.note(a.Method, "asked in an input_required result")
		}
		return 0
	}
	d.note(f.Msg.Method, way)
	return 0
}

// note says once that a message of method went the way said, when method
// belongs to a feature the session's version deprecates.
func (d *deprecationNotes) note(method, way string) {
	feature, instead, ok := mcp.DeprecatedFeature(d.version, method)
	if !ok {
		return
	}
	d.once(feature, method+" "+way+": the "+feature+" feature is deprecated as of "+mcp.DeprecatedSince+
		" (SEP-2577) and still works. "+instead)
}

// noteTransport says once that the link's transport is deprecated when
// it is HTTP+SSE: called once the link is up, when the transport a
// fallback chose is known.
func (d *deprecationNotes) noteTransport(transport string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if transport == mcp.TransportHTTPSSE {
		d.once("transport", mcp.SSEDeprecation+"; it still works")
	}
}

// once notes text the first time key is said.
func (d *deprecationNotes) once(key, text string) {
	if d.said[key] {
		return
	}
	if d.said == nil {
		d.said = map[string]bool{}
	}
	d.said[key] = true
	d.notes.Note("notes about deprecated features", func() string { return text })
}

// maxVersionFrame is the largest frame versionOf reads.
const maxVersionFrame = 64 << 10

// versionOf is the protocol version a frame names (mcp.VersionNamed);
// "" for any other frame.
func versionOf(f *capture.Frame) string {
	if f.Size > maxVersionFrame {
		return "" // an initialize result or a request's _meta is small
	}
	return mcp.VersionNamed(f.Msg, f.Dir == capture.In)
}
