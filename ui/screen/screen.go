// Package screen is the seam between the UI's root model and the screens
// that take over the body of the window (the explorer, the composer, the
// wizards, the server's questions): the Screen each of them is, and the
// Host the root hands them.
package screen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/ui/look"
	"github.com/mcpscope/mcpscope/ui/nav"
)

// Screen takes over the body of the window and the keys until it closes.
// The root keeps capturing and refreshing the panes underneath.
type Screen interface {
	// Title is the screen's title line.
	Title() string
	// SetSize gives the screen its body size.
	SetSize(w, h int)
	// Update handles a key, or any other message while the screen is
	// open (its own asynchronous results included). closed says the
	// screen is done and the root should drop it.
	Update(msg tea.Msg) (cmd tea.Cmd, closed bool)
	// Render draws the body in w×h.
	Render(w, h int) string
	// Help lists the screen's keys for the hint bar and the help
	// screen. A keyhelp.Map ranks them, marks those the hint bar never
	// cuts (the close key, a key the screen cannot be used without),
	// lists every key for the help screen and says whether a text field
	// has the keys (then F1, not ?, opens the help); any other
	// help.KeyMap is shown as it is.
	Help() help.KeyMap
}

// Host is what a screen may use of the root: the live session, the
// context of the UI, the theme, the navigation keys and the status line.
type Host interface {
	// Session returns the connected session, or ErrNotConnected.
	Session() (*client.Session, error)
	// Context ends when the UI closes.
	Context() context.Context
	// Dialect is the dialect of the current connection (it names error
	// codes).
	Dialect() mcp.Dialect
	// Styles are the theme's styles.
	Styles() *look.Styles
	// Nav are the root's navigation keys, which scroll every screen too.
	Nav() nav.Keys
	// Note shows a message in the status line.
	Note(msg string)
	// CancelRequest cancels the request with id on the live session and
	// reports how that went in the status line.
	CancelRequest(id jsonrpc.ID) tea.Cmd
	// ShowFrames filters the traffic to the frames of the request with id
	// and hands the keys to the traffic pane, the screen staying open
	// behind it (ctrl+o returns).
	ShowFrames(id jsonrpc.ID) tea.Cmd
	// Progress returns the live state of the request with id that the UI
	// sent on the current connection: its progress, elapsed time, log
	// lines, cancellation and answer. ok is false while the request has
	// not been captured (or was forgotten in a flood).
	Progress(id jsonrpc.ID) (state ProgressState, ok bool)
	// Streamer runs gateway streams (seed 003) on connections of their
	// own, or is nil when the current link cannot.
	Streamer() StreamFunc
	// OutputSchema is the outputSchema the current connection's
	// tools/list declared for tool, nil when none is known: a tools/call
	// result is judged by it (client.CheckToolResult).
	OutputSchema(tool string) json.RawMessage
}

// StreamFunc runs one gateway stream (seed 003) that invokes method on a
// WebSocket connection of its own, uploading the file upload ("" uploads
// nothing), until the server ends it or ctx does. It returns the server's
// done summary, or why the stream failed (its error, a check a message
// failed, a timeout). Its frames go to the capture like the session's.
type StreamFunc func(ctx context.Context, method, upload string) (json.RawMessage, error)

// ErrNotConnected is what a screen reports when it needs the session and
// there is none.
var ErrNotConnected = errors.New("not connected")

// ErrorMsg reports an error the root shows in the status bar: a screen's
// command returns it for what went wrong after the screen moved on.
type ErrorMsg struct{ Err error }

// CallDoneMsg says how a request sent from the UI ended: the root
// reports it in the status line. A screen's command returns it for each
// of its requests.
type CallDoneMsg struct {
	Method string
	Result json.RawMessage
	Err    error
	// ToolFailure is set when a tools/call result is nonetheless a
	// failure (client.CheckToolResult): the status line reports it.
	ToolFailure *client.ToolFailure
}

// Report says how the request ended, for the status line: a note, or
// the error to show.
func (msg CallDoneMsg) Report() (note string, err error) {
	var cancelled *client.CancelledError
	switch {
	case errors.As(msg.Err, &cancelled):
		return fmt.Sprintf("%s cancelled", msg.Method), nil
	case errors.As(msg.Err, new(*client.RPCError)):
		return "", msg.Err // it names the method already
	case msg.Err != nil:
		return "", fmt.Errorf("%s failed: %w", msg.Method, msg.Err)
	case msg.ToolFailure != nil:
		return "", msg.ToolFailure
	}
	return fmt.Sprintf("%s answered (%s)", msg.Method, look.ByteSize(int64(len(msg.Result)))), nil
}

// CancelReason is the reason sent with a cancellation from the UI.
const CancelReason = "cancelled by the user"

// CancelKeyName is the one key that cancels a request in flight
// everywhere: in the traffic pane, the explorer, the composer and the
// wizards. A control key, so that it works in forms where letters are
// typed.
const CancelKeyName = "ctrl+x"

// CancelKey is the binding of CancelKeyName, described as desc in the
// help; aliases are further keys that do the same where no text is typed.
func CancelKey(desc string, aliases ...string) key.Binding {
	return key.NewBinding(key.WithKeys(append([]string{CancelKeyName}, aliases...)...), key.WithHelp(CancelKeyName, desc))
}
