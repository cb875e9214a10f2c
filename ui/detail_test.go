package ui

import (
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
)

// deepDepth is how deep the hostile notifications nest: just under
// encoding/json's limit of 10,000, so that they are valid JSON.
const deepDepth = 9_990

// deepFrame is a notification of about size bytes whose params nest
// deepDepth arrays deep.
func deepFrame(t testing.TB, at time.Time, size int) *capture.Frame {
	t.Helper()
	pad := strings.Repeat("x", max(size-2*deepDepth-80, 1))
	params := json.RawMessage(`{"v":` + strings.Repeat("[", deepDepth) + `"` + pad + `"` + strings.Repeat("]", deepDepth) + `}`)
	return controlFrame(t, capture.In, at, proto.EncJSON, notification(t, "notifications/message", params))
}

// flatFrame is a notification of about size bytes whose params are a
// flat list of short strings.
func flatFrame(t testing.TB, at time.Time, size int) *capture.Frame {
	t.Helper()
	items := make([]string, max(size/12, 1))
	for i := range items {
		items[i] = "abcdefghi"
	}
	return controlFrame(t, capture.In, at, proto.EncJSON, notification(t, "notifications/message", map[string]any{"v": items}))
}

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Three 20 KB notifications nested 9,990 deep: selecting one, scrolling
// its detail and drawing the screen each cost a small multiple of the
// frame's size (indenting them with encoding/json made 200 MB each and
// froze the UI for seconds per key press).
func TestDetailDeepFramesCostTheirSize(t *testing.T) {
	const size = 20 << 10
	st := capture.NewStore(capture.Config{})
	c := &clock{}
	st.Append(flatFrame(t, c.next(), size))
	for range 3 {
		st.Append(deepFrame(t, c.next(), size))
	}
	m := newTestModel(t, st, 200, 60)
	if !m.layout.visible(paneDetail) {
		t.Fatal("the detail pane is not shown in the split layout")
	}
	const limit = 128 * size
	check := func(what string, fn func()) {
		t.Helper()
		n := allocated(fn)
		t.Logf("%s: %d KiB", what, n>>10)
		if n > limit {
			t.Errorf("%s allocated %d KiB, over %d KiB for %d KiB frames", what, n>>10, limit>>10, size>>10)
		}
	}
	for _, k := range []string{"k", "k", "k", "j", "j"} {
		check("pressing "+k+" in the traffic pane", func() {
			press(m, k)
			_ = m.View()
		})
	}
	press(m, "enter")
	for _, k := range []string{"pgdown", "end", "pgup", "home"} {
		check("pressing "+k+" in the detail pane", func() {
			press(m, k)
			_ = m.View()
		})
	}
	if n := m.detail.content.rowCount(); n > 2*size {
		t.Errorf("the detail of a %d KiB frame has %d rows", size>>10, n)
	}
}

// Rendering the detail a window at a time gives the rows of rendering it
// whole, whatever the window: a CBOR result beside its diagnostic
// notation, a JSON request, a deep notification. (Colour codes may be
// split differently at a window's edge.)
func TestDetailWindowsMatchTheWhole(t *testing.T) {
	st := look.NewStyles(true)
	frames := []*capture.Frame{
		controlFrame(t, capture.In, t0, proto.EncCBOR, result(t, 7, map[string]any{"content": []any{map[string]any{"type": "text", "text": strings.Repeat("long text ", 30)}}})),
		controlFrame(t, capture.Out, t0, proto.EncJSON, request(t, 8, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"a": []any{1, 2, 3}, "b": "日本語のテキスト"}})),
		deepFrame(t, t0, 20<<10),
	}
	for _, f := range frames {
		for _, w := range []int{60, 120} {
			c := detailContent(detailInput{f: f, dialect: mcp.DialectMCPFlow, st: &st}, w)
			all := c.rows(0, c.rowCount())
			if body := strings.Join(all, ""); !strings.Contains(body, "\x1b[38;") {
				t.Errorf("width %d: the JSON is not coloured: %q", w, body)
			}
			if len(all) != c.rowCount() {
				t.Fatalf("width %d: %d rows, %d rendered", w, c.rowCount(), len(all))
			}
			for _, h := range []int{1, 3, 7} {
				for from := 0; from < len(all); from += h {
					got := c.rows(from, h)
					want := all[from:min(from+h, len(all))]
					if ansi.Strip(strings.Join(got, "\n")) != ansi.Strip(strings.Join(want, "\n")) {
						t.Fatalf("width %d, rows %d+%d:\n%q\nwant\n%q", w, from, h, got, want)
					}
				}
			}
		}
	}
}

