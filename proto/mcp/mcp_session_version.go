package mcp

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"

	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// VersionNamed is the protocol version a message names for its session:
// the protocolVersion of a result from the server (initialize's), or the
// _meta protocolVersion of a request (2026-07-28) other than
// server/discover, a probe, which offers a version rather than agrees on
// one: a server that answers the probe and then agrees 2025-11-25 through
// initialize speaks 2025-11-25. "" for any other message.
func VersionNamed(m *jsonrpc.Message, fromServer bool) string {
	var v struct {
		ProtocolVersion string `json:"protocolVersion"`
		Meta            struct {
			Version string `json:"io.modelcontextprotocol/protocolVersion"`
		} `json:"_meta"`
	}
	switch {
	case m == nil:
	case fromServer && m.Result != nil && bytes.Contains(m.Result, []byte(`"protocolVersion"`)):
		if json.Unmarshal(m.Result, &v) == nil {
			return v.ProtocolVersion
		}
	case !fromServer && m.Kind() == jsonrpc.KindRequest && m.Method != MethodDiscover &&
		bytes.Contains(m.Params, []byte(MetaProtocolVersion)):
		if json.Unmarshal(m.Params, &v) == nil {
			return v.Meta.Version
		}
	}
	return ""
}

// InputAsk is one input request of a result: its key and the method it
// asks the client to serve.
type InputAsk struct {
	Key, Method string
}

// InputAsks are the input requests a result carries (a 2026-07-28
// input_required result's, or an input_required task's), in key order;
// nil when it carries none. A result that does not name inputRequests is
// not decoded.
func InputAsks(result json.RawMessage) []InputAsk {
	if !bytes.Contains(result, []byte(`"inputRequests"`)) {
		return nil
	}
	var r struct {
		InputRequests map[string]struct {
			Method string `json:"method"`
		} `json:"inputRequests"`
	}
	if json.Unmarshal(result, &r) != nil {
		return nil
	}
	var asks []InputAsk
	for _, k := range slices.Sorted(maps.Keys(r.InputRequests)) {
		asks = append(asks, InputAsk{Key: k, Method: r.InputRequests[k].Method})
	}
	return asks
}

// DeprecatedAsks are the input requests of a result that ask for a
// feature version deprecates (roots or sampling in 2026-07-28,
// DeprecatedFeature).
func DeprecatedAsks(version string, result json.RawMessage) []InputAsk {
	if !DeprecatesFeatures(version) {
		return nil
	}
	var out []InputAsk
	for _, a := range InputAsks(result) {
		if _, _, ok := DeprecatedFeature(version, a.Method); ok {
			out = append(out, a)
		}
	}
	return out
}
