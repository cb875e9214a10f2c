package ui

import (
	"context"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/bench"
	"github.com/mcpscope/mcpscope/ui/compose"
	"github.com/mcpscope/mcpscope/ui/contentsave"
	"github.com/mcpscope/mcpscope/ui/explore"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// Model is the root of the UI: it owns the panes, the focus, the layout
// and the connection, and routes every message. Create it with New and
// hand it to tea.NewProgram; call Close after the program ends.
type Model struct {
	cfg    Config
	keys   KeyMap
	styles *look.Styles
	input  textinput.Model

	ctx         context.Context // ends with Close: stops the refresh loop and calls
	stop        context.CancelFunc
	signal      <-chan struct{}
	unsubscribe func()
	lastRefresh time.Time
	// pass numbers the refresh pass under way, which passing says there
	// is; passHeld counts its slices read since the panes were last
	// brought up to date, and hold says the last Update only read a slice
	// of it, so View gives the screen last drawn, shown (refresh.go).
	pass     uint64
	passing  bool
	passHeld int
	hold     bool
	shown    *tea.View
	authSeq  uint64 // the last OAuth checklist shown (AuthStepsMsg.Seq)

	idx       *index
	traffic   *trafficPane
	streams   *streamsPane
	datagrams *datagramsPane
	detail    *detailPane
	hex       *hexPane
	stderr    *stderrPane

	panes         paneSet // the panes this connection can fill
	focus         paneID
	width, height int
	layout        layout
	filtering     bool // the filter input has the keys
	saving        bool // ... asking for the file to save the capture to
	showHelp      bool
	helpTop       int // the first line of the help screen shown
	filterGen     int

	overlay   screen.Screen // open over the panes, or nil
	wireFront bool          // with a screen open, the panes have the keys (and, when narrow, the body)

	composed compose.History // what the composer sent in this run, newest first
	benchRun bench.Runner    // the engine of the benches (nil: load.Run); tests set their double

	interactive explore.Discovery // what the server said of interactive sessions (seed 002), per connection

	conn      connection
	status    statusLine
	quitting  bool
	replay    *Replay                   // the replay this Model shows a recording for, or nil
	attach    *Attach                   // the attach this Model shows a proxied session for, or nil
	asked     func(text string) tea.Cmd // what the input line asks for, when neither a filter nor a file to save to
	quitAsked int                       // requests in flight when quitting was asked; 0 when not asking
	savePick  contentsave.Picker        // which of the selected frame's items the save-content key offers next

	picturesLoop bool // the pictures' Board is waited on (startPictures)
}

// New returns the root model for cfg. It subscribes to the store at once,
// so that no change is missed before the program starts.
func New(cfg Config) *Model {
	if cfg.Store == nil {
		cfg.Store = capture.NewStore(capture.Config{})
	}
	ctx, stop := context.WithCancel(context.Background())
	sig, unsubscribe := cfg.Store.Subscribe()
	st := look.NewStyles(true)
	x := newIndex()
	m := &Model{
		cfg: cfg, keys: DefaultKeyMap(), styles: &st, input: textinput.New(),
		ctx: ctx, stop: stop, signal: sig, unsubscribe: unsubscribe,
		idx: x, panes: allPanes(),
	}
	m.traffic = newTrafficPane(cfg.Store, x, m.styles)
	m.streams = newStreamsPane(x, m.styles)
	m.datagrams = newDatagramsPane(&x.board, &x.progress, m.styles)
	m.detail = newDetailPane(x, m.styles)
	m.detail.streamOf = cfg.Store.Stream
	m.hex = newHexPane(m.styles, m.keys)
	m.stderr = newStderrPane(&x.stderr, m.styles)
	m.input.SetStyles(st.Input)
	m.input.Prompt = filterPrompt
	m.input.Placeholder = filterPlaceholder
	m.conn.dialect = mcp.DialectMCP
	m.setSize(80, 24)
	return m
}

// Init asks for the terminal's background colour, connects and starts
// listening to the store.
func (m *Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.waitRefresh(), m.startPictures()}
	if m.cfg.Dial != nil {
		cmds = append(cmds, m.dial())
	}
	return tea.Batch(cmds...)
}

// Close ends the model's background work and closes the connection (on
// MCP-Flow the session sends $/shutdown and drains). It is safe to call
// more than once.
func (m *Model) Close() error {
	m.stop()
	m.unsubscribe()
	link := m.conn.link
	m.conn.link = Link{}
	return closeLink(link)
}

// pane returns the pane with id p.
func (m *Model) pane(p paneID) pane {
	switch p {
	case paneStreams:
		return m.streams
	case paneDatagrams:
		return m.datagrams
	case paneDetail:
		return m.detail
	case paneHex:
		return m.hex
	case paneStderr:
		return m.stderr
	}
	return m.traffic
}

// pane is what the root asks of every pane.
type pane interface {
	SetSize(w, h int)
	Render(w, h int, focused bool) string
	HandleKey(msg tea.KeyPressMsg, k KeyMap) bool
	Title() string
	scroll(v nav.Move)
}

// setSize lays the panes out for a w×h screen.
func (m *Model) setSize(w, h int) {
	m.width, m.height = w, h
	m.layout = computeLayout(w, h, m.focus, m.panes, m.driving())
	m.traffic.strip = !m.layout.visible(paneDatagrams) // the board shows where its pane does not
	for p := range paneCount {
		b := m.layout.body(p)
		if b.h > 0 {
			m.pane(p).SetSize(b.w, b.h)
		}
	}
	m.input.SetWidth(max(w-4, 10))
	m.sizeOverlay()
	m.syncSelection()
}

// setFocus moves the focus, which may change the layout (tabs, stderr);
// a pane absent from this connection passes the focus to traffic.
func (m *Model) setFocus(p paneID) {
	if p < 0 || p >= paneCount || !m.panes[p] {
		p = paneTraffic
	}
	m.focus = p
	m.setSize(m.width, m.height)
}

// setPanes keeps only the panes in s, moving the focus off a pane that
// goes.
func (m *Model) setPanes(s paneSet) {
	m.panes = s
	m.setFocus(m.focus)
}

// syncSelection shows the traffic pane's selection in the detail and hex
// panes, building the detail only when it is visible.
func (m *Model) syncSelection() {
	f, _ := m.traffic.selected()
	m.detail.SetFrame(f)
	m.hex.SetFrame(f)
	if m.layout.visible(paneDetail) {
		m.detail.prepare()
	}
}

// setStyles switches to the light or dark styles, the plain ones when the
// terminal shows no colour.
func (m *Model) setStyles(dark, plain bool) {
	pics := m.styles.Pictures
	if plain {
		*m.styles = look.NewPlainStyles(dark)
	} else {
		*m.styles = look.NewStyles(dark)
	}
	m.styles.Pictures = pics
	m.input.SetStyles(m.styles.Input)
	m.detail.restyle()
	m.syncSelection()
}
