package screen

import (
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/proto"
)

// AskProgress is the call option of every request the UI sends on the
// user's behalf: the request carries _meta.progressToken (its own id), so
// that a server reports progress. The notifications/progress frames it
// sends are captured, and the traffic pane links them to the request.
func AskProgress() client.CallOption {
	return client.WithProgress(func(proto.ProgressNotificationParams) {})
}
