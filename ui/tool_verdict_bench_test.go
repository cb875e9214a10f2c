package ui

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// bigToolSchema is the outputSchema of the tool "rows" whose results the
// large-result tests and benchmark judge: an object of rows, each with a
// number n and a string s.
const bigToolSchema = `{"type":"object","required":["rows"],"properties":{"rows":{"type":"array",
 "items":{"type":"object","required":["n","s"],"properties":{"n":{"type":"number"},"s":{"type":"string"}}}}}}`

// rowsResult is a tools/call result of the tool "rows" of about size
// bytes: its structuredContent holds rows, the last of which fails the
// outputSchema (s a number) when bad is set.
func rowsResult(size int, bad bool) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"content":[{"type":"text","text":"rows"}],"structuredContent":{"rows":[`)
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"n":` + strconv.Itoa(i) + `,"s":"row ` + strconv.Itoa(i) + ` of the table, padded to read like data"}`)
	}
	if bad {
		b.WriteString(`,{"n":-1,"s":7}`)
	}
	b.WriteString(`]}}`)
	return json.RawMessage(b.String())
}

// rowsStore holds a tools/list declaring the tool "rows" with
// bigToolSchema (frames 1–2), then the calls of it answered with results
// of the sizes given, the first of them failing the schema when bad is
// set (frames 3–4, 5–6, …).
func rowsStore(t testing.TB, bad bool, sizes ...int) *capture.Store {
	return rowsStoreOf(t, bigToolSchema, bad, sizes...)
}

// rowsStoreOf is rowsStore with the tool "rows" declaring schema.
func rowsStoreOf(t testing.TB, schema string, bad bool, sizes ...int) *capture.Store {
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	add := func(dir capture.Dir, m *jsonrpc.Message) { st.Append(controlFrame(t, dir, c.next(), proto.EncJSON, m)) }
	tools := `[{"name":"rows","inputSchema":{"type":"object"},"outputSchema":` + schema + `}]`
	add(capture.Out, request(t, 1, mcp.MethodToolsList, map[string]any{}))
	add(capture.In, result(t, 1, map[string]any{"tools": json.RawMessage(tools)}))
	for i, size := range sizes {
		id := int64(i + 2)
		add(capture.Out, request(t, id, mcp.MethodToolsCall, map[string]any{"name": "rows"}))
		add(capture.In, result(t, id, rowsResult(size, bad && i == 0)))
	}
	return st
}

// BenchmarkLargeToolResultUpdate reads a store holding a 10 MiB tools/call
// result of a tool that declares an outputSchema, as the program does
// (a refresh, then every slice of its pass), then moves the selection off
// the result and back onto it (up, down), and reports the longest Update
// of the pass and of the keys in ms.
func BenchmarkLargeToolResultUpdate(b *testing.B) {
	st := rowsStore(b, true, 10<<20)
	var longest time.Duration
	for b.Loop() {
		m := New(Config{Store: st, Target: "wt://127.0.0.1:4433/mcp"})
		m.Update(tea.WindowSizeMsg{Width: 140, Height: 40})
		timed := func(msg tea.Msg) {
			start := time.Now()
			m.Update(msg)
			longest = max(longest, time.Since(start))
		}
		timed(refreshMsg{at: t0})
		for m.passing {
			timed(passMsg{pass: m.pass})
		}
		timed(keyPress("up"))
		timed(keyPress("down"))
		_ = m.Close()
	}
	b.ReportMetric(float64(longest.Microseconds())/1000, "longest-update-ms")
}

// BenchmarkToolVerdictAtInlineBound judges a result of inlineVerdictBytes
// (client.CheckToolResult with bigToolSchema), the most an Update judges
// where it reads, and reports the cost per KiB.
func BenchmarkToolVerdictAtInlineBound(b *testing.B) {
	res := rowsResult(inlineVerdictBytes, false)
	for b.Loop() {
		if f := client.CheckToolResult("rows", res, json.RawMessage(bigToolSchema)); f != nil {
			b.Fatal(f)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(res)>>10), "µs/KiB")
}
