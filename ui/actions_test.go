package ui

import (
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
)

func TestKeysCopy(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	f := selectWhere(t, m, isMethod("initialize"))
	if got := clipboardOf(t, press(m, "y")); got != string(bodyOf(f)) {
		t.Errorf("y copied %q, want the JSON body", got)
	}
	press(m, "x")
	if got := clipboardOf(t, press(m, "y")); got != hex.EncodeToString(f.Raw) {
		t.Errorf("y in the hex pane copied %q, want the raw bytes as hex", got)
	}
	press(m, "esc")
	f = selectWhere(t, m, func(f *capture.Frame) bool { return f.Enc == proto.EncCBOR && f.Msg != nil && f.Msg.Error != nil })
	want, _ := jsonrpc.CBORToJSON(bodyOf(f))
	if got := clipboardOf(t, press(m, "y")); got != string(want) {
		t.Errorf("y on a CBOR frame copied %q, want its JSON %q", got, want)
	}
}

// clipboardOf runs a command and returns the text it puts on the clipboard.
func clipboardOf(t *testing.T, cmd tea.Cmd) string {
	t.Helper()
	if cmd == nil {
		t.Fatal("no command")
	}
	msg := cmd()
	if v := reflect.ValueOf(msg); v.Kind() == reflect.String && strings.Contains(fmt.Sprintf("%T", msg), "Clipboard") {
		return v.String()
	}
	t.Fatalf("the command returned %T, not a clipboard message", msg)
	return ""
}

func TestKeysWithoutConnection(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	m.cfg.Demo = true // R, a and o send on the demo only
	for _, k := range []string{"t", "R", "a", "o"} {
		m.status = statusLine{}
		if cmd := press(m, k); cmd != nil || !strings.Contains(m.status.err, "not connected") {
			t.Errorf("%s without a connection: cmd %v, status %q", k, cmd != nil, m.status.err)
		}
	}
	selectWhere(t, m, isMethod("tools/call"))
	if cmd := press(m, "c"); cmd != nil || !strings.Contains(m.status.err, "not connected") {
		t.Errorf("c without a connection: status %q", m.status.err)
	}
	selectWhere(t, m, isMethod("notifications/initialized"))
	if press(m, "c"); !strings.Contains(m.status.err, "no client request") {
		t.Errorf("c on a notification: status %q", m.status.err)
	}
	if cmd := press(m, "r"); cmd != nil {
		t.Error("r without a dialer must do nothing")
	}
	for _, k := range []string{"q", "ctrl+c"} {
		if cmd := press(m, k); cmd == nil || !isQuit(cmd()) {
			t.Errorf("%s did not quit", k)
		}
	}
}

// isQuit reports whether msg ends the program.
func isQuit(msg tea.Msg) bool {
	_, ok := msg.(tea.QuitMsg)
	return ok
}

func TestKeysReconnectDials(t *testing.T) {
	dials := 0
	m := New(Config{Store: capture.NewStore(capture.Config{}), Dial: func(sink capture.Sink) (Link, error) {
		dials++
		if _, ok := sink.(capture.Tap); !ok {
			t.Errorf("the dialer got a %T", sink)
		}
		return Link{}, fmt.Errorf("dial %d refused", dials)
	}})
	t.Cleanup(func() { _ = m.Close() })
	m.Init()
	press(m, "r")
	if dials != 2 || m.conn.gen != 2 || !strings.Contains(m.status.err, "dial 2 refused") {
		t.Errorf("after r: %d dials, generation %d, status %q", dials, m.conn.gen, m.status.err)
	}
}

func TestMouse(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	body := m.layout.body(paneTraffic)
	m.Update(tea.MouseClickMsg{X: 5, Y: body.y + 1, Button: tea.MouseLeft}) // the first row under the titles
	top := selectedFrame(t, m).Seq
	m.Update(tea.MouseClickMsg{X: 5, Y: body.y + 6, Button: tea.MouseLeft})
	if f := selectedFrame(t, m); f.Seq != top+5 || m.traffic.follow {
		t.Errorf("click: seq %d follow %v, want %d", f.Seq, m.traffic.follow, top+5)
	}
	m.Update(tea.MouseWheelMsg{X: 5, Y: body.y + 2, Button: tea.MouseWheelUp})
	if f := selectedFrame(t, m); f.Seq != top+5-wheelRows {
		t.Errorf("wheel up: seq %d, want %d", f.Seq, top+5-wheelRows)
	}
	det := m.layout.body(paneDetail)
	m.Update(tea.MouseWheelMsg{X: det.x + 1, Y: det.y + 1, Button: tea.MouseWheelDown})
	if m.focus != paneTraffic || selectedFrame(t, m).Seq != top+5-wheelRows {
		t.Error("the wheel over the detail pane must scroll it alone")
	}
	hexArea := m.layout.area[paneHex]
	m.Update(tea.MouseClickMsg{X: hexArea.x + 2, Y: hexArea.y + 2, Button: tea.MouseLeft})
	if m.focus != paneHex {
		t.Errorf("click on the hex pane: focus %s", paneNames[m.focus])
	}
	m.Update(tea.MouseClickMsg{X: m.tabX(paneStderr), Y: 0, Button: tea.MouseLeft})
	if m.focus != paneStderr {
		t.Errorf("click on the Stderr tab: focus %s", paneNames[m.focus])
	}
}

