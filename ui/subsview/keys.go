package subsview

import (
	"errors"
	"fmt"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// keyMap holds the view's own keys; scrolling uses the root's.
type keyMap struct {
	Open, Reread, Unsubscribe, Subscribe, Updates key.Binding
	Close                                         key.Binding
}

// defaultKeys returns the view's keys.
func defaultKeys() keyMap {
	return keyMap{
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "read it again")),
		Reread:      key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "read it again")),
		Unsubscribe: key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "unsubscribe")),
		Subscribe:   key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "subscribe again")),
		Updates:     key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "its updates on the wire")),
		Close:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back / close")),
	}
}

// Help lists the view's keys.
func (v *View) Help() help.KeyMap {
	k := v.keys
	n := v.h.Nav()
	full := [][]key.Binding{{k.Open, k.Reread, k.Unsubscribe, k.Subscribe, k.Updates, k.Close}, {n.Up, n.Down, n.PageUp, n.PageDown, n.Home, n.End}}
	if v.read != "" {
		return keyhelp.Map{Short: []key.Binding{k.Reread, n.Up, n.Down, k.Close}, Essential: []key.Binding{k.Close}, Full: full}
	}
	return keyhelp.Map{Short: full[0], Essential: []key.Binding{k.Close}, Full: full}
}

// Errors of keys that have nothing to act on.
var (
	errNone     = errors.New("no subscription yet: s on a resource in the explorer (e) subscribes to it")
	errNoFilter = errors.New("the traffic cannot be filtered from here")
)

// notSubscribed says that uri has no live subscription to end.
func notSubscribed(uri string) error {
	return fmt.Errorf("%s is not subscribed on this connection", termtext.OneLine(uri))
}

// alreadySubscribed says that uri is subscribed already.
func alreadySubscribed(uri string) error {
	return fmt.Errorf("%s is subscribed already: u unsubscribes", termtext.OneLine(uri))
}
