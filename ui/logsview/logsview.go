// Package logsview is the Log view: the server's log messages (notifications/message, and MCP-Flow log datagrams) on every transport, filtered by level and logger, with logging/setLevel from a key.
package logsview

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// maxLoggerFilter bounds the text of the logger filter.
const maxLoggerFilter = 128

// Deprecated is the mark the view shows in 2026-07-28, where SEP-2577
// deprecates logging.
const Deprecated = "logging is deprecated as of 2026-07-28 (SEP-2577): servers should migrate to stderr logging (for STDIO transports) or OpenTelemetry"

// View is the screen of the book: the lines that pass the filters,
// newest at the bottom, or the whole data of one line.
type View struct {
	h    screen.Host
	b    *Book
	keys keyMap

	min       int // the lowest level shown, an index of Levels
	logger    textinput.Model
	typing    bool   // the logger filter has the keys
	selSeq    uint64 // the selected line, by its frame's Seq
	follow    bool   // the selection stays on the newest line
	detail    bool   // the whole data of the selected line
	resume    bool   // the detail pinned a followed selection: follow again when it closes
	detailTop int

	shown    []int // book positions that pass the filters (cache)
	shownKey filterKey

	w, h2 int
}

// filterKey is what the cached filtering depends on.
type filterKey struct {
	total  uint64
	min    int
	logger string
}

// Open returns the view of b.
func Open(h screen.Host, b *Book) *View {
	in := textinput.New()
	in.Prompt = "logger: "
	in.Placeholder = "part of a logger's name"
	in.CharLimit = maxLoggerFilter
	in.SetStyles(h.Styles().Input)
	return &View{h: h, b: b, keys: defaultKeys(), logger: in, follow: true}
}

// Title is the view's title line.
func (v *View) Title() string { return "Log · the server's log messages" }

// SetSize gives the view its body size.
func (v *View) SetSize(w, h int) {
	v.w, v.h2 = w, h
	v.logger.SetWidth(max(w-12, 10))
}

// Update handles a key: the filters, the selection, the detail, the
// server's level; esc steps back and closes.
func (v *View) Update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if v.typing {
			var cmd tea.Cmd
			v.logger, cmd = v.logger.Update(msg)
			return cmd, false
		}
		return nil, false
	}
	if v.typing {
		return v.typeKey(k), false
	}
	if v.detail {
		return v.detailKey(k), false
	}
	km := v.keys
	switch {
	case key.Matches(k, km.Close):
		if v.logger.Value() != "" {
			v.logger.SetValue("")
			return nil, false
		}
		return nil, true
	case key.Matches(k, km.More):
		v.min = min(v.min+1, len(Levels)-1)
	case key.Matches(k, km.Less):
		v.min = max(v.min-1, 0)
	case key.Matches(k, km.Logger):
		v.typing = true
		return v.logger.Focus(), false
	case key.Matches(k, km.Open):
		if l, ok := v.selected(); ok {
			// The detail shows this line, whatever arrives while it is
			// open; closing it follows the newest line again if the
			// selection did.
			v.detail, v.detailTop = true, 0
			v.resume, v.follow, v.selSeq = v.follow, false, l.Seq
		}
	case key.Matches(k, km.SetLevel):
		return v.setLevel(), false
	default:
		if mv, ok := nav.Of(k, v.h.Nav(), max(v.h2-2, 1)); ok {
			v.move(mv)
			return nil, false
		}
		return screen.NotAKey(k), false
	}
	return nil, false
}

// typeKey edits the logger filter, which applies as it is typed.
func (v *View) typeKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, v.keys.FilterDone):
		v.typing = false
		v.logger.Blur()
		return nil
	case key.Matches(k, v.keys.Close):
		v.typing = false
		v.logger.Blur()
		v.logger.SetValue("")
		return nil
	}
	var cmd tea.Cmd
	v.logger, cmd = v.logger.Update(k)
	return cmd
}