// The rows of text laid out for a width are those of wrapping it whole,
// whichever characters it holds: ASCII, wide characters, tabs (at their
// stops of 8), long lines.
func TestTextRowsWrapAsHardwrap(t *testing.T) {
	long := strings.Repeat("abc def ", 40)
	for _, text := range []string{
		"", "short", long, "日本語のテキスト" + strings.Repeat("字", 50), "a\tb\tc" + long, "x\n\n" + long + "\n" + long[:37],
	} {
		for _, w := range []int{1, 7, 40} {
			want := strings.Split(ansi.Hardwrap(look.ExpandTabs(text), w, true), "\n")
			r := newTextRows(text, w, nil)
			if got := r.rows(0, r.rowCount()); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("width %d, %q:\n%q\nwant\n%q", w, text, got, want)
			}
		}
	}
}

// Server text in a frame that did not decode reaches the detail pane made
// safe: its bytes are shown, escape sequences are not sent.
func TestDetailSanitizesServerText(t *testing.T) {
	raw := []byte("\x1b]0;pwned\x07\x1b[2J not json\n")
	st := capture.NewStore(capture.Config{})
	st.Append(&capture.Frame{Time: t0, Dir: capture.In, Conn: "stdio", Chan: capture.Channel{Kind: capture.Control},
		Raw: raw, Size: len(raw), Fields: jsonrpc.LineFields(raw), Enc: proto.EncJSON, Err: errors.New("not JSON: \x1b]0;x\x07")})
	st.Append(stderrFrame(t0, "\x1b]52;c;aGk=\x07 stderr"))
	m := newTestModel(t, st, 200, 60)
	for _, seq := range []uint64{1, 2} {
		m.traffic.selectSeq(seq)
		m.syncSelection()
		out := m.detail.Render(120, 40, true)
		if strings.Contains(out, "\x1b]") || strings.Contains(out, "\x07") || strings.Contains(out, "\x1b[2J") {
			t.Errorf("frame %d: the detail pane sends the server's escape sequences: %q", seq, out)
		}
		if !strings.Contains(out, `\x1b]`) {
			t.Errorf("frame %d: the detail pane does not show the escaped bytes: %q", seq, out)
		}
	}
}

// BenchmarkDetailDeepFrame lays out and draws the detail of a 20 KB
// notification nested 9,990 deep and of a flat one of the same size,
// alternately, and reports the time of each and their ratio.
func BenchmarkDetailDeepFrame(b *testing.B) {
	const size = 20 << 10
	frames := []*capture.Frame{flatFrame(b, t0, size), deepFrame(b, t0, size)}
	st := look.NewStyles(true)
	x := newIndex()
	var spent [2]time.Duration
	for b.Loop() {
		for i, f := range frames {
			start := time.Now()
			p := newDetailPane(x, &st)
			p.SetSize(100, 50)
			p.SetFrame(f)
			p.prepare()
			_ = p.Render(100, 50, true)
			spent[i] += time.Since(start)
		}
	}
	n := float64(b.N)
	b.ReportMetric(float64(spent[0].Nanoseconds())/n, "ns/op-flat")
	b.ReportMetric(float64(spent[1].Nanoseconds())/n, "ns/op-deep")
	b.ReportMetric(float64(spent[1])/float64(spent[0]), "ratio")
}
