package ui

import (
	"context"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/testkit/screentest"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// TestGoldenQuestions draws each question overlay on a whole screen: a
// form-mode elicitation with a refused submit, a URL-mode one on a narrow
// screen, a sampling request with a reply being written, and the roots
// editor adding a root.
func TestGoldenQuestions(t *testing.T) {
	m, r, b := questionModel(t, capture.NewStore(capture.Config{}), 90, 22)
	request7 := client.WithQuestionOrigin(context.Background(), client.QuestionOrigin{RequestID: jsonrpc.IntID(7)})
	ask(t, r, b, request7, mcp.MethodElicitationCreate, screentest.ElicitFormParams)
	golden(t, "question_elicit_form", plainView(m))
	r.Press("ctrl+s")
	golden(t, "question_elicit_refused", plainView(m))

	m, r, b = questionModel(t, nil, 50, 22)
	ask(t, r, b, context.Background(), mcp.MethodElicitationCreate, screentest.ElicitURLParams)
	golden(t, "question_elicit_url", plainView(m))

	m, r, b = questionModel(t, nil, 90, 26)
	ask(t, r, b, context.Background(), mcp.MethodSamplingCreateMessage, screentest.SamplingParams)
	r.TypeText("Paris.")
	golden(t, "question_sampling", plainView(m))

	m, r, _ = questionModel(t, nil, 80, 16)
	r.Press("ctrl+r", "a")
	r.TypeText("file:///srv/b")
	golden(t, "roots_editor", plainView(m))
}
