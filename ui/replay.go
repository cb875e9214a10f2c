package ui

import (
	"cmp"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/media"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings"
)

// replayTick is how often a replay redraws its timeline.
const replayTick = 200 * time.Millisecond

// Replay is the TUI on a recording: the panes of a Model fed by a
// recordings.Player instead of a connection, the timeline in the status
// bar, keys to play, step and jump, and every key that would send to a
// server refused. A jump back gives the Player a new store: the Replay
// then builds a new Model on it, keeping the size, styles, focus and
// filter. Create it with NewReplay; call Close after the program ends.
type Replay struct {
	player *recordings.Player
	keys   ReplayKeys
	inner  *Model
	size   *tea.WindowSizeMsg
}

// replayRebuiltMsg carries the store a jump back built.
type replayRebuiltMsg struct{ store *capture.Store }

// replayTickMsg redraws the timeline.
type replayTickMsg struct{}

// NewReplay returns the TUI on what p plays.
func NewReplay(p *recordings.Player) *Replay {
	r := &Replay{player: p, keys: DefaultReplayKeys()}
	r.inner = r.model(p.Store())
	return r
}

// model builds the Model that shows store.
func (r *Replay) model(store *capture.Store) *Model {
	h := r.player.Header()
	m := New(Config{Store: store, Target: h.Target})
	m.replay, m.idx.lag = r, true
	m.setProxied(h.Proxy) // a proxy's recording: the host is the client
	m.setLink(r.link())
	return m
}

// link is the LinkState of the recorded link, as far as the player knows it.
func (r *Replay) link() client.LinkState {
	return recordedLink(r.player.Header().Transport, r.player.Position().Transport)
}

// setLink shows the panes of a recorded link, and names its streams (an
// empty streams pane says which it is waiting for).
func (m *Model) setLink(state client.LinkState) {
	m.streams.link = streamKindOf(state)
	m.setPanes(panesOf(state))
}

// recordedLink is the LinkState a live link of transport (a transport's
// name, DESIGN.md §5) had, or the one the recording's link line names.
func recordedLink(transport, linked string) client.LinkState {
	ls := client.LinkState{Dialect: mcp.DialectMCP, Transport: linked}
	switch transport {
	case "wt":
		ls.Dialect = mcp.DialectMCPFlow
	case "http":
		ls.Transport = cmp.Or(linked, "Streamable HTTP")
	case "sse":
		ls.Transport = "HTTP+SSE"
	case "tools-http", "tools-ws", "gateway":
		ls.Transport = transport
	case "ws":
		ls.Transport = cmp.Or(linked, "WebSocket")
	}
	return ls
}

// Init starts the Model and waits for the Player.
func (r *Replay) Init() tea.Cmd {
	return tea.Batch(r.inner.Init(), refreshNow, r.waitRebuild(), r.tick())
}

// waitRebuild waits for the store of a jump back.
func (r *Replay) waitRebuild() tea.Cmd {
	ch, ctx := r.player.Rebuilds(), r.inner.ctx
	return func() tea.Msg {
		select {
		case rb := <-ch:
			return replayRebuiltMsg{store: rb.Store}
		case <-ctx.Done():
			return nil
		}
	}
}

// tick redraws the timeline soon while something moves.
func (r *Replay) tick() tea.Cmd {
	return tea.Tick(replayTick, func(time.Time) tea.Msg { return replayTickMsg{} })
}

// Update handles the timeline's keys, refuses the live-only ones, swaps
// the Model after a jump back and hands everything else to the Model.
func (r *Replay) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		r.size = &msg
	case replayRebuiltMsg:
		return r, tea.Batch(r.swap(msg.store), r.waitRebuild())
	case replayTickMsg:
		if link := r.link(); panesOf(link) != r.inner.panes { // the link line named the transport
			r.inner.setLink(link)
		}
		return r, r.tick()
	case tea.KeyPressMsg:
		if cmd, ok := r.handleKey(msg); ok {
			return r, cmd
		}
	}
	_, cmd := r.inner.Update(msg)
	return r, cmd
}

// handleKey runs a timeline key or refuses a live-only one; keys typed in
// the filter, a screen or the help go to the Model.
func (r *Replay) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	m := r.inner
	if m.filtering || m.overlay != nil || m.showHelp || m.quitAsked > 0 {
		return nil, false
	}
	p, k := r.player, r.keys
	pos := p.Position()
	switch {
	case key.Matches(msg, k.Play):
		if pos.Playing {
			p.Pause()
		} else {
			p.Play(pos.Speed)
		}
	case key.Matches(msg, k.Speed):
		p.Play(nextSpeed(pos.Speed))
	case key.Matches(msg, k.StepNext):
		p.Step(1)
	case key.Matches(msg, k.StepBack):
		p.Step(-1)
	case key.Matches(msg, k.Forward):
		p.Seek(time.Second)
	case key.Matches(msg, k.Back):
		p.Seek(-time.Second)
	case key.Matches(msg, k.FarForward):
		p.Seek(10 * time.Second)
	case key.Matches(msg, k.FarBack):
		p.Seek(-10 * time.Second)
	case key.Matches(msg, k.Start):
		p.ToStart()
	case key.Matches(msg, k.End):
		p.ToEnd()
	default:
		for _, b := range m.keys.liveOnly() {
			if key.Matches(msg, b) {
				m.status.setError(fmt.Errorf("replay: read-only (%s needs a live session)", b.Help().Desc))
				return nil, true
			}
		}
		return nil, false
	}
	m.status.err = ""
	return nil, true
}

// nextSpeed is the speed after s: 1× → 10× → at once → 1×.
func nextSpeed(s float64) float64 {
	switch s {
	case recordings.SpeedLive:
		return recordings.SpeedFast
	case recordings.SpeedFast:
		return recordings.SpeedAtOnce
	}
	return recordings.SpeedLive
}

// swap shows store in a new Model, as the old one was shown.
func (r *Replay) swap(store *capture.Store) tea.Cmd {
	old := r.inner
	m := r.model(store)
	m.setStyles(old.styles.Dark, old.styles.Plain)
	if r.size != nil {
		m.setSize(r.size.Width, r.size.Height)
	}
	m.setFocus(old.focus) // onto traffic when the new panes lack it
	m.usePictures(old.styles.Pictures)
	cmds := []tea.Cmd{m.startPictures()}
	if text := old.filterText(); text != "" {
		cmds = append(cmds, m.applyFilter(text))
	}
	_ = old.Close()
	r.inner = m
	// The store was filled before the Model subscribed: read it now.
	return tea.Batch(append(cmds, refreshNow)...)
}

// SetImages shows images in protocol p (Model.SetImages).
func (r *Replay) SetImages(p media.Protocol) { r.inner.SetImages(p) }

// View draws the Model.
func (r *Replay) View() tea.View { return r.inner.View() }

// Close stops the Player and the Model.
func (r *Replay) Close() error {
	r.player.Close()
	return r.inner.Close()
}
