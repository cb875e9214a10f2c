package ui

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

// Bounds of what the index keeps of the tools the session listed: an
// outputSchema larger than maxOutputSchema, or past maxListedTools, is not
// kept, and a call of that tool is judged on isError only.
const (
	maxListedTools  = 1024
	maxOutputSchema = 8 << 10
)

// listedTool names a tool of one connection's tools/list.
type listedTool struct{ conn, name string }

// toolSchemas are the outputSchemas the tools of each connection's
// tools/list declared, to judge their tools/call results.
type toolSchemas map[listedTool]json.RawMessage

// note reads a tools/list result of connection conn.
func (t *toolSchemas) note(conn string, result json.RawMessage) {
	var r struct {
		Tools []struct {
			Name         string          `json:"name"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	if *t == nil {
		*t = toolSchemas{}
	}
	for _, tool := range r.Tools {
		k := listedTool{conn, tool.Name}
		switch s := tool.OutputSchema; {
		case len(s) == 0 || string(s) == "null":
			delete(*t, k)
		case len(s) <= maxOutputSchema && len(*t) < maxListedTools:
			(*t)[k] = bytes.Clone(s)
		}
	}
}

// noteToolResult reads the answer f to a tools/list or tools/call the
// client sent: a list's outputSchemas are kept, and a call's result that
// is nonetheless a failure (client.CheckToolResult) marks the call. A
// call whose tool was never listed is judged on isError only.
func (x *index) noteToolResult(f *capture.Frame, k callKey, c *callInfo) {
	if k.fromServer || f.Msg.Result == nil {
		return
	}
	method, tool, _ := strings.Cut(c.method, " ")
	switch method {
	case proto.MethodToolsList:
		x.tools.note(k.conn, f.Msg.Result)
	case proto.MethodToolsCall:
		schema := x.tools[listedTool{k.conn, tool}]
		if schema == nil && !bytes.Contains(f.Msg.Result, []byte(`"isError"`)) {
			return
		}
		c.failure = client.CheckToolResult(tool, f.Msg.Result, schema)
	}
}

// toolFailure is the failure the response f reports, nil when it is not
// the answer to a failed tools/call.
func (x *index) toolFailure(f *capture.Frame) *client.ToolFailure {
	if f.Msg == nil || f.Msg.Kind() != proto.KindResult {
		return nil
	}
	if c, ok := x.lookup(f); ok {
		return c.failure
	}
	return nil
}

// failed reports whether f reads as a failure, which the "error" filter
// finds: a decode error or a failed write, an error response other than a
// probe's (probeAnswer), or a tools/call result that is a failure.
func failed(f *capture.Frame, x *index) bool {
	switch {
	case f.Err != nil:
		return true
	case f.Msg == nil:
		return false
	case f.Msg.Kind() == proto.KindError:
		c, _ := x.lookup(f)
		_, probe := probeAnswer(f, c, x, proto.DialectMCP)
		return !probe
	}
	return x.toolFailure(f) != nil
}

// toolFailureLabel is the row of a tools/call result that is a failure:
// "result ✗ isError: ENOENT: no such file".
func toolFailureLabel(tf *client.ToolFailure) string {
	s := "result ✗ " + tf.Label()
	if tf.Detail != "" {
		s += ": " + tf.Detail
	}
	return s
}
