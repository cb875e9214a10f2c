package ui

import (
	"bytes"
	"encoding/json"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/ui/subsview"
)

// uriWord starts the filter term of a resource URI, which takes the rest
// of the filter's text: "uri:demo://a" lets through the messages whose
// params.uri is demo://a (a read, a subscription, its updates), or whose
// params.notifications.resourceSubscriptions names it (a 2026-07-28
// subscriptions/listen and its acknowledgement).
const uriWord = "uri:"

// namesURI reports whether f is a message whose params name uri: as
// params.uri, or among params.notifications.resourceSubscriptions. Only
// those two members are decoded.
func namesURI(f *capture.Frame, uri string) bool {
	if f.Msg == nil || !bytes.Contains(f.Msg.Params, []byte(`"uri"`)) && !bytes.Contains(f.Msg.Params, []byte(`"resourceSubscriptions"`)) {
		return false
	}
	members, _ := jsonrpc.ObjectMembers(f.Msg.Params)
	for _, m := range members {
		switch m.Key {
		case "uri":
			var s string
			if json.Unmarshal(m.Value, &s) == nil && s == uri {
				return true
			}
		case "notifications":
			var n struct {
				ResourceSubscriptions []string `json:"resourceSubscriptions"`
			}
			if json.Unmarshal(m.Value, &n) == nil && slices.Contains(n.ResourceSubscriptions, uri) {
				return true
			}
		}
	}
	return false
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
