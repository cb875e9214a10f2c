package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
)

// rootsFromAnswers says why ctrl+r does not open the roots editor.
const rootsFromAnswers = "roots come from --answers: run without it to edit them"

// offKey is a key of the panes that does nothing on this connection, and
// why.
type offKey struct {
	b   *key.Binding
	why string
}

// offHere returns the keys of k that do nothing on this connection, with
// why: the demo's shortcuts on any server but the demo, tools/list on a
// dialect that has none, the roots editor when --answers answers.
func (m *Model) offHere(k *KeyMap) []offKey {
	var off []offKey
	if !m.cfg.Demo {
		// Off even when the server is the demo's code: the user did not
		// pick the demo command, whose keys these are.
		why := "the demo's %s, only under `mcpscope demo`"
		off = append(off, offKey{&k.ReadFile, fmt.Sprintf(why, "read_file")},
			offKey{&k.Analyze, fmt.Sprintf(why, "analyze")}, offKey{&k.Tone, fmt.Sprintf(why, "tone")})
	}
	if s := m.conn.link.Session; s != nil && s.HandshakeFree() {
		off = append(off, offKey{&k.ListTools, fmt.Sprintf("%s has no tools/list · %s calls a tool by name",
			client.LinkStateOf(m.conn.link.Transport).Transport, k.Explore.Help().Key)})
	}
	if m.cfg.Questions == nil {
		off = append(off, offKey{&k.Roots, rootsFromAnswers})
	}
	return off
}

// keysHere are the keys as the hint bar and the help show them: those
// that do nothing on this connection, and the digits of the panes it has
// not, are disabled.
func (m *Model) keysHere() KeyMap {
	k := m.keys
	for _, o := range m.offHere(&k) {
		o.b.SetEnabled(false)
	}
	for p := range paneCount {
		k.Panes[p].SetEnabled(m.panes[p])
	}
	return k
}

// keyOff says why msg, a key of the panes, does nothing here, or "" when
// it does something.
func (m *Model) keyOff(msg tea.KeyPressMsg) string {
	k := m.keys
	for _, o := range m.offHere(&k) {
		if key.Matches(msg, *o.b) {
			return o.b.Help().Key + ": " + o.why
		}
	}
	if key.Matches(msg, k.PrevItem, k.NextItem) && m.focus != paneHex {
		return msg.String() + " steps the hex pane's body items: " + k.Hex.Help().Key + " opens it"
	}
	return ""
}

// digitRuns names the digits of the enabled pane keys, runs of them
// joined: "1-6", "1-5", "1,4-6".
func digitRuns(panes [paneCount]key.Binding) string {
	var runs []string
	for p := paneID(0); p < paneCount; {
		if !panes[p].Enabled() {
			p++
			continue
		}
		end := p
		for end+1 < paneCount && panes[end+1].Enabled() {
			end++
		}
		run := panes[p].Help().Key
		if end > p {
			run += "-" + panes[end].Help().Key
		}
		runs = append(runs, run)
		p = end + 1
	}
	return strings.Join(runs, ",")
}
