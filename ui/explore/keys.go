package explore

import (
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/mcpscope/mcpscope/internal/app/keyhelp"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/contentsave"
)

// exploreKeyMap holds the explorer's own keys; scrolling uses the root's.
type exploreKeyMap struct {
	NextTab, PrevTab, PickTab key.Binding
	Filter, Open, Refresh     key.Binding
	Form                      key.Binding // the tools/call form, on a server that runs wizards
	Stream                    key.Binding // a gateway stream of the tool (seed 003)
	NoUpload                  key.Binding // the gateway stream with no file, from its picker
	Back, Close, CancelCall   key.Binding
	Again, Scroll, Frames     key.Binding
	FilterDone, FilterClear   key.Binding
	Insist                    key.Binding // call a tool whose x-mcp-header annotations are invalid
	Named, NameDone           key.Binding // call a tool by the name typed, on a dialect with no lists
	Bench                     key.Binding // load-test a tool (ui/bench)
	ReadFile, Verify, Dir     key.Binding // a skill's file, its verification, its directory (skill.go)
	SaveContent               key.Binding // an image, audio or blob of the outcome to a file
	App                       key.Binding // read an app tool's UI resource (MCP Apps)
}

// defaultExploreKeys returns the explorer's keys.
func defaultExploreKeys() exploreKeyMap {
	return exploreKeyMap{
		NextTab:     key.NewBinding(key.WithKeys("right", "tab"), key.WithHelp("→/tab", "next list")),
		PrevTab:     key.NewBinding(key.WithKeys("left", "shift+tab"), key.WithHelp("←", "previous list")),
		PickTab:     key.NewBinding(key.WithKeys("1", "2", "3", "4", "5"), key.WithHelp("1-4", "list")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Open:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "call / read / get")),
		Form:        key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "tools/call form")),
		Stream:      key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "gateway stream with a file")),
		NoUpload:    key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "stream with no file")),
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload all lists")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back to the list")),
		Close:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter / close")),
		CancelCall:  key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "cancel the request")),
		Again:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "again")),
		Frames:      key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "its frames on the wire")),
		Scroll:      key.NewBinding(key.WithKeys("up", "down"), key.WithHelp("↑/↓ pgup/pgdn", "scroll")),
		FilterDone:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
		FilterClear: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "previous filter")),
		Insist:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "call it anyway")),
		Named:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "call a tool by name")),
		NameDone:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "its tools/call form")),
		Bench:       key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "bench (load test)")),
		ReadFile:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "read the file")),
		Verify:      key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "verify the skill")),
		Dir:         key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "the skill's directory")),
		SaveContent: contentsave.Key(),
		App:         key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "read an app tool's UI resource")),
	}
}

// Help lists the keys of the explorer's current screen, ranked for the
// hint bar with the key that steps back or closes never cut, and, for the
// help screen, every key of the explorer (after those of the open form).
func (x *Explorer) Help() help.KeyMap {
	k := x.keys
	if x.tabShown(tabSkills) {
		k.PickTab.SetHelp("1-5", "list")
	}
	first := []key.Binding{k.Open, k.Form, k.Filter, k.Refresh, k.Close}
	if x.d.Streamer() != nil { // gateway streams: a gateway connection's
		first = slices.Insert(first, 2, k.Stream)
	}
	full := [][]key.Binding{
		first,
		{k.NextTab, k.PrevTab, k.PickTab, x.nav.Up, x.nav.Down, x.nav.PageUp, x.nav.PageDown, x.nav.Home, x.nav.End},
		{k.FilterDone, k.FilterClear, k.CancelCall, k.Again, k.Frames, k.SaveContent, k.Scroll, k.Insist, k.Back, k.Bench, subscribeKey, k.App},
		{k.ReadFile, k.Verify, k.Dir},
	}
	unlisted := x.unlistedSession() != nil
	if unlisted {
		full[0] = append([]key.Binding{k.Named}, full[0]...)
	}
	h := keyhelp.Map{Full: full}
	switch {
	case x.mode == modeWizard && x.wiz != nil:
		return x.wiz.Help()
	case x.mode == modeBench && x.bench != nil:
		return x.bench.Help()
	case x.mode == modeForm && x.form != nil:
		h = keyhelp.Of(x.form.KeyMap())
		h.Full = append(slices.Clone(h.FullHelp()), full...)
		x.suggestHelp(&h)
	case x.mode == modeNamePrompt:
		h.Short, h.Essential, h.Typing = []key.Binding{k.NameDone, k.Back}, []key.Binding{k.NameDone, k.Back}, true
	case x.mode == modeInsist:
		h.Short, h.Essential = []key.Binding{k.Insist, k.Back}, []key.Binding{k.Insist, k.Back}
	case x.mode == modeStreamPick && x.pick.file != nil:
		h = keyhelp.Of(x.pick.file.KeyMap())
		h.Short = append(slices.Clone(h.Short), k.NoUpload)
		h.Full = append([][]key.Binding{h.Short}, full...)
	case x.mode == modeSkill:
		h.Short, h.Essential = []key.Binding{k.ReadFile, k.Verify, k.Dir, k.Back}, []key.Binding{k.Back}
	case x.mode == modeCalling:
		h.Short, h.Essential = []key.Binding{k.CancelCall, k.Frames, k.Back}, []key.Binding{k.Back}
	case x.mode == modeOutcome && x.saving != nil:
		h.Short, h.Essential, h.Typing = savingKeys(), savingKeys(), true
	case x.mode == modeOutcome && x.method == mcp.MethodResourcesRead:
		h.Short, h.Essential = []key.Binding{k.Again, subscribeKey, k.Scroll, k.Frames, k.Back}, []key.Binding{k.Back}
	case x.mode == modeOutcome:
		h.Short, h.Essential = []key.Binding{k.Again, k.Scroll, k.Frames, k.Back}, []key.Binding{k.Back}
		if x.out != nil && x.out.Media > 0 {
			h.Short = slices.Insert(h.Short, 3, keyhelp.Relabel(k.SaveContent, "save content"))
		}
	case x.filtering:
		h.Short, h.Essential, h.Typing = []key.Binding{k.FilterDone, k.FilterClear}, []key.Binding{k.FilterDone, k.FilterClear}, true
	case x.tab == tabTools && unlisted:
		h.Short, h.Essential = []key.Binding{k.Named, k.Open, k.Filter, k.NextTab, k.PickTab, k.Close}, []key.Binding{k.Named, k.Close}
	case x.tab == tabResources:
		h.Short, h.Essential = []key.Binding{k.Open, subscribeKey, k.Filter, k.NextTab, k.PickTab, k.Refresh, k.Close}, []key.Binding{k.Open, k.Close}
	case x.tab == tabTools && x.interactive():
		open := k.Open
		if e, ok := x.list().selected(); !ok || e.run == toolTry || e.run == toolWizard {
			open = keyhelp.Relabel(k.Open, "start a wizard")
		}
		h.Short, h.Essential = []key.Binding{open, k.Form, k.Filter, k.NextTab, k.PickTab, k.Refresh, k.Close}, []key.Binding{open, k.Close}
	default:
		h.Short, h.Essential = []key.Binding{k.Open, k.Filter, k.NextTab, k.PickTab, k.Refresh, k.Close}, []key.Binding{k.Open, k.Close}
	}
	if x.mode == modeList && !x.filtering && x.tab == tabTools {
		h.Short = slices.Insert(slices.Clone(h.Short), len(h.Short)-1, keyhelp.Relabel(k.Bench, "bench"))
	}
	return h
}
