// Package explore is the explorer (key e): the server's tools, resources,
// resource templates and prompts in filterable lists, called, read or got
// through forms built from their schemas, and on an interactive server the
// wizards of its tools (ui/wizard).
package explore

import (
	"encoding/json"
	"errors"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/prompts/schemaform"
	"github.com/mcpscope/mcpscope/ui/bench"
	"github.com/mcpscope/mcpscope/ui/contentsave"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
	"github.com/mcpscope/mcpscope/ui/screen"
	"github.com/mcpscope/mcpscope/ui/subsview"
	"github.com/mcpscope/mcpscope/ui/wizard"
)

// maxExploreFilter bounds the text of the explorer's filter.
const maxExploreFilter = 128

// exploreMode is what the explorer shows.
type exploreMode int

const (
	modeList       exploreMode = iota // the lists
	modeForm                          // the arguments of a tool, template or prompt
	modeCalling                       // a request is in flight
	modeOutcome                       // the answer
	modeWizard                        // an interactive session of a tool (wizard.go)
	modeStreamPick                    // the file a gateway stream uploads (stream.go)
	modeInsist                        // a tool with invalid x-mcp-header annotations: call it anyway? (insist.go)
	modeNamePrompt                    // the name of a tool to call, on a dialect with no lists (named_tool.go)
	modeBench                         // a load test of a tool (bench.go)
	modeSkill                         // a skill's files, one read, its verification (skill.go)
)

// Explorer is the screen that browses the server's tools, resources,
// resource templates and prompts in filterable lists, and calls a tool,
// reads a resource (or an expanded template) or gets a prompt through a
// form generated from its schema. Every request goes through the session,
// so it shows up in the traffic pane like any other.
type Explorer struct {
	d    screen.Host
	disc *Discovery // what the server said of interactive sessions
	st   *look.Styles
	nav  nav.Keys // the root's navigation keys
	keys exploreKeyMap

	tab       exploreTab
	lists     [tabCount]entryList
	listGen   int
	filtering bool
	input     textinput.Model
	inForce   string // the filter in force when / opened the input: esc restores it

	mode      exploreMode
	target    entry            // what the form, the call and the outcome concern
	form      *schemaform.Form // the open form (modeForm)
	tmpl      *uriTemplate     // the template a template form expands
	note      string           // a problem with the form's schema
	info      string           // why the form opened instead of a wizard
	method    string           // the request in flight or answered
	subject   string           // the tool, prompt or URI it concerns
	callGen   int
	inflight  *screen.SentID
	task      *taskFollow   // the task the call in flight became, if any
	elapsed   time.Duration // from the call to its answer; 0 when not measured
	sentAt    time.Time     // when the call in flight was made
	cancelled bool          // the answer shown says the user cancelled the call
	out       *look.Outcome
	last      map[string]json.RawMessage // arguments of the last call, per entry
	wiz       *wizard.Wizard             // the open wizard (modeWizard)
	pick      streamPick                 // the gateway stream's upload (modeStreamPick)
	insist    func(entry) tea.Cmd        // where enter goes once the user insists (modeInsist)
	named     namePrompt                 // the name of a tool to call (modeNamePrompt)
	bench     *bench.Bench               // the open bench (modeBench)
	benching  bool                       // the open form's submit opens the bench
	benchRun  bench.Runner               // the benches' engine (nil: load.Run)
	skill     *skillView                 // the open skill (modeSkill)

	previewed previewCache // the preview of the selected entry
	suggest   suggester    // completion/complete as a form is typed (complete.go)

	saving   *contentsave.Ask   // where to save an image, audio or blob of the outcome, while asked
	savePick contentsave.Picker // which of the outcome's items the save key offers next

	w, h int
}

// Wizard is the wizard open in the explorer, or nil.
func (x *Explorer) Wizard() *wizard.Wizard { return x.wiz }

