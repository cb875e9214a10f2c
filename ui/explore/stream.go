package explore

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/prompts"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// streamMethod names a gateway stream in the explorer's heads and the
// status bar.
const streamMethod = "stream"

// errNoStreams is the answer of a stream asked of a link that runs none.
var errNoStreams = errors.New("this connection runs no gateway streams: connect with --transport gateway")

// streamPick is the step that picks the file a gateway stream uploads
// (modeStreamPick): the file prompt's picker, answering with the path.
type streamPick struct {
	file   prompts.Widget
	dir    string             // where the picker starts; "" is the working directory
	cancel context.CancelFunc // ends the stream in flight
}

// openStreamPick opens the picker of the file to upload on a gateway
// stream of the selected tool.
func (x *Explorer) openStreamPick(e entry) tea.Cmd {
	p := mcp.InteractionPrompt{Type: mcp.PromptFile, Message: "Pick the file to upload"}
	w, err := prompts.New(p, prompts.Options{Dir: x.pick.dir, PathOnly: true, Dark: x.st.Dark})
	if err != nil {
		x.showAnswer(streamMethod, e.name, nil, err)
		return nil
	}
	x.target, x.mode, x.pick.file = e, modeStreamPick, w
	w.SetSize(x.w, x.pickHeight())
	return nil
}

// pickHeight is the height of the picker under the tab bar, the head and
// above the hint.
func (x *Explorer) pickHeight() int { return max(x.h-3, 1) }

// streamPickKey starts the stream with no file on its key, or hands the
// key to the picker.
func (x *Explorer) streamPickKey(msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, x.keys.NoUpload) {
		return x.startStream("")
	}
	return x.streamPickUpdate(msg)
}

// streamPickUpdate hands msg to the picker: a file chosen starts the
// stream with it, esc goes back to the list.
func (x *Explorer) streamPickUpdate(msg tea.Msg) tea.Cmd {
	a, cmd := x.pick.file.Update(msg)
	switch a {
	case prompts.ActionCancel:
		x.backToList()
		return nil
	case prompts.ActionSubmit:
		var path string
		if v, err := x.pick.file.Value(); err == nil && json.Unmarshal(v, &path) == nil && path != "" {
			return x.startStream(path)
		}
	}
	return cmd
}

// startStream runs the gateway stream of the target tool on a connection
// of its own; its answer comes back as an exploreAnswerMsg, rendered
// where it arrives (answerRenderer), and its frames and the stream's row
// show in the panes as they come.
func (x *Explorer) startStream(upload string) tea.Cmd {
	run := x.d.Streamer()
	if run == nil {
		x.showAnswer(streamMethod, x.target.name, nil, errNoStreams)
		return nil
	}
	x.callGen++
	gen := x.callGen
	x.mode, x.method, x.subject, x.elapsed, x.sentAt, x.inflight = modeCalling, streamMethod+" "+x.target.name, "", 0, time.Now(), nil
	uiCtx := x.d.Context()
	ctx, cancel := context.WithCancel(uiCtx)
	x.pick.cancel = cancel
	method := x.target.name
	render := x.answerRenderer(streamMethod + " " + method)
	return tea.Batch(tickWaiting(gen), func() tea.Msg {
		defer cancel()
		start := time.Now()
		res, err := run(ctx, method, upload)
		if err != nil && ctx.Err() != nil && uiCtx.Err() == nil {
			err = &client.CancelledError{Method: streamMethod + " " + method, Reason: screen.CancelReason, Err: err}
		}
		elapsed := time.Since(start)
		return exploreAnswerMsg{gen: gen, done: screen.CallDoneMsg{Method: streamMethod + " " + method, Result: res, Err: err}, elapsed: elapsed, view: render(res, err)}
	})
}

// renderStreamPick draws the picker in w×h: what the stream is, the
// picker, and the keys that start it.
func (x *Explorer) renderStreamPick(w, h int) []string {
	lines := []string{x.st.Ink.Muted.Paint(look.Cell("gateway stream of "+x.target.name+" on a connection of its own", w))}
	lines = append(lines, strings.Split(x.pick.file.Render(w, max(h-2, 1)), "\n")...)
	return append(lines, x.st.Ink.Muted.Paint(look.Cell("enter on a file uploads it · ctrl+s streams with no file · ← parent · / or ctrl+l types a path · esc goes back · ctrl+x stops it once it runs", w)))
}
