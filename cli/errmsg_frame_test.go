package cli

import (
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/transports/stdio"
)

// An answer over the frame limit (a listing of 100,000 tools) says which
// flag raises the limit.
func TestMessageFrameOverLimitNamesTheFlag(t *testing.T) {
	err := &client.ProtocolError{Msg: "the answer to tools/list (id 3) is unusable", Err: &stdio.LineTooLongError{Size: 12688941, Max: 10485760}}
	if got := Message(err); !strings.HasSuffix(got, "(raise the limit with --max-frame-size N)") {
		t.Errorf("Message = %q", got)
	}
}