// Open returns an explorer of tools, resources, templates and prompts,
// and the command that starts fetching the lists the server advertises
// and, once per connection, asks whether it runs interactive sessions
// (what it says goes to disc, which outlives the explorer).
func Open(h screen.Host, disc *Discovery) (*Explorer, tea.Cmd) {
	x := New(h, disc)
	return x, tea.Batch(x.refresh(false), x.discoverInteractive())
}

// New returns an explorer with empty lists, fetching nothing yet (Open
// fetches them); what it learns of interactive sessions goes to disc.
func New(d screen.Host, disc *Discovery) *Explorer {
	x := &Explorer{d: d, disc: disc, st: d.Styles(), nav: d.Nav(), keys: defaultExploreKeys(),
		input: textinput.New(), last: map[string]json.RawMessage{}}
	for t := range tabCount {
		x.lists[t].tab = t
	}
	x.markSubscribed()
	x.input.SetStyles(x.st.Input)
	x.input.Prompt = "/ "
	x.input.Placeholder = "fuzzy filter on name, title, URI"
	x.input.CharLimit = maxExploreFilter
	return x
}

// Title names the overlay and the server it explores, or the open wizard.
func (x *Explorer) Title() string {
	switch x.mode {
	case modeWizard:
		return x.wiz.Title()
	case modeBench:
		return x.bench.Title()
	}
	title := "Explorer · tools, resources, templates, prompts"
	if x.tabShown(tabSkills) {
		title += ", skills"
	}
	if s, err := x.d.Session(); err == nil {
		if info := s.ServerInfo(); info.Name != "" {
			title += " of " + info.Name
		}
	}
	return title
}

// SetSize gives the explorer its body size.
func (x *Explorer) SetSize(w, h int) {
	x.w, x.h = w, h
	x.input.SetWidth(max(w-4, 10))
	if x.mode == modeNamePrompt {
		x.named.input.SetWidth(max(w-4, 10))
	}
	if x.form != nil {
		x.form.SetSize(w, x.formHeight())
	}
	if x.out != nil {
		x.out.SetSize(w, max(h-2, 0))
	}
	if x.wiz != nil {
		x.wiz.SetSize(w, h)
	}
	if x.bench != nil {
		x.bench.SetSize(w, h)
	}
	if x.pick.file != nil {
		x.pick.file.SetSize(w, x.pickHeight())
	}
}

// formHeight is the height left to a form under the tab bar and the
// header (and above a template's URI preview).
func (x *Explorer) formHeight() int {
	h := x.h - 2
	if x.tmpl != nil {
		h--
	}
	return max(h, 1)
}

// Update handles a key, the explorer's own results, and the messages its
// widgets wait for (cursor blinks, pastes).
func (x *Explorer) Update(msg tea.Msg) (tea.Cmd, bool) {
	if x.mode == modeWizard {
		if cmd, handled := x.updateWizard(msg); handled {
			return cmd, false
		}
	}
	if x.mode == modeBench {
		if cmd, handled := x.updateBench(msg); handled {
			return cmd, false
		}
	}
	switch msg := msg.(type) {
	case exploreListMsg:
		x.listDone(msg)
		return nil, false
	case DiscoveredMsg:
		x.markWizards()
		return nil, false
	case wizard.StartedMsg: // of a wizard closed while it started
		return msg.Drop(), false
	case skillFileMsg:
		x.skillFileRead(msg)
		return nil, false
	case skillVerifiedMsg:
		x.skillVerified(msg)
		return nil, false
	case skillDirMsg:
		x.skillDirRead(msg)
		return nil, false
	case subsview.ToggledMsg:
		x.d.Note(msg.Text())
		return nil, false
	case exploreAnswerMsg:
		x.fillUnlisted() // a tool called lists it on a dialect with no lists
		return x.answered(msg), false
	case waitingTickMsg:
		return x.ticked(msg), false
	case suggestTickMsg, suggestAnswerMsg:
		return x.suggestUpdate(msg), false
	case tea.BackgroundColorMsg:
		x.input.SetStyles(x.st.Input) // the root has switched the theme's styles by now
		if x.form != nil {
			x.form.SetDark(msg.IsDark())
		}
		if x.pick.file != nil {
			x.pick.file.Update(msg)
		}
		return nil, false
	case tea.KeyPressMsg:
		return x.handleKey(msg)
	}
	var cmd tea.Cmd
	switch {
	case x.filtering:
		cmd = x.editFilter(msg)
	case x.mode == modeForm:
		cmd = x.updateForm(msg)
	case x.mode == modeStreamPick:
		cmd = x.streamPickUpdate(msg)
	case x.mode == modeNamePrompt:
		x.named.input, cmd = x.named.input.Update(msg)
	}
	return cmd, false
}

