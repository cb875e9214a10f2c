package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
)

// The "answer" stub mode answers one method with a line the test writes
// into the stub's environment: a hostile server in one template.
const (
	// stubAnswerEnv holds the template of what the stub writes instead of
	// an answer: "\n" separates lines, and {id} is the request's id, {deep}
	// 100,000 brackets opened and closed, {pad} 1 MiB of x, {bom} a UTF-8
	// byte order mark and {ff} the byte 0xFF, which is not UTF-8.
	stubAnswerEnv = "MCPSCOPE_CLI_STUB_ANSWER"
	// stubAnswerToEnv names the method the template answers; by default
	// tools/call and tools/list.
	stubAnswerToEnv = "MCPSCOPE_CLI_STUB_ANSWER_TO"
)

// stubAnswerDepth is how deep {deep} nests.
const stubAnswerDepth = 100000

// answerFromEnv writes the template of stubAnswerEnv for the request it
// answers.
func answerFromEnv(out *bufio.Writer, method string, id json.RawMessage) bool {
	to := os.Getenv(stubAnswerToEnv)
	if to != method && (to != "" || method != "tools/call" && method != "tools/list") {
		return false
	}
	text := strings.NewReplacer(
		"{id}", string(id),
		"{deep}", strings.Repeat("[", stubAnswerDepth)+strings.Repeat("]", stubAnswerDepth),
		"{pad}", strings.Repeat("x", 1<<20),
		"{bom}", "\uFEFF",
		"{ff}", "\xff",
	).Replace(os.Getenv(stubAnswerEnv))
	out.WriteString(text + "\n")
	out.Flush()
	return true
}
