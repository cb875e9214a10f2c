package ui

import (
	"bytes"
	"encoding/json"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/ui/subsview"
)

// uriWord starts the filter term of a resource URI: "uri:demo://a" lets
// through the messages whose params.uri is demo://a (a read, a
// subscription, its updates).
const uriWord = "uri:"

// namesURI reports whether f is a message whose params.uri is uri.
func namesURI(f *capture.Frame, uri string) bool {
	if f.Msg == nil || !bytes.Contains(f.Msg.Params, []byte(`"uri"`)) {
		return false
	}
	var p struct {
		URI string `json:"uri"`
	}
	return json.Unmarshal(f.Msg.Params, &p) == nil && p.URI == uri
}

var _ subsview.FrameFilter = driver{}

// ShowFilter filters the traffic by text and gives the traffic pane the
// keys, the screen staying open behind it (ctrl+o returns), as
// ShowFrames does for a request's frames.
func (d driver) ShowFilter(text string) tea.Cmd {
	m := d.m
	m.setFocus(paneTraffic)
	if m.overlay != nil && !m.wireFront {
		m.flipWire()
	}
	return m.applyFilter(text)
}
