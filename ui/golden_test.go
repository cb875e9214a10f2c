package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// selectWhere selects the first frame of the sample store that ok accepts.
func selectWhere(t *testing.T, m *Model, ok func(*capture.Frame) bool) *capture.Frame {
	t.Helper()
	for _, f := range m.cfg.Store.Window(1, m.cfg.Store.Len()) {
		if ok(f) {
			m.traffic.selectSeq(f.Seq)
			m.syncSelection()
			return f
		}
	}
	t.Fatal("no frame of the sample store matches")
	return nil
}

// isMethod matches the request with a method.
func isMethod(method string) func(*capture.Frame) bool {
	return func(f *capture.Frame) bool { return f.Msg != nil && f.Msg.Method == method }
}

func TestGoldenTraffic(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	m.traffic.dialect = mcp.DialectMCPFlow
	golden(t, "traffic", m.traffic.Render(100, 24, true))
	golden(t, "traffic_narrow", m.traffic.Render(60, 24, false))
}

func TestGoldenStreams(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	m.cfg.Store.Append(streamChunk(t0.Add(time.Second), 9, 2, make([]byte, 100)))
	m.cfg.Store.Append(streamChunk(t0.Add(2*time.Second), 9, 2, make([]byte, 300)))
	m.cfg.Store.MarkStream(capture.StreamKey{Conn: "wt", ReqID: 11, Tag: 1}, capture.StreamReset, nil)
	m.Update(refreshMsg{at: t0})
	golden(t, "streams", m.streams.Render(90, 6, true))
}

func TestGoldenDatagrams(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	golden(t, "datagrams", m.datagrams.Render(90, 8, true))
}

func TestGoldenDetailJSON(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	selectWhere(t, m, isMethod("initialize"))
	m.detail.SetSize(70, 20)
	m.detail.prepare()
	golden(t, "detail_json", m.detail.Render(70, 20, true))
}

func TestGoldenDetailCBOR(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	selectWhere(t, m, func(f *capture.Frame) bool { return f.Msg != nil && f.Msg.Kind() == jsonrpc.KindError })
	m.detail.dialect = mcp.DialectMCPFlow
	m.detail.SetSize(110, 24)
	m.detail.prepare()
	golden(t, "detail_cbor_wide", m.detail.Render(110, 24, true))
	m.detail.SetSize(60, 30)
	m.detail.prepare()
	golden(t, "detail_cbor_narrow", m.detail.Render(60, 30, true))
}

func TestGoldenDetailDecodeError(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	selectWhere(t, m, func(f *capture.Frame) bool { return f.Err != nil })
	m.detail.SetSize(80, 12)
	m.detail.prepare()
	golden(t, "detail_error", m.detail.Render(80, 12, true))
}

func TestGoldenDetailDatagram(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	selectWhere(t, m, func(f *capture.Frame) bool { return f.Chan.Kind == capture.Datagram })
	m.detail.SetSize(100, 14)
	m.detail.prepare()
	golden(t, "detail_datagram", m.detail.Render(100, 14, true))
}

func TestGoldenHex(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	selectWhere(t, m, isMethod("initialize"))
	m.hex.SetSize(80, 6)
	golden(t, "hex", m.hex.Render(80, 6, true))
	m.hex.scroll(nav.Move{End: true})
	golden(t, "hex_end", m.hex.Render(80, 6, true))
}

func TestGoldenStderr(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	golden(t, "stderr", m.stderr.Render(50, 4, true))
}

func TestGoldenScreens(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 36)
	m.traffic.dialect = mcp.DialectMCPFlow
	golden(t, "screen_split", m.View().Content)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	golden(t, "screen_tabs", m.View().Content)
	press(m, "?")
	golden(t, "screen_help", m.View().Content)
}

// TestTinyScreens draws the whole screen at sizes too small for the panes.
func TestTinyScreens(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	for _, size := range [][2]int{{1, 1}, {0, 0}, {10, 4}, {30, 8}, {109, 23}, {110, 24}} {
		m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		for range paneCount {
			lines := strings.Split(m.View().Content, "\n")
			if len(lines) != max(size[1], chromeLines) {
				t.Errorf("%v focus %s: %d lines", size, paneNames[m.focus], len(lines))
			}
			press(m, "tab")
		}
	}
}

// TestRenderSizes checks every pane fills exactly its area, whatever the size.
func TestRenderSizes(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	selectWhere(t, m, isMethod("tools/call"))
	for _, w := range []int{1, 10, 45, 80, 200} {
		for _, h := range []int{1, 3, 20} {
			for p := range paneCount {
				pn := m.pane(p)
				pn.SetSize(w, h)
				m.detail.prepare()
				lines := strings.Split(pn.Render(w, h, true), "\n")
				if len(lines) != h {
					t.Errorf("%s at %dx%d: %d lines", paneNames[p], w, h, len(lines))
				}
			}
		}
	}
}
