package client

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"

	"github.com/mcpscope/mcpscope/internal/app/schemacheck"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// compileSchema compiles an outputSchema; a variable so that a test can
// count the compilations.
var compileSchema = schemacheck.Compile

// ToolResultChecker returns the judge of tool's tools/call results, as
// CheckToolResult judges them, for a caller that judges many results of
// one tool (a load test): outputSchema is compiled at most once, when a
// result first needs it, however large it is. The judge is safe for
// concurrent use.
func ToolResultChecker(tool string, outputSchema json.RawMessage) func(result json.RawMessage) *ToolFailure {
	return ToolResultCheckerWith(tool, outputSchema, compileSchema)
}

// ToolResultCheckerApart returns a judge as ToolResultChecker does, whose
// outputSchema is compiled apart (schemacheck.CompileApart): a judgement
// run off a reader's goroutine, long on a large result, then holds up no
// judgement the reader makes against the same schema meanwhile.
func ToolResultCheckerApart(tool string, outputSchema json.RawMessage) func(result json.RawMessage) *ToolFailure {
	return ToolResultCheckerWith(tool, outputSchema, schemacheck.CompileApart)
}

// ToolResultCheckerWith returns a judge as ToolResultChecker does, whose
// outputSchema is compiled by compile when a result first needs it: a
// caller that makes several judgements against one schema apart (a
// result's verdict, its findings, its report) hands them one compile
// that compiles it once.
func ToolResultCheckerWith(tool string, outputSchema json.RawMessage, compile func(json.RawMessage) (*schemacheck.Schema, error)) func(result json.RawMessage) *ToolFailure {
	compiled := sync.OnceValues(func() (*schemacheck.Schema, error) { return compile(outputSchema) })
	return func(result json.RawMessage) *ToolFailure {
		var r map[string]json.RawMessage
		if json.Unmarshal(result, &r) != nil || r == nil {
			return nil
		}
		var resultType string
		_ = json.Unmarshal(r["resultType"], &resultType)
		if present(r["task"]) || resultType == mcp.ResultTypeTask {
			return nil // a task handle (v1, v2): the task's final result is judged
		}
		var isError bool
		if json.Unmarshal(r["isError"], &isError) == nil && isError {
			return &ToolFailure{Tool: tool, Kind: ToolIsError, Detail: firstText(r["content"])}
		}
		if !present(outputSchema) || resultType == mcp.ResultTypeInputRequired {
			return nil
		}
		structured := r["structuredContent"]
		if !present(structured) {
			return &ToolFailure{Tool: tool, Kind: ToolOutputMissing}
		}
		s, err := compiled()
		if err != nil {
			return nil // a schema mcpscope cannot read judges nothing
		}
		return judgeStructured(tool, s, structured)
	}
}

// judgeStructured is the failure of structured content that s refuses,
// or nil.
func judgeStructured(tool string, s *schemacheck.Schema, structured json.RawMessage) *ToolFailure {
	failures, err := s.Validate(structured)
	if errors.Is(err, schemacheck.ErrNotChecked) {
		return nil // nor does a value mcpscope cannot check against it
	}
	if err != nil {
		return &ToolFailure{Tool: tool, Kind: ToolOutputInvalid, Detail: termtext.LineMax(err.Error(), shownToolText)}
	}
	if len(failures) == 0 {
		return nil
	}
	msgs := make([]string, 0, len(failures))
	for _, f := range failures {
		msgs = append(msgs, f.Error())
	}
	return &ToolFailure{Tool: tool, Kind: ToolOutputInvalid, Detail: termtext.LineMax(strings.Join(msgs, "; "), shownToolText)}
}