// tabX is a column inside the tab of p.
func (m *Model) tabX(p paneID) int {
	for x := range m.width {
		if q, ok := m.tabAt(x); ok && q == p {
			return x
		}
	}
	return -1
}

func TestBackgroundAndSize(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	if !m.layout.split {
		t.Fatal("140×40 must be split")
	}
	m.Update(tea.BackgroundColorMsg{Color: lightGray{}})
	if m.styles.Dark {
		t.Errorf("a light background kept the dark styles")
	}
	m.Update(tea.WindowSizeMsg{Width: 90, Height: 40})
	if m.layout.split || !m.layout.visible(paneTraffic) || m.layout.visible(paneDetail) {
		t.Error("90 columns must show the focused pane alone")
	}
	press(m, "enter")
	if !m.layout.visible(paneDetail) || m.layout.visible(paneTraffic) {
		t.Error("enter in tabs must show the detail tab")
	}
}

// lightGray is a light background colour.
type lightGray struct{}

func (lightGray) RGBA() (r, g, b, a uint32) { return 0xeeee, 0xeeee, 0xeeee, 0xffff }

func TestErrorMsgShown(t *testing.T) {
	m := newTestModel(t, sampleStore(t), 140, 40)
	m.Update(ErrorMsg{Err: errors.New("no answer left for elicitation/create")})
	if !strings.Contains(m.View().Content, "no answer left for elicitation/create") {
		t.Error("an ErrorMsg is not in the status bar")
	}
}

// y on a huge frame copies its first maxCopy bytes, not 128 MiB of hex in
// one OSC 52 sequence, and the status line says what was left out.
func TestKeysCopyIsCapped(t *testing.T) {
	st := capture.NewStore(capture.Config{MaxBytes: 512 << 20})
	big := make([]byte, 3*maxCopy)
	for i := range big {
		big[i] = 'a' + byte(i%26)
	}
	st.Append(&capture.Frame{Time: t0, Dir: capture.In, Conn: "wt", Chan: capture.Channel{Kind: capture.Stream, ReqID: 1, Tag: 1},
		Raw: big, Size: len(big), Enc: proto.EncBinary})
	text := `{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("é", maxCopy) + `"}}` + "\n"
	st.Append(&capture.Frame{Time: t0, Dir: capture.In, Conn: "stdio", Chan: capture.Channel{Kind: capture.Control},
		Raw: []byte(text), Size: len(text), Fields: jsonrpc.LineFields([]byte(text)), Enc: proto.EncJSON})
	m := newTestModel(t, st, 140, 40)

	m.traffic.selectSeq(1)
	m.syncSelection()
	if got := clipboardOf(t, press(m, "y")); len(got) != 2*maxCopy || got != hex.EncodeToString(big[:maxCopy]) {
		t.Errorf("y on a %d-byte stream chunk copied %d hex digits, want the first %d bytes", len(big), len(got), maxCopy)
	}
	if want := "copied the first 1.0 MiB of 3.0 MiB of frame 1 as hex"; !strings.Contains(m.status.message, want) {
		t.Errorf("status %q, want it to say %q", m.status.message, want)
	}

	m.traffic.selectSeq(2)
	m.syncSelection()
	got := clipboardOf(t, press(m, "y"))
	if len(got) > maxCopy || len(got) < maxCopy-4 || !strings.HasPrefix(text, got) || !utf8.ValidString(got) {
		t.Errorf("y on a %d-byte message copied %d bytes, want its first %d cut at a character", len(text), len(got), maxCopy)
	}
	if !strings.Contains(m.status.message, "copied the first 1.0 MiB of 2.0 MiB of frame 2") {
		t.Errorf("status %q", m.status.message)
	}
}
