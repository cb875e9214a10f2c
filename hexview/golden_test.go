package hexview

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mcpscope/mcpscope/internal/testkit/goldentest"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/flow"
	"github.com/mcpscope/mcpscope/proto/gateway"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

// seedInitialize is the initialize request of seed 000 §2.1.
const seedInitialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05","capabilities":{},"clientInfo":{"name":"test","version":"1.0"},"transport":{"type":"mcp-flow","version":"0.1","encodings":["cbor","json"]}}}`

// framed is a unit framed and annotated by proto, failing the test on a parse error.
func framed(t testing.TB, unit []byte, parse func([]byte) ([]proto.Field, error)) Dump {
	t.Helper()
	fields, err := parse(unit)
	if err != nil {
		t.Fatalf("framing the test unit: %v", err)
	}
	return Dump{Data: unit, Fields: fields, Size: len(unit)}
}

// controlDump is the seed-000 control frame: length prefix 227 and the JSON body.
func controlDump(t testing.TB) Dump {
	return framed(t, flow.AppendControlFrame(nil, []byte(seedInitialize)), func(b []byte) ([]proto.Field, error) {
		_, _, f, err := flow.ParseControlFrame(b, 0)
		return f, err
	})
}

// execDump is an execution stream: header (request id 42, stream tag 1) and payload.
func execDump(t testing.TB) Dump {
	unit := flow.ExecStreamHeader{RequestID: 42, StreamTag: 1}.Append(nil)
	unit = append(unit, "line 1 of tool output\nline 2\x00\x01"...)
	return framed(t, unit, func(b []byte) ([]proto.Field, error) {
		_, _, f, err := flow.ParseExecStreamHeader(b)
		return f, err
	})
}

// datagramDump is a progress datagram for request 42.
func datagramDump(t testing.TB) Dump {
	unit := flow.DatagramHeader{Channel: flow.ChannelProgress, RequestID: 42}.Append(nil)
	unit = append(unit, `{"progressToken":"t1","progress":0.5,"total":1}`...)
	return framed(t, unit, func(b []byte) ([]proto.Field, error) {
		_, _, f, err := flow.ParseDatagramHeader(b)
		return f, err
	})
}

// gatewayDump is a gateway binary chunk: GUID in .NET order, index 3, 40 payload bytes.
func gatewayDump(t testing.TB) Dump {
	id, err := gateway.ParseGUID("550e8400-e29b-41d4-a716-446655440000")
	if err != nil {
		t.Fatal(err)
	}
	unit := gateway.GatewayChunkHeader{StreamID: id, Index: 3}.Append(nil)
	for i := range 40 {
		unit = append(unit, byte(i*7))
	}
	return framed(t, unit, func(b []byte) ([]proto.Field, error) {
		_, _, f, err := gateway.ParseGatewayChunkHeader(b)
		return f, err
	})
}

// ndjsonDump is one stdio line: a JSON-RPC notification and its LF.
func ndjsonDump(t testing.TB) Dump {
	line := jsonrpc.AppendLine(nil, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return framed(t, line, func(b []byte) ([]proto.Field, error) { return jsonrpc.LineFields(b), nil })
}

// truncatedDump holds the first 64 bytes of a control frame 1 MiB longer.
func truncatedDump(t testing.TB) Dump {
	body := make([]byte, 60+1<<20)
	copy(body, seedInitialize)
	frame := flow.AppendControlFrame(nil, body)
	_, _, fields, _ := flow.ParseControlFrame(frame[:64], 0) // truncated on purpose
	return Dump{Data: frame[:64], Fields: fields, Size: len(frame)}
}

func TestGoldens(t *testing.T) {
	cases := []struct {
		name   string
		dump   func(testing.TB) Dump
		perRow int
	}{
		{"control", controlDump, 16},
		{"exec_stream", execDump, 16},
		{"datagram", datagramDump, 16},
		{"gateway_chunk", gatewayDump, 8},
		{"ndjson_line", ndjsonDump, 16},
		{"truncated", truncatedDump, 32},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.dump(t)
			st := DefaultStyles(true)
			got := "-- render --\n" + ansi.Strip(d.Render(0, d.Rows(c.perRow), c.perRow, st)) +
				"\n-- legend 60 --\n" + ansi.Strip(d.Legend(st, 60)) + "\n"
			goldentest.Check(t, c.name, got)
		})
	}
}

func TestRowLayout(t *testing.T) {
	d := controlDump(t)
	first := ansi.Strip(d.Render(0, 1, 16, DefaultStyles(false)))
	want := `00000000  00 00 00 e3 7b 22 6a 73  6f 6e 72 70 63 22 3a 22  |....{"jsonrpc":"|`
	if first != want {
		t.Fatalf("first row\n got %q\nwant %q", first, want)
	}
	// The last row is short: the hex column is padded so the gutter lines up.
	rows := strings.Split(ansi.Strip(d.Render(0, 100, 16, DefaultStyles(false))), "\n")
	if len(rows) != 15 || strings.Index(rows[14], "|") != strings.Index(rows[0], "|") {
		t.Fatalf("%d rows, last %q", len(rows), rows[len(rows)-1])
	}
	for width, want := range map[int]int{0: 8, 77: 8, 78: 16, 143: 16, 144: 32, 500: 32} {
		if got := BytesPerRow(width); got != want {
			t.Errorf("BytesPerRow(%d) = %d, want %d", width, got, want)
		}
	}
	for _, n := range []int{8, 16, 32} {
		full := Dump{Data: make([]byte, n)}
		if got := ansi.StringWidth(full.Render(0, 1, n, DefaultStyles(true))); got != rowWidth(n) {
			t.Errorf("row of %d bytes is %d wide, BytesPerRow assumes %d", n, got, rowWidth(n))
		}
	}
}

func TestNotHeldLineAndWindow(t *testing.T) {
	d := truncatedDump(t)
	if d.Rows(16) != 5 {
		t.Fatalf("Rows(16) = %d, want 4 rows of data and the not-held line", d.Rows(16))
	}
	got := ansi.Strip(d.Render(3, 10, 16, DefaultStyles(true)))
	want := `00000030  22 2c 22 70 61 72 61 6d  73 22 3a 7b 22 70 72 6f  |","params":{"pro|` + "\n" +
		"… 1,048,576 more bytes not held (capture keeps head and tail)"
	if got != want {
		t.Fatalf("rows 3.. =\n%s\nwant\n%s", got, want)
	}
	one := Dump{Data: []byte{1}, Size: 2, Base: 0x1_0000_0000}
	if got := ansi.Strip(one.Render(0, 2, 8, Styles{})); got != "100000000  01                       |.|\n… 1 more byte not held (capture keeps head and tail)" {
		t.Fatalf("Base past 4 GiB, one byte not held: %q", got)
	}
	for _, w := range []struct{ top, rows, lines int }{{-5, 3, 0}, {-1, 3, 2}, {-1 << 62, 1 << 62, 0}, {3, 1 << 62, 2}, {5, 3, 0}, {1 << 40, 3, 0}, {0, 0, 0}, {0, -1, 0}} {
		got := d.Render(w.top, w.rows, 16, DefaultStyles(true))
		if n := lineCount(got); n != w.lines {
			t.Errorf("Render(top=%d, rows=%d) has %d lines, want %d", w.top, w.rows, n, w.lines)
		}
	}
}

// lineCount is the number of lines of a rendering ("" has none).
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(s, "\n") + 1
}
