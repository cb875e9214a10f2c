package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// rootsFromAnswers says why ctrl+r does not open the roots editor.
const rootsFromAnswers = "the roots come from the --answers file here: run without --answers to edit them"

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
		why := "sends the demo's %s, and this server is not the demo (mcpscope demo): e calls this server's tools"
		off = append(off, offKey{&k.ReadFile, fmt.Sprintf(why, "read_file")},
			offKey{&k.Analyze, fmt.Sprintf(why, "analyze")}, offKey{&k.Tone, fmt.Sprintf(why, "tone")})
	}
	if s := m.conn.link.Session; s != nil && s.HandshakeFree() {
		off = append(off, offKey{&k.ListTools,
			"this transport has no tools/list (its tool frames carry tools/call alone): e calls a tool by its name"})
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
		return msg.String() + " steps through the body items of the hex pane: " + k.Hex.Help().Key + " opens it"
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
