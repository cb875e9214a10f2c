package recordings

import (
	"fmt"
	"time"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
)

// Format names the format in every recording's header line.
const Format = "mcpscope-recording"

// Version is the version of the format this package writes. A reader
// refuses a recording of a later version.
const Version = 1

// DefaultStreamMax is how many payload bytes of one stream a recording
// keeps whole (--record-stream-max); past it, only totals and the tail.
const DefaultStreamMax = 64 << 20

// tailLimit is how many of a capped stream's last bytes a recording keeps.
const tailLimit = 1 << 20

// Header is the first line of a recording.
type Header struct {
	Format    string    `json:"format"`        // always Format
	Version   int       `json:"version"`       // the format's version
	Mcpscope  string    `json:"mcpscope"`      // the version of mcpscope that wrote it
	Target    string    `json:"target"`        // what was connected to, secrets removed
	Transport string    `json:"transport"`     // the transport's name (DESIGN.md §5)
	Era       string    `json:"era,omitempty"` // the protocol era, when known at the start
	Started   time.Time `json:"started"`       // when the recording started
	Redaction string    `json:"redaction"`     // "default" or "none" (--no-redact)
	StreamMax int64     `json:"stream_max"`    // payload bytes kept whole per stream
	// Proxy, when set, is the NAME of a proxied session (mcpscope proxy):
	// the client of the recording is a host mcpscope stood beside, "out"
	// frames are the host's and "in" frames the server's.
	Proxy string `json:"proxy,omitempty"`
}

// Redaction policies named in the header.
const (
	RedactDefault = "default"
	RedactNone    = "none"
)

// Record kinds: the "k" of each line after the header.
const (
	kindFrame    = "frame"
	kindMark     = "mark"
	kindLabel    = "label"
	kindSize     = "size"
	kindSSEOpen  = "sse_open"
	kindSSEEvent = "sse_event"
	kindSSEEnd   = "sse_end"
	kindRest     = "stream_rest"
	kindLink     = "link"
	kindEnd      = "end"
)

// line is one record of a recording as JSON; which fields a line holds
// depends on its kind (docs/recording-format.md).
type line struct {
	K string `json:"k"`
	T int64  `json:"t,omitempty"` // Unix time in nanoseconds

	// frame
	Seq    uint64      `json:"seq,omitempty"`  // the frame's Seq in the live store
	Dir    string      `json:"dir,omitempty"`  // "out" or "in"
	Conn   string      `json:"conn,omitempty"` // the connection
	Ch     string      `json:"ch,omitempty"`   // control, stream, datagram, stderr, http
	Req    uint32      `json:"req,omitempty"`  // stream, datagram: the request id of the header
	Tag    uint32      `json:"tag,omitempty"`  // stream: the stream tag
	DCh    uint8       `json:"dch,omitempty"`  // datagram: the channel byte
	Text   *string     `json:"text,omitempty"` // the bytes, when valid UTF-8
	B64    []byte      `json:"b64,omitempty"`  // the bytes, base64, otherwise
	Size   int         `json:"size,omitempty"` // true size on the wire, when more than the bytes
	Enc    string      `json:"enc,omitempty"`  // json, cbor, binary, text
	Fields []fieldLine `json:"fields,omitempty"`
	Msg    []int       `json:"msg,omitempty"`   // [offset, length] of the message body in the bytes
	MText  *string     `json:"mtext,omitempty"` // the message body, when not a range of the bytes
	MB64   []byte      `json:"mb64,omitempty"`
	MEnc   string      `json:"menc,omitempty"` // the message body's encoding, when not Enc
	Viol   string      `json:"violation,omitempty"`
	Err    string      `json:"err,omitempty"`

	// mark, label, size, stream_rest
	State  string `json:"state,omitempty"`
	Label  string `json:"label,omitempty"`
	Stream string `json:"stream,omitempty"` // label: the stream's own id (a gateway stream's GUID); dir: its opener
	Total  int64  `json:"total,omitempty"`  // size: the announced size; stream_rest: payload bytes
	Chunks int64  `json:"chunks,omitempty"` // stream_rest: chunks past the kept part

	// sse_open, sse_event, sse_end
	Kind   string `json:"kind,omitempty"`
	Method string `json:"method,omitempty"`
	ReqID  string `json:"req_id,omitempty"`
	Of     string `json:"of,omitempty"`
	After  string `json:"after,omitempty"`
	LastID string `json:"last_id,omitempty"`
	Why    string `json:"why,omitempty"`

	// link
	Transport string `json:"transport,omitempty"`
	Era       string `json:"era,omitempty"`
	Protocol  string `json:"protocol,omitempty"`
}

// fieldLine is an annotation of a frame's bytes.
type fieldLine struct {
	O int    `json:"o"`
	N int    `json:"n"`
	F string `json:"f"`
	V string `json:"v,omitempty"`
	K uint8  `json:"k,omitempty"` // 0 header, 1 body, 2 delimiter
}

// names gives the names of a kind of value in a recording both ways.
type names[K comparable] struct {
	what string
	of   map[K]string
	by   map[string]K
}

// newNames builds the two ways of of; what says what the names name.
func newNames[K comparable](what string, of map[K]string) names[K] {
	n := names[K]{what: what, of: of, by: make(map[string]K, len(of))}
	for k, v := range of {
		n.by[v] = k
	}
	return n
}

// parse returns the value named name.
func (n names[K]) parse(name string) (K, error) {
	k, ok := n.by[name]
	if !ok {
		return k, fmt.Errorf("unknown %s %q", n.what, name)
	}
	return k, nil
}

// ChannelName is the name a recording gives a channel kind ("control",
// "stream", "datagram", "stderr", "http"), or "unknown".
func ChannelName(k capture.ChannelKind) string { return nameOf(channelNames, k) }

// SSEKindName is the name a recording gives an SSE stream's kind
// ("answer", "get", "resume", "legacy"), or "unknown".
func SSEKindName(k capture.SSEKind) string { return nameOf(sseKinds, k) }

// nameOf is the name of k, or "unknown".
func nameOf[K comparable](n names[K], k K) string {
	if s, ok := n.of[k]; ok {
		return s
	}
	return "unknown"
}

var channelNames = newNames("channel", map[capture.ChannelKind]string{
	capture.Control: "control", capture.Stream: "stream", capture.Datagram: "datagram",
	capture.Stderr: "stderr", capture.HTTP: "http", capture.Proxy: "proxy",
})

var encodingNames = newNames("encoding", map[proto.Encoding]string{
	proto.EncJSON: "json", proto.EncCBOR: "cbor", proto.EncBinary: "binary", proto.EncText: "text",
})

var streamStates = newNames("stream state", map[capture.StreamState]string{
	capture.StreamOpen: "open", capture.StreamDone: "done", capture.StreamError: "error", capture.StreamReset: "reset",
})

var sseKinds = newNames("SSE stream kind", map[capture.SSEKind]string{
	capture.SSEAnswer: "answer", capture.SSEGet: "get", capture.SSEResume: "resume", capture.SSELegacy: "legacy",
})

var sseStates = newNames("SSE stream state", map[capture.SSEState]string{
	capture.SSEOpen: "open", capture.SSEDone: "done", capture.SSEBroken: "broken", capture.SSECancelled: "cancelled",
})
