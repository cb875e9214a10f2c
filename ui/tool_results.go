package ui

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// maxToolSchemaBytes bounds the outputSchemas the index keeps of one
// connection's tools (schemaCost each): a schema past the bound is not
// kept, and a call of its tool is judged on isError only.
const maxToolSchemaBytes = 1 << 20

// compiledSchemaRatio is about the most memory a schema compiled once for
// its listing (compiledApart) keeps per byte of its text: a compiled
// subschema keeps about 1 KiB, so that 170 KiB of typed properties, about
// 4000 of them, keep 4 MiB (24×); patterns keep more (a regexp of 40
// characters, 5 KiB). toolSchemasBound is about the most the outputSchemas
// kept take with their compiles; the compiles' share is in
// indexMemoryBound, the text's in indexSteadyBound.
const (
	compiledSchemaRatio = 32
	toolSchemasBound    = maxToolSchemaBytes * (1 + compiledSchemaRatio)
)

// toolSchemas are the outputSchemas the tools of the current connection's
// tools/list declared, to judge their tools/call results. A listing of
// another connection (a reconnect) starts them afresh.
type toolSchemas struct {
	conn   string
	byTool map[string]json.RawMessage
	// apart compiles, once, each schema past inlineVerdictBytes for the
	// verdictJobs of its tool's results (compiledApart).
	apart map[string]func() (*schemacheck.Schema, error)
	size  int // schemaCost of the schemas kept
}

// schemaCost is about the memory one kept schema takes: its bytes, its
// tool's name and the map entry.
func schemaCost(name string, schema json.RawMessage) int { return len(name) + len(schema) + 64 }

// note reads a tools/list result of connection conn.
func (t *toolSchemas) note(conn string, result json.RawMessage) {
	var r struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(result, &r) != nil {
		return
	}
	if t.byTool == nil || t.conn != conn {
		*t = toolSchemas{conn: conn, byTool: map[string]json.RawMessage{}, apart: map[string]func() (*schemacheck.Schema, error){}}
	}
	schemas := client.OutputSchemas(r.Tools)
	for _, raw := range r.Tools {
		var tool struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(raw, &tool) != nil {
			continue
		}
		if old, ok := t.byTool[tool.Name]; ok {
			t.size -= schemaCost(tool.Name, old)
			delete(t.byTool, tool.Name)
			delete(t.apart, tool.Name)
		}
		if s, ok := schemas[tool.Name]; ok && t.size+schemaCost(tool.Name, s) <= maxToolSchemaBytes {
			kept := bytes.Clone(s)
			t.byTool[tool.Name] = kept
			t.size += schemaCost(tool.Name, s)
			if len(kept) > inlineVerdictBytes {
				t.apart[tool.Name] = sync.OnceValues(func() (*schemacheck.Schema, error) { return compileApart(kept) })
			}
		}
	}
}

// of is the outputSchema tool declared on connection conn, nil when none
// is known.
func (t *toolSchemas) of(conn, tool string) json.RawMessage {
	if conn != t.conn {
		return nil
	}
	return t.byTool[tool]
}

// compiledApart is the outputSchema of tool on connection conn compiled
// once for every verdictJob of its results, when it is past
// inlineVerdictBytes; nil when it is not. Compiling such a schema costs
// more than judging a small result against it (about 0.3 s for 160 KB).
func (t *toolSchemas) compiledApart(conn, tool string) func() (*schemacheck.Schema, error) {
	if conn != t.conn {
		return nil
	}
	return t.apart[tool]
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
	case mcp.MethodToolsList:
		x.tools.note(k.conn, f.Msg.Result)
	case mcp.MethodToolsCall:
		schema := x.tools.of(k.conn, tool)
		if schema == nil && !bytes.Contains(f.Msg.Result, []byte(`"isError"`)) || x.deferVerdict(f, k, c, tool, schema) {
			return
		}
		compile := listedCompile(x.tools.compiledApart(k.conn, tool))
		c.failure, c.checking = client.ToolResultCheckerWith(tool, schema, compile)(f.Msg.Result), 0
	}
}

// listedCompile compiles a tool's outputSchema for a judgement made where
// the index reads (a small result, or one the verdicts had no room for):
// compiled, when set, is that schema compiled once by its listing
// (compiledApart), which it hands rather than compile a large schema again
// for each result (about 0.4 s for 176 KB: schemacheck.Compile keeps no
// text past 64 KiB).
func listedCompile(compiled func() (*schemacheck.Schema, error)) func(json.RawMessage) (*schemacheck.Schema, error) {
	if compiled == nil {
		return schemacheck.Compile
	}
	return func(json.RawMessage) (*schemacheck.Schema, error) { return compiled() }
}

// toolFailure is the failure the response f reports, nil when it is not
// the answer to a failed tools/call.
func (x *index) toolFailure(f *capture.Frame) *client.ToolFailure {
	if f.Msg == nil || f.Msg.Kind() != jsonrpc.KindResult {
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
	case f.Msg.Kind() == jsonrpc.KindError:
		c, _ := x.lookup(f)
		_, probe := probeAnswer(f, c, x, mcp.DialectMCP)
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
