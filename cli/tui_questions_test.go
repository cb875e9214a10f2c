package cli

import "testing"

// send types raw bytes on the TUI's keyboard.
func (r *tuiRun) send(t *testing.T, keys string) {
	t.Helper()
	if _, err := r.keys.Write([]byte(keys)); err != nil {
		t.Fatal(err)
	}
}

// Without --answers the TUI asks the user: the TypeScript reference
// server's elicitation opens a question naming the server's request, and
// ctrl+d declines it; the server also sees the --root given, through
// roots/list answered by the TUI.
func TestTUIAsksTheUser(t *testing.T) {
	args := append([]string{"--root", "file:///srv/cli-root", "--"}, tsServer(t)...)
	r := startTUI(t, args...)
	r.waitFor(t, "MCP connected", "roots/list")
	r.send(t, "e")
	r.waitFor(t, " · / filters")
	r.send(t, "/get-roots-list\r")
	r.waitFor(t, "› get-roots-list ")
	r.send(t, "\r\x13") // open the form, send the call
	r.waitFor(t, "tools/call get-roots-list · answer", "URI: file:///srv/cli-root")
	r.send(t, "\x1b")                                                    // back to the list, still filtered
	r.waitFor(t, "tools match", `"get-roots-list"`, "› get-roots-list ") // the list, not the answer
	r.send(t, "/\x15trigger-elicitation-request\r")                      // ctrl+u clears the filter's text
	r.waitFor(t, "› trigger-elicitation-request ")
	r.send(t, "\r\x13")
	r.waitFor(t, "Question · elicitation · form · request ", "Please provide inputs for the following fields:", "ctrl+d decline")
	r.send(t, "\x04") // ctrl+d
	r.waitFor(t, "User declined to provide the requested information.", `"action": "decline"`)
	r.send(t, "\x03") // ctrl+c quits from any overlay
	if code := <-r.code; code != ExitOK {
		t.Fatalf("exit %d; stderr: %s", code, r.errb.String())
	}
}