// list is the list of the current tab.
func (x *Explorer) list() *entryList { return &x.lists[x.tab] }

// handleKey routes a key by what the explorer shows.
func (x *Explorer) handleKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := x.keys
	switch x.mode {
	case modeForm:
		return x.updateForm(msg), false
	case modeStreamPick:
		return x.streamPickKey(msg), false
	case modeInsist:
		return x.insistKey(msg), false
	case modeNamePrompt:
		return x.namePromptKey(msg), false
	case modeSkill:
		return x.skillKey(msg), false
	case modeCalling:
		switch {
		case key.Matches(msg, k.CancelCall):
			return x.cancelCall(), false
		case key.Matches(msg, k.Frames):
			return x.showFrames(), false
		case key.Matches(msg, k.Back):
			x.task.stop() // no one would see the task's end: give it up (tasks/cancel)
			x.backToList()
		default:
			return screen.NotAKey(msg), false
		}
		return nil, false
	case modeOutcome:
		if x.saving != nil {
			return x.saveKey(msg), false
		}
		if cmd, ok := x.subscribeOutcomeKey(msg); ok {
			return cmd, false
		}
		switch {
		case key.Matches(msg, k.SaveContent):
			return x.askSave(), false
		case key.Matches(msg, k.Frames):
			return x.showFrames(), false
		case key.Matches(msg, k.Back):
			x.backToList()
		case key.Matches(msg, k.Again) && x.target.tab == tabTools:
			return x.openToolForm(x.target), false
		case key.Matches(msg, k.Again):
			return x.open(x.target), false
		default:
			if v, ok := nav.Of(msg, x.nav, max(x.h-3, 1)); ok {
				x.out.Scroll(v)
			} else {
				return screen.NotAKey(msg), false
			}
		}
		return nil, false
	}
	if x.filtering {
		return x.filterKey(msg), false
	}
	return x.listKey(msg)
}

// listKey handles a key on the lists.
func (x *Explorer) listKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := x.keys
	l := x.list()
	switch {
	case key.Matches(msg, k.Close):
		if l.filter == "" {
			return nil, true
		}
		l.setFilter("")
	case key.Matches(msg, k.Filter): // a new filter, as in the traffic pane: the one in force stays until enter, esc keeps it
		x.filtering = true
		x.inForce = l.filter
		x.input.SetValue("")
		return x.input.Focus(), false
	case key.Matches(msg, k.NextTab):
		x.stepTab(1)
	case key.Matches(msg, k.PrevTab):
		x.stepTab(-1)
	case key.Matches(msg, k.PickTab):
		if t := exploreTab(msg.String()[0] - '1'); x.tabShown(t) {
			x.tab = t
		} else {
			return errorCmd(msg.String() + ": the server does not advertise skills; r asks for every list anyway"), false
		}
	case key.Matches(msg, k.Refresh):
		return x.refresh(true), false
	case key.Matches(msg, k.Open) && x.tab == tabSkills:
		if e, ok := l.selected(); ok {
			return x.openSkill(*e), false
		}
	case key.Matches(msg, k.Open):
		if e, ok := l.selected(); ok {
			return x.guardTool(*e, x.open), false
		}
	case key.Matches(msg, k.Form) && x.tab == tabTools:
		if e, ok := l.selected(); ok {
			return x.guardTool(*e, x.openToolForm), false
		}
	case key.Matches(msg, k.Bench) && x.tab == tabTools:
		if e, ok := l.selected(); ok {
			return x.guardTool(*e, x.benchTool), false
		}
	case key.Matches(msg, subscribeKey) && x.tab == tabResources:
		if e, ok := l.selected(); ok {
			return x.toggleSubscription(e.uri), false
		}
	case key.Matches(msg, k.App) && x.tab == tabTools:
		if e, ok := l.selected(); ok {
			return x.readAppUI(*e), false
		}
	case key.Matches(msg, k.Named) && x.tab == tabTools && x.unlistedSession() != nil:
		return x.openNamePrompt(), false
	case key.Matches(msg, k.Stream) && x.tab == tabTools && x.d.Streamer() != nil:
		if e, ok := l.selected(); ok {
			return x.openStreamPick(*e), false
		}
	default:
		if v, ok := nav.Of(msg, x.nav, l.rows); ok {
			l.move(v)
		} else if why := x.idleKey(msg); why != "" {
			return errorCmd(why), false
		}
	}
	return nil, false
}

