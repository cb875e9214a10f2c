package explore

import (
	"context"
	"errors"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/screen"
)

// maxUploadPath bounds the path typed for a gateway stream's upload.
const maxUploadPath = 4096

// streamMethod names a gateway stream in the explorer's heads and the
// status bar.
const streamMethod = "stream"

// errNoStreams is the answer of a stream asked of a link that runs none.
var errNoStreams = errors.New("this connection runs no gateway streams: connect with --transport gateway")

// streamPick is the step that asks which file a gateway stream uploads
// (modeStreamPick).
type streamPick struct {
	input  textinput.Model
	cancel context.CancelFunc // ends the stream in flight
}

// openStreamPick asks for the file to upload on a gateway stream of the
// selected tool.
func (x *Explorer) openStreamPick(e entry) tea.Cmd {
	x.target, x.mode = e, modeStreamPick
	in := textinput.New()
	in.SetStyles(x.st.Input)
	in.Prompt = "file to upload: "
	in.Placeholder = "a path; empty uploads nothing"
	in.CharLimit = maxUploadPath
	in.SetWidth(max(x.w-len(in.Prompt)-2, 20))
	x.pick.input = in
	return x.pick.input.Focus()
}

// streamPickKey edits the path: enter starts the stream, esc goes back.
func (x *Explorer) streamPickKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, x.keys.Back):
		x.backToList()
		return nil
	case key.Matches(msg, x.keys.Open):
		return x.startStream(x.pick.input.Value())
	}
	var cmd tea.Cmd
	x.pick.input, cmd = x.pick.input.Update(msg)
	return cmd
}

// startStream runs the gateway stream of the target tool on a connection
// of its own; its answer comes back as an exploreAnswerMsg, and its frames
// and the stream's row show in the panes as they come.
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
	return tea.Batch(tickWaiting(gen), func() tea.Msg {
		defer cancel()
		start := time.Now()
		res, err := run(ctx, method, upload)
		if err != nil && ctx.Err() != nil && uiCtx.Err() == nil {
			err = &client.CancelledError{Method: streamMethod + " " + method, Reason: screen.CancelReason, Err: err}
		}
		return exploreAnswerMsg{gen: gen, done: screen.CallDoneMsg{Method: streamMethod + " " + method, Result: res, Err: err}, elapsed: time.Since(start)}
	})
}

// renderStreamPick draws the path prompt.
func (x *Explorer) renderStreamPick(w int) []string {
	return []string{
		x.st.Ink.Muted.Paint(look.Cell("gateway stream of "+x.target.name+" on a connection of its own (seed 003)", w)),
		x.pick.input.View(),
		x.st.Ink.Muted.Paint(look.Cell("enter starts it · esc goes back · ctrl+x stops it once it runs", w)),
	}
}
