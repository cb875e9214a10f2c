package screentest

import (
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// ConnectStdio starts the stdio server argv and connects a session to it,
// capturing in sink; the session, and with it the server, is closed at
// the end of the test.
func ConnectStdio(t testing.TB, sink capture.Sink, argv []string) *client.Session {
	t.Helper()
	tr := stdio.New(stdio.Config{Command: argv[0], Args: argv[1:], Sink: sink})
	return connectSession(t, tr, client.Options{}, argv[0])
}
