package flow

import (
	"bytes"
	"encoding/json"
)

// StreamRefs returns the ref/stream items of a tools/call result's
// content; nil when it has none or is no result object.
func StreamRefs(result json.RawMessage) []StreamRef {
	if !bytes.Contains(result, []byte(ContentStreamRef)) {
		return nil
	}
	var r struct {
		Content []json.RawMessage `json:"content"`
	}
	if json.Unmarshal(result, &r) != nil {
		return nil
	}
	var refs []StreamRef
	for _, item := range r.Content {
		var ref StreamRef
		if json.Unmarshal(item, &ref) == nil && ref.Type == ContentStreamRef {
			refs = append(refs, ref)
		}
	}
	return refs
}
