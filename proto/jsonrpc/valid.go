package jsonrpc

import (
	"encoding/json"

	segjson "github.com/segmentio/encoding/json"
)

// validJSON reports whether b is one JSON value, exactly as encoding/json's
// Valid does (FuzzValidJSON holds them to the same answer). depth is the
// deepest nesting of b as a scan measured it, or more.
//
// Within MaxJSONDepth it asks segmentio/encoding's Valid, which passes
// over the plain bytes of a string many at a time: on a message of one
// 64 KiB string it is tens of times faster than encoding/json's byte by
// byte scan, which was over half of what a client spent reading a large
// SSE answer. Deeper input, which that parser would recurse into, is left
// to encoding/json.
func validJSON(b []byte, depth int) bool {
	if depth > MaxJSONDepth {
		return json.Valid(b)
	}
	return segjson.Valid(b)
}
