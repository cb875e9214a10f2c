package question

import (
	"context"
	"fmt"

	"github.com/mcpscope/mcpscope/client"
)

// originText names what a question answers, for its title: the server's
// request ("request 3"), or an input of the input_required result of the
// client's request ("input \"step1\" of the input_required result of
// request 5"), as the session tells the handler.
func originText(ctx context.Context) string {
	o, ok := client.QuestionOriginOf(ctx)
	switch {
	case !ok:
		return "request id unknown"
	case o.InputKey != "":
		return fmt.Sprintf("input %q of the input_required result of request %s", o.InputKey, o.RequestID)
	}
	return "request " + o.RequestID.String()
}

// originText names what the question answers.
func (q *question) originText() string { return q.origin }
