package against

import "encoding/json"

// RequestParams returns a recorded request's params as replay --against
// sends and compares them: without the _meta members the engine adds to
// every request itself (protocol version, client info and capabilities,
// progress token). `mcpscope mock` matches a client's request with it.
func RequestParams(params json.RawMessage) json.RawMessage { return withoutEngineMeta(params) }
