// Package subsview is the Subscriptions view: the resources subscribed to (resources/subscribe, or subscriptions/listen in 2026-07-28), each with its update count and last update, notifications/resources/updated linked, a re-read in one key.
package subsview

import (
	"encoding/json"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// FrameFilter is what a Host may offer beyond screen.Host: the traffic
// filtered by a filter text, the keys handed to the traffic pane (as
// ShowFrames does for a request's frames).
type FrameFilter interface {
	ShowFilter(text string) tea.Cmd
}

// UpdatesFilter is the traffic filter of the updates of uri.
func UpdatesFilter(uri string) string {
	return mcp.MethodNotifyResourceUpdated + " uri:" + uri
}

// readMsg carries the answer of a re-read.
type readMsg struct {
	gen int
	uri string
	res json.RawMessage
	err error
}

// View is the screen of the book: the subscribed resources, or the
// answer of a re-read.
type View struct {
	h    screen.Host
	b    *Book
	keys keyMap

	sel  int
	out  *look.Outcome // the answer of the last re-read, while shown
	read string        // the URI of the re-read in flight or shown
	gen  int

	w, hgt int
}

// Open returns the view of b.
func Open(h screen.Host, b *Book) *View {
	return &View{h: h, b: b, keys: defaultKeys()}
}

// Title is the view's title line.
func (v *View) Title() string {
	if v.read != "" {
		return "Subscriptions · resources/read " + look.OneLine(v.read)
	}
	return "Subscriptions · resources/subscribe and notifications/resources/updated"
}

// SetSize gives the view its body size.
func (v *View) SetSize(w, h int) {
	v.w, v.hgt = w, h
	if v.out != nil {
		v.out.SetSize(w, h)
	}
}

// Update handles a key and the answers of the view's requests.
func (v *View) Update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case readMsg:
		if msg.gen == v.gen && v.read == msg.uri {
			v.out = look.NewOutcome(mcp.MethodResourcesRead, msg.res, msg.err, v.h.Dialect(), v.h.Styles())
			v.out.SetSize(v.w, v.hgt)
		}
		return nil, false
	case ToggledMsg:
		v.h.Note(msg.Text())
		return nil, false
	case tea.KeyPressMsg:
		return v.key(msg)
	}
	return nil, false
}

// key handles a key of the list, or of the re-read shown.
func (v *View) key(k tea.KeyPressMsg) (tea.Cmd, bool) {
	km := v.keys
	if v.read != "" {
		switch {
		case key.Matches(k, km.Close):
			v.read, v.out = "", nil
			v.gen++
		case key.Matches(k, km.Reread):
			return v.reread(v.read), false
		default:
			if mv, ok := nav.Of(k, v.h.Nav(), max(v.hgt-1, 1)); ok && v.out != nil {
				v.out.Scroll(mv)
				return nil, false
			}
			return screen.NotAKey(k), false
		}
		return nil, false
	}
	list := v.b.Resources()
	r := v.selected()
	switch {
	case key.Matches(k, km.Close):
		return nil, true
	case r == nil && (key.Matches(k, km.Open) || key.Matches(k, km.Reread) || key.Matches(k, km.Unsubscribe) || key.Matches(k, km.Subscribe) || key.Matches(k, km.Updates)):
		return errorCmd(errNone), false
	case key.Matches(k, km.Open), key.Matches(k, km.Reread):
		return v.reread(r.URI), false
	case key.Matches(k, km.Unsubscribe):
		if !Subscribed(v.h, r.URI) {
			return errorCmd(notSubscribed(r.URI)), false
		}
		return Toggle(v.h, r.URI), false
	case key.Matches(k, km.Subscribe):
		if Subscribed(v.h, r.URI) {
			return errorCmd(alreadySubscribed(r.URI)), false
		}
		return Toggle(v.h, r.URI), false
	case key.Matches(k, km.Updates):
		if ff, ok := v.h.(FrameFilter); ok {
			return ff.ShowFilter(UpdatesFilter(r.URI)), false
		}
		return errorCmd(errNoFilter), false
	default:
		if mv, ok := nav.Of(k, v.h.Nav(), max(v.hgt-2, 1)); ok {
			v.sel = mv.Apply(v.sel, len(list))
			return nil, false
		}
		return screen.NotAKey(k), false
	}
}

// selected is the selected resource, or nil.
func (v *View) selected() *Resource {
	list := v.b.Resources()
	if len(list) == 0 {
		return nil
	}
	v.sel = min(max(v.sel, 0), len(list)-1)
	return list[v.sel]
}

// reread sends resources/read for uri and shows its answer.
func (v *View) reread(uri string) tea.Cmd {
	s, err := v.h.Session()
	if err != nil {
		return errorCmd(err)
	}
	v.gen++
	v.read, v.out = uri, nil
	gen, ctx := v.gen, v.h.Context()
	return func() tea.Msg {
		res, err := s.Call(ctx, mcp.MethodResourcesRead, map[string]string{"uri": uri}, screen.AskProgress())
		return readMsg{gen: gen, uri: uri, res: res, err: err}
	}
}