// detailKey scrolls the whole data of a line; esc or enter returns.
func (v *View) detailKey(k tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(k, v.keys.Close), key.Matches(k, v.keys.Open):
		v.detail = false
		v.follow, v.resume = v.follow || v.resume, false
	default:
		if mv, ok := nav.Of(k, v.h.Nav(), max(v.h2-2, 1)); ok {
			v.detailTop = mv.Apply(v.detailTop, max(len(v.detailLines()), 1))
			return nil
		}
		return screen.NotAKey(k)
	}
	return nil
}

// setLevel asks the server for the messages at the lowest level shown and
// above: logging/setLevel up to 2025-11-25; in 2026-07-28, which has no
// setLevel, the session puts the level in the _meta of every request that
// follows.
func (v *View) setLevel() tea.Cmd {
	s, err := v.h.Session()
	if err != nil {
		return errorCmd(fmt.Errorf("the log level was not set: %w", err))
	}
	level := Levels[v.min]
	switch {
	case s.Era() == client.EraModern:
		s.SetLogLevel(level)
		v.h.Note("2026-07-28 has no logging/setLevel: each request from now on carries the level " + level + " in _meta")
		return nil
	case s.HandshakeFree():
		return errorCmd(errors.New("this transport has no session to set a log level on"))
	}
	return SetLevelCmd(v.h.Context(), s, level)
}

// SetLevelCmd sends logging/setLevel with level and makes it the
// session's level once the server agreed: a refusal leaves it unset.
func SetLevelCmd(ctx context.Context, s *client.Session, level string, opts ...client.CallOption) tea.Cmd {
	return func() tea.Msg {
		res, err := s.Call(ctx, mcp.MethodLoggingSetLevel, mcp.SetLevelParams{Level: level}, opts...)
		if err == nil {
			s.SetLogLevel(level)
		}
		return screen.CallDoneMsg{Method: mcp.MethodLoggingSetLevel, Result: res, Err: err}
	}
}

// errorCmd reports err in the status line.
func errorCmd(err error) tea.Cmd {
	return func() tea.Msg { return screen.ErrorMsg{Err: err} }
}

// visible returns the book positions of the lines that pass the filters,
// oldest first.
func (v *View) visible() []int {
	fk := filterKey{total: v.b.Total(), min: v.min, logger: strings.ToLower(v.logger.Value())}
	if v.shown != nil && fk == v.shownKey {
		return v.shown
	}
	v.shown = v.shown[:0]
	for i := range v.b.Len() {
		l := v.b.At(i)
		if Rank(l.Level) < fk.min {
			continue
		}
		if fk.logger != "" && !strings.Contains(strings.ToLower(l.Logger), fk.logger) {
			continue
		}
		v.shown = append(v.shown, i)
	}
	if v.shown == nil {
		v.shown = []int{}
	}
	v.shownKey = fk
	return v.shown
}

// cursor is the position of the selection among the visible lines, and
// whether the selected line is among them.
func (v *View) cursor(shown []int) (int, bool) {
	if len(shown) == 0 {
		return 0, false
	}
	if v.follow {
		return len(shown) - 1, true
	}
	lo, hi := 0, len(shown)
	for lo < hi { // the lines are in Seq order
		mid := (lo + hi) / 2
		if v.b.At(shown[mid]).Seq < v.selSeq {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return min(lo, len(shown)-1), lo < len(shown) && v.b.At(shown[lo]).Seq == v.selSeq
}

// selected is the selected line.
func (v *View) selected() (Line, bool) {
	shown := v.visible()
	i, ok := v.cursor(shown)
	if len(shown) == 0 {
		return Line{}, false
	}
	return v.b.At(shown[i]), ok || v.follow
}

// move moves the selection; reaching the newest line follows new ones.
func (v *View) move(mv nav.Move) {
	shown := v.visible()
	if len(shown) == 0 {
		return
	}
	i, present := v.cursor(shown)
	i, ok := mv.ApplyFrom(i, len(shown), present)
	if !ok {
		return
	}
	v.selSeq = v.b.At(shown[i]).Seq
	v.follow = i == len(shown)-1
}