// idleKey says why a typed key does nothing on the lists, or "" for a
// key that is not typed text.
func (x *Explorer) idleKey(msg tea.KeyPressMsg) string {
	k := x.keys
	switch {
	case msg.Text == "":
		return ""
	case key.Matches(msg, k.Form):
		return msg.String() + ": the tools/call form is for a tool: 1 shows the tools"
	case key.Matches(msg, k.Bench):
		return msg.String() + ": the bench is of a tool: 1 shows the tools"
	case key.Matches(msg, k.Stream) && x.tab != tabTools:
		return msg.String() + ": a gateway stream is of a tool: 1 shows the tools"
	case key.Matches(msg, k.Stream):
		return msg.String() + ": gateway streams exist only on a gateway connection (--transport gateway)"
	case key.Matches(msg, k.Frames):
		return msg.String() + ": no request sent yet: enter sends one"
	case key.Matches(msg, subscribeKey) && x.tab == tabTemplates:
		return msg.String() + ": a template is subscribed to once expanded: enter reads a URI of it, then s subscribes"
	case key.Matches(msg, subscribeKey):
		return msg.String() + ": subscriptions are of a resource: 2 shows the resources"
	}
	return msg.String() + " is not a key of the explorer: ? lists them"
}

// errorCmd reports why in the status line.
func errorCmd(why string) tea.Cmd {
	return func() tea.Msg { return screen.ErrorMsg{Err: errors.New(why)} }
}

// filterKey edits the new filter, which applies as it is typed: enter
// keeps it, esc restores the filter in force before it; the arrows still
// move the selection.
func (x *Explorer) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	l := x.list()
	switch {
	case key.Matches(msg, x.keys.FilterDone):
		x.filtering = false
		x.input.Blur()
		l.setFilter(x.input.Value())
		return nil
	case key.Matches(msg, x.keys.FilterClear):
		x.filtering = false
		x.input.Blur()
		if l.filter != x.inForce {
			l.setFilter(x.inForce)
		}
		return nil
	case msg.String() == "up" || msg.String() == "down":
		v, _ := nav.Of(msg, x.nav, l.rows)
		l.move(v)
		return nil
	}
	return x.editFilter(msg)
}

// editFilter hands msg to the filter input and applies its text when msg
// changed it (a blink leaves the filter in force).
func (x *Explorer) editFilter(msg tea.Msg) tea.Cmd {
	before := x.input.Value()
	var cmd tea.Cmd
	x.input, cmd = x.input.Update(msg)
	if v := x.input.Value(); v != before {
		x.list().setFilter(v)
	}
	return cmd
}

// backToList leaves the form, the call or the answer; an answer still on
// its way is then dropped (the status bar still reports it).
func (x *Explorer) backToList() {
	x.mode = modeList
	x.form, x.tmpl, x.out, x.note, x.info, x.inflight, x.pick.file = nil, nil, nil, "", "", nil, nil
	x.pick.cancel = nil // a stream in flight goes on; its answer reaches the status bar
	x.insist = nil
	if x.bench != nil {
		x.bench.Close()
	}
	x.bench, x.benching = nil, false
	x.skill = nil
	x.callGen++
	x.suggest.stop()
}
