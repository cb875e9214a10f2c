// Package answers answers the questions a server asks from an answers file
// (JSON or YAML), in order of arrival per kind: elicitation/create,
// sampling/createMessage and roots/list (Answerer), and the prompts of an
// interactive session (Walker). It also holds the steps `mcpscope script`
// runs and the lines its interactive steps print. The headless commands
// and replay --against answer through it; the TUI asks the user.
package answers
