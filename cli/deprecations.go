package cli

import (
	"encoding/json"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// deprecationNotes says once per feature on stderr that the run sent or
// received a message of a feature its session's version deprecates
// (roots, sampling, logging in 2026-07-28, SEP-2577), and once that the
// link is the legacy HTTP+SSE transport. The messages go through as ever.
type deprecationNotes struct {
	out *lineWriter
	mu  sync.Mutex
	// version is the session's protocol version, read from the traffic:
	// the initialize result's, or the one a 2026-07-28 request's _meta
	// names ("" until seen).
	version string
	said    map[string]bool
}

// ReleasesUnheld is true: the sink reads a frame while Append runs and
// keeps none of its bytes.
func (*deprecationNotes) ReleasesUnheld() bool { return true }

// Append notes a request or notification of a deprecated feature.
func (d *deprecationNotes) Append(f *capture.Frame) uint64 {
	if f.Msg == nil {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.version == "" {
		d.version = versionOf(f)
	}
	feature, instead, ok := mcp.DeprecatedFeature(d.version, f.Msg.Method)
	if !ok {
		return 0
	}
	way := "sent"
	if f.Dir == capture.In {
		way = "received"
	}
	d.once(feature, "note: "+f.Msg.Method+" "+way+": the "+feature+" feature is deprecated as of "+mcp.DeprecatedSince+
		" (SEP-2577) and still works. "+instead)
	return 0
}

// noteTransport says once that the link's transport is deprecated when
// it is HTTP+SSE.
func (d *deprecationNotes) noteTransport(transport string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if transport == mcp.TransportHTTPSSE {
		d.once("transport", "note: "+mcp.SSEDeprecation+"; it still works")
	}
}

// once prints text the first time key is said.
func (d *deprecationNotes) once(key, text string) {
	if d.said[key] {
		return
	}
	if d.said == nil {
		d.said = map[string]bool{}
	}
	d.said[key] = true
	d.out.Println(text)
}

// maxVersionFrame is the largest frame versionOf reads.
const maxVersionFrame = 64 << 10

// versionOf is the protocol version a frame names: an answer's
// protocolVersion (initialize), or a request's
// _meta["io.modelcontextprotocol/protocolVersion"] (2026-07-28); "" for
// any other frame.
func versionOf(f *capture.Frame) string {
	m := f.Msg
	var v struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		Meta            map[string]json.RawMessage `json:"_meta"`
	}
	switch {
	case f.Size > maxVersionFrame:
		return "" // an initialize result or a request's _meta is small
	case f.Dir == capture.In && m.Result != nil:
		_ = json.Unmarshal(m.Result, &v)
		return v.ProtocolVersion
	case f.Dir == capture.Out && m.Method != "" && m.Method != mcp.MethodDiscover && m.Params != nil:
		// server/discover is a probe: it names the version offered, not
		// the one negotiated.
		var version string
		if json.Unmarshal(m.Params, &v) == nil && json.Unmarshal(v.Meta[mcp.MetaProtocolVersion], &version) == nil {
			return version
		}
	}
	return ""
}
